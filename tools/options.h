/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - the command line of `xen-uniprof [options] DOMAIN`.
 *
 * Parsing is separate from doing so that it can be unit-tested: it never
 * prints or exits, it fills struct xu_options or an error message naming
 * the offending option.
 */
#ifndef XU_OPTIONS_H
#define XU_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "output/xu_output.h"
#include "record/xu_record.h"   /* enum xu_unwind_choice */

#define XU_DEFAULT_FREQUENCY 99.0
#define XU_MAX_FREQUENCY 100000.0
#define XU_DEFAULT_JITTER 0.0


struct xu_options {
    const char *domain;         /* name or domid, as given */
    double frequency;           /* Hz */
    double jitter;              /* --jitter: fraction of a period (xu_sampler_config) */
    bool spin;                  /* --spin: wait for ticks spinning (xu_sampler_config) */
    bool no_tasks;              /* --no-tasks: a Linux guest's samples without their task */
    double duration;            /* seconds; 0 = until interrupted or the domain ends */
    unsigned long samples;      /* stop after this many samples; 0 = no limit */
    const char *output;         /* NULL = "<domain>.<ext of the default format>" */
    const char *format;         /* NULL = from the output's extension, else default */
    const char *elf;            /* NULL = find it */
    const char *backend;        /* NULL = best available */
    const char *stats;          /* NULL, or a file for the run's statistics (JSON);
                                 * with all, a suffix: DIR/<domain><stats> */
    bool all;                   /* --all: every running guest, -o names a directory */
    const char *create;         /* --create CONFIG: create the domain paused, profile from boot */
    bool destroy;               /* --destroy: destroy the domain at the end (with --create) */
    unsigned int max_depth;
    enum xu_unwind_choice unwind;
    const char *roots;          /* --roots: where a stack may start; NULL: the defaults */
    struct xu_output_options render;    /* --per-vcpu, --title, --width, ... */
    int verbose;                /* -v count */
    bool quiet;
};

enum xu_parse_result {
    XU_PARSE_OK = 0,
    XU_PARSE_HELP,              /* -h given: print usage, exit 0 */
    XU_PARSE_VERSION,           /* -V given: print version, exit 0 */
    XU_PARSE_ERROR,             /* err holds the message; exit XU_EXIT_USAGE */
};

void xu_options_init(struct xu_options *o);
enum xu_parse_result xu_options_parse(struct xu_options *o, int argc, char **argv,
                                      char *err, size_t errlen);
/* The usage text, for -h and after usage errors. */
const char *xu_options_usage(void);

/* A finite number, the whole argument, within [min, max]: 0, else -1. */
int xu_parse_double(const char *s, double min, double max, double *out);
/* A decimal integer, the whole argument, within [min, max]: 0, else -1. */
int xu_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

#endif
