/* SPDX-License-Identifier: GPL-2.0-only */
/* log.c - the default stderr logger and the formatting front end. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "util/xu_log.h"

static void stderr_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    static const char *const prefix[] = {
        [XU_LOG_DEBUG] = "debug: ",
        [XU_LOG_INFO] = "",
        [XU_LOG_WARN] = "warning: ",
        [XU_LOG_ERROR] = "error: ",
    };
    fprintf(stderr, "xen-uniprof: %s%s\n", prefix[level], msg);
}

static struct xu_log default_log = {
    .emit = stderr_emit,
    .ctx = NULL,
    .min_level = XU_LOG_WARN,
};

struct xu_log *xu_log_default(void)
{
    return &default_log;
}

void xu_log_init_stderr(struct xu_log *log, enum xu_log_level min_level)
{
    log->emit = stderr_emit;
    log->ctx = NULL;
    log->min_level = min_level;
}

void xu_vlogf(struct xu_log *log, enum xu_log_level level, const char *fmt, va_list ap)
{
    char msg[1024];

    if (!log)
        log = &default_log;
    if (level < log->min_level || !log->emit)
        return;
    vsnprintf(msg, sizeof(msg), fmt, ap);
    log->emit(log->ctx, level, msg);
}

void xu_logf(struct xu_log *log, enum xu_log_level level, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    xu_vlogf(log, level, fmt, ap);
    va_end(ap);
}

static void prefixed_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct xu_log_prefixed *p = ctx;

    if (level >= XU_LOG_WARN)
        snprintf(p->last_problem, sizeof(p->last_problem), "%s", msg);
    xu_logf(p->up, level, "%s%s", p->prefix, msg);
}

void xu_log_prefixed_init(struct xu_log_prefixed *p, struct xu_log *up, const char *prefix)
{
    memset(p, 0, sizeof(*p));
    p->log.emit = prefixed_emit;
    p->log.ctx = p;
    p->log.min_level = XU_LOG_DEBUG;        /* up's level filters */
    p->up = up ? up : xu_log_default();
    snprintf(p->prefix, sizeof(p->prefix), "%s", prefix);
}

void xu_errbuf_printf(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;

    if (!err || size == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
}
