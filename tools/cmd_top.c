/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_top.c - `xen-uniprof top [OPTIONS] DOMAIN`: a live view of where a
 * domain spends its time (lib/top/), full screen on a terminal when built
 * with ncurses (top_curses.c), plain text snapshots otherwise or with -b.
 *
 * What is the terminal's lives here: the options, the signals, the batch
 * view, and the exit status (the record run's results, mapped as for a
 * recording).  Signals only set flags (top_signals.c); what they cause
 * happens between ticks, with the guest running.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "options.h"
#include "record.h"
#include "top_view.h"
#include "top/xu_top.h"
#include "top/xu_top_all.h"

enum {
    OPT_BACKEND = 256,
    OPT_MAX_DEPTH,
    OPT_UNWIND,
    OPT_ROOTS,
    OPT_NO_DEMANGLE,
    OPT_NO_TASKS,
    OPT_ALL,
};

static const struct option top_options[] = {
    { "all",         no_argument,       NULL, OPT_ALL },
    { "batch",       no_argument,       NULL, 'b' },
    { "iterations",  required_argument, NULL, 'n' },
    { "delay",       required_argument, NULL, 'd' },
    { "frequency",   required_argument, NULL, 'F' },
    { "sort",        required_argument, NULL, 's' },
    { "rows",        required_argument, NULL, 'r' },
    { "elf",         required_argument, NULL, 'e' },
    { "backend",     required_argument, NULL, OPT_BACKEND },
    { "max-depth",   required_argument, NULL, OPT_MAX_DEPTH },
    { "unwind",      required_argument, NULL, OPT_UNWIND },
    { "roots",       required_argument, NULL, OPT_ROOTS },
    { "no-demangle", no_argument,       NULL, OPT_NO_DEMANGLE },
    { "no-tasks",    no_argument,       NULL, OPT_NO_TASKS },
    { "verbose",     no_argument,       NULL, 'v' },
    { "quiet",       no_argument,       NULL, 'q' },
    { "help",        no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static const char top_usage[] =
    "Usage: xen-uniprof top [OPTIONS] DOMAIN\n"
    "       xen-uniprof top --all [OPTIONS]\n"
    "\n"
    "Show where DOMAIN spends its time, refreshed every interval: its functions\n"
    "by self and total share of the last interval's samples.  Full screen on a\n"
    "terminal (" XU_TOP_SCREEN_NOTE "), plain text snapshots on stdout with -b\n"
    "or when stdout is not a terminal.  With --all, every running guest, each\n"
    "function shown as DOMAIN:FUNCTION.\n"
    "\n"
    "Options:\n"
    "      --all              every running guest but dom0, new ones as they come\n"
    "  -b, --batch            plain text snapshots on stdout, as top -b\n"
    "  -n, --iterations=N     N snapshots, then exit (default: until q or Ctrl-C)\n"
    "  -d, --delay=SECONDS    refresh interval and window, 0.1 to 3600 (default 1)\n"
    "  -F, --frequency=HZ     samples per second (default 99)\n"
    "  -s, --sort=KEY         self or total (default self)\n"
    "  -r, --rows=N           at most N functions a batch snapshot (default all)\n"
    "  -e, --elf=FILE         the guest's unstripped ELF (default: found from the\n"
    "                         domain's kernel, else a Linux kernel's image in the\n"
    "                         guest's memory; without one, addresses are shown)\n"
    "      --backend=NAME     Xen backend (see xen-uniprof --help)\n"
    "      --max-depth=N      frames per stack, 1-1024 (default 128)\n"
    "      --unwind=HOW       auto, fp, cfi, orc or ehabi (default auto)\n"
    "      --roots=LIST       functions a complete stack may start in\n"
    "      --no-demangle      keep function names as the ELF spells them\n"
    "      --no-tasks         a Linux guest's samples without their task (by\n"
    "                         default each task is a row: [task] comm/pid)\n"
    "  -v, --verbose          say more\n"
    "  -q, --quiet            print errors only\n"
    "  -h, --help             show this help\n"
    "\n"
    "Exit status: 0 done (N snapshots, q, or a signal), 1 failure, 2 usage error,\n"
    "3 no such domain, 5 not privileged, 6 the domain ended, 7 Xen version\n"
    "mismatch.  See xen-uniprof(1).\n";

struct top_cli {
    struct xu_top_config top;
    bool batch;
    bool all;                   /* --all: every running guest */
    size_t rows;
    int verbose;
    bool quiet;
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "xen-uniprof top: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'xen-uniprof top --help' for more information.\n");
    return XU_EXIT_USAGE;
}

/* 0 to run, -1 for --help (printed), or an exit status. */
static int parse(struct top_cli *o, int argc, char **argv)
{
    unsigned long u;
    int c;

    memset(o, 0, sizeof(*o));
    o->top.record.frequency = XU_DEFAULT_FREQUENCY;
    o->top.record.max_depth = XU_DEFAULT_MAX_DEPTH;
    o->top.record.unwind = XU_UNWIND_AUTO;
    o->top.interval_s = 1.0;
    o->top.sort = XU_TOP_SORT_SELF;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":bn:d:F:s:r:e:vqh", top_options, NULL)) != -1) {
        switch (c) {
        case 'b':
            o->batch = true;
            break;
        case 'n':
            if (xu_parse_ulong(optarg, 1, 1000000000UL, &u) < 0)
                return usage_error("-n/--iterations: '%s' is not a whole number from 1", optarg);
            o->top.iterations = u;
            break;
        case 'd':
            if (xu_parse_double(optarg, 0.1, 3600, &o->top.interval_s) < 0)
                return usage_error("-d/--delay: '%s' is not a number of seconds from 0.1 to "
                                   "3600", optarg);
            break;
        case 'F':
            if (xu_parse_double(optarg, 0.001, XU_MAX_FREQUENCY, &o->top.record.frequency) < 0)
                return usage_error("-F/--frequency: '%s' is not a frequency in Hz (0.001 to "
                                   "%.0f)", optarg, XU_MAX_FREQUENCY);
            break;
        case 's':
            if (strcmp(optarg, "self") == 0)
                o->top.sort = XU_TOP_SORT_SELF;
            else if (strcmp(optarg, "total") == 0)
                o->top.sort = XU_TOP_SORT_TOTAL;
            else
                return usage_error("-s/--sort: '%s' is not self or total", optarg);
            break;
        case 'r':
            if (xu_parse_ulong(optarg, 1, 1000000UL, &u) < 0)
                return usage_error("-r/--rows: '%s' is not a whole number from 1", optarg);
            o->rows = u;
            break;
        case 'e':
            if (!*optarg)
                return usage_error("-e/--elf: empty file name");
            o->top.record.elf = optarg;
            break;
        case OPT_BACKEND:
            o->top.record.backend = optarg;
            break;
        case OPT_MAX_DEPTH:
            if (xu_parse_ulong(optarg, 1, XU_MAX_DEPTH_LIMIT, &u) < 0)
                return usage_error("--max-depth: '%s' is not a whole number from 1 to %d",
                                   optarg, XU_MAX_DEPTH_LIMIT);
            o->top.record.max_depth = (unsigned int)u;
            break;
        case OPT_UNWIND:
            if (xu_record_unwind_parse(optarg, &o->top.record.unwind) < 0)
                return usage_error("--unwind: '%s' is not " XU_RECORD_UNWIND_NAMES, optarg);
            break;
        case OPT_ROOTS:
            if (!*optarg || strcmp(optarg, "+") == 0)
                return usage_error("--roots: give one or more function names");
            o->top.record.roots = optarg;
            break;
        case OPT_NO_DEMANGLE:
            o->top.record.render.raw_names = true;
            break;
        case OPT_NO_TASKS:
            o->top.record.no_tasks = true;
            break;
        case OPT_ALL:
            o->all = true;
            break;
        case 'v':
            o->verbose++;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            fputs(top_usage, stdout);
            return -1;
        case ':':
            return usage_error("%s needs an argument", argv[optind - 1]);
        default:
            if (optopt)
                return usage_error("unknown option '-%c'", optopt);
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (o->quiet && o->verbose)
        return usage_error("-q/--quiet and -v/--verbose contradict each other");
    if (o->all) {
        if (o->top.record.elf)
            return usage_error("-e/--elf and --all contradict each other: each domain's ELF "
                               "is found from its own kernel");
        if (optind < argc)
            return usage_error("unexpected argument '%s': --all takes no DOMAIN", argv[optind]);
        return 0;
    }
    if (optind >= argc)
        return usage_error("no DOMAIN given (a domain name or id)");
    if (optind + 1 < argc)
        return usage_error("unexpected argument '%s' after DOMAIN '%s'", argv[optind + 1],
                           argv[optind]);
    if (!*argv[optind])
        return usage_error("empty DOMAIN");
    o->top.record.domain = argv[optind];
    return 0;
}

/* ---- the batch view ---- */

struct batch {
    FILE *out;
    size_t rows;
    bool failed;                /* stdout could not be written */
};

/* After a snapshot was printed: stop once stdout failed. */
static int batch_written(struct batch *b)
{
    if (ferror(b->out))
        b->failed = true;
    return b->failed;
}

/* The exit status of a batch run that ended with r. */
static int batch_status(const struct batch *b, enum xu_record_result r, struct xu_log *log)
{
    if (b->failed || fflush(b->out) != 0) {
        xu_error(log, "cannot write the snapshots to stdout");
        return XU_EXIT_FAILURE;
    }
    return xu_record_exit_status(r);
}

static int batch_show(void *ctx, const struct xu_top_snapshot *s)
{
    struct batch *b = ctx;

    xu_top_print_batch(b->out, s, b->rows);
    return batch_written(b);
}

static int batch_poll(void *ctx, enum xu_top_sort *sort, double *frequency_hz)
{
    (void)ctx;
    (void)sort;
    (void)frequency_hz;
    xu_top_suspend_if_asked(NULL, NULL, NULL);
    return 0;
}

/* ---- the batch view of --all ---- */

static int batch_all_show(void *ctx, const struct xu_top_all_snapshot *s)
{
    struct batch *b = ctx;

    xu_top_all_print_batch(b->out, s, b->rows);
    return batch_written(b);
}

/* One line on stderr per domain that left; the others go on. */
static void batch_all_ended(void *ctx, uint32_t domid, const char *name, int status,
                            bool stopped)
{
    (void)ctx;
    if (stopped)
        return;
    if (status == XU_EXIT_DOMAIN_ENDED)
        fprintf(stderr, "xen-uniprof top: domain %" PRIu32 " (%s) ended\n", domid, name);
    else
        fprintf(stderr, "xen-uniprof top: domain %" PRIu32 " (%s) is no longer sampled "
                "(exit status %d, see above)\n", domid, name, status);
}

static int batch_all_poll(void *ctx, enum xu_top_sort *sort)
{
    return batch_poll(ctx, sort, NULL);
}

static int run_all(struct top_cli *o, struct xu_record_env *env, struct xu_log *log)
{
    struct xu_top_all_config cfg = { .top = o->top };
    struct batch batch = { .out = stdout, .rows = o->rows };
    struct xu_top_all_view view = {
        .show = batch_all_show,
        .ended = batch_all_ended,
        .poll = batch_all_poll,     /* Ctrl-Z between snapshots */
        .poll_s = 0.1,
        .ctx = &batch,
    };

    if (!o->batch && xu_top_screen_usable())
        return xu_record_exit_status(xu_top_screen_run_all(&cfg, env, log));
    return batch_status(&batch, xu_top_all_run(&cfg, env, &view), log);
}

int xu_cmd_top(int argc, char **argv)
{
    struct top_cli o;
    struct xu_log log;
    struct xu_record_env env = { 0 };
    struct batch batch = { 0 };
    struct xu_top_view view = { 0 };
    int rc = parse(&o, argc, argv);

    if (rc)
        return rc < 0 ? XU_EXIT_OK : rc;
    xu_cli_log_init(&log, XU_LOG_INFO, o.verbose, o.quiet);
    env.log = &log;
    env.stop = xu_top_signals_install();

    if (o.all)
        return run_all(&o, &env, &log);
    if (!o.batch && xu_top_screen_usable())
        return xu_record_exit_status(xu_top_screen_run(&o.top, &env, &log));

    batch.out = stdout;
    batch.rows = o.rows;
    view.show = batch_show;
    view.poll = batch_poll;
    view.poll_s = 0.1;
    view.ctx = &batch;
    return batch_status(&batch, xu_top_run(&o.top, &env, &view), &log);
}
