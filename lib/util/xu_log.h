/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_log.h - caller-supplied logging for the xen-uniprof library.
 *
 * Every library object that can fail in a way worth explaining takes a
 * struct xu_log *.  NULL means "the default": messages at XU_LOG_WARN and
 * above go to stderr prefixed with "xen-uniprof: ".  The library never
 * prints to stdout, so data written there stays clean.
 */
#ifndef XU_LOG_H
#define XU_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum xu_log_level {
    XU_LOG_DEBUG = 0,
    XU_LOG_INFO,
    XU_LOG_WARN,
    XU_LOG_ERROR,
};

struct xu_log {
    /* Called with a complete message, no trailing newline. */
    void (*emit)(void *ctx, enum xu_log_level level, const char *msg);
    void *ctx;
    enum xu_log_level min_level;    /* messages below this are dropped */
};

/* The stderr logger used when a NULL logger is passed. */
struct xu_log *xu_log_default(void);

/* Make *log a stderr logger like the default one, with its own threshold. */
void xu_log_init_stderr(struct xu_log *log, enum xu_log_level min_level);

void xu_logf(struct xu_log *log, enum xu_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void xu_vlogf(struct xu_log *log, enum xu_log_level level, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* A message into a caller's buffer (parsers that report why they refused an
 * input without a logger); nothing when err is NULL or size 0. */
void xu_errbuf_printf(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A logger for one part of a bigger run (a domain of `--all`): each message
 * goes on to up (NULL: the default) behind prefix, filtered by up's level;
 * the last warning or error is kept, whatever up's level, for the caller
 * to say why something is missing.
 */
struct xu_log_prefixed {
    struct xu_log log;              /* hand &p->log to the library */
    struct xu_log *up;
    char prefix[160];
    char last_problem[512];         /* "" until a warning or an error */
};
void xu_log_prefixed_init(struct xu_log_prefixed *p, struct xu_log *up, const char *prefix);

#define xu_debug(log, ...) xu_logf((log), XU_LOG_DEBUG, __VA_ARGS__)
#define xu_info(log, ...)  xu_logf((log), XU_LOG_INFO, __VA_ARGS__)
#define xu_warn(log, ...)  xu_logf((log), XU_LOG_WARN, __VA_ARGS__)
#define xu_error(log, ...) xu_logf((log), XU_LOG_ERROR, __VA_ARGS__)

#endif
