/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_stack.c - `xen-uniprof stack DOMAIN` and `xen-uniprof stack --core
 * FILE`: where every vCPU is now (lib/record/xu_stack.h), printed to
 * stdout; the command line and the exit status are this file's.
 */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "options.h"
#include "record.h"
#include "record/xu_stack.h"

enum {
    OPT_BACKEND = 0x2000,
    OPT_MAX_DEPTH,
    OPT_UNWIND,
    OPT_ROOTS,
    OPT_CORE,
    OPT_FORMAT,
    OPT_NO_DEMANGLE,
    OPT_NO_INLINE,
};

static const struct option stack_options[] = {
    { "core",        required_argument, NULL, OPT_CORE },
    { "elf",         required_argument, NULL, 'e' },
    { "iterations",  required_argument, NULL, 'n' },
    { "delay",       required_argument, NULL, 'd' },
    { "format",      required_argument, NULL, OPT_FORMAT },
    { "backend",     required_argument, NULL, OPT_BACKEND },
    { "max-depth",   required_argument, NULL, OPT_MAX_DEPTH },
    { "unwind",      required_argument, NULL, OPT_UNWIND },
    { "roots",       required_argument, NULL, OPT_ROOTS },
    { "no-demangle", no_argument,       NULL, OPT_NO_DEMANGLE },
    { "no-inline",   no_argument,       NULL, OPT_NO_INLINE },
    { "verbose",     no_argument,       NULL, 'v' },
    { "quiet",       no_argument,       NULL, 'q' },
    { "help",        no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static const char stack_usage[] =
    "Usage: xen-uniprof stack [OPTIONS] DOMAIN\n"
    "       xen-uniprof stack [OPTIONS] --core FILE [-e ELF]\n"
    "\n"
    "Where every vCPU is now: pause the domain once (per snapshot), print each\n"
    "online vCPU's state, registers and symbolised stack, innermost first, with\n"
    "inlined functions on lines of their own and why the walk ended.  --core\n"
    "reads a file written by `xl dump-core` (or on_crash=\"coredump-destroy\").\n"
    "\n"
    "Options:\n"
    "      --core=FILE        an xl dump-core file instead of a live domain\n"
    "  -e, --elf=FILE         the guest's ELF (default: the domain's kernel, else\n"
    "                         a Linux kernel's image in the guest's memory; with\n"
    "                         --core: none, frames stay addresses)\n"
    "  -n, --iterations=N     N snapshots, 1-10000 (default 1; a core has one)\n"
    "  -d, --delay=SECONDS    between snapshots (default 1)\n"
    "      --format=FMT       text (the default) or json\n"
    "      --backend=NAME     Xen interface to use (default: the best built)\n"
    "      --max-depth=N      frames per stack, 1-1024 (default 128)\n"
    "      --unwind=HOW       auto (the default), fp, cfi, orc or ehabi, as for\n"
    "                         recording\n"
    "      --roots=LIST       where a complete stack may start, as for recording\n"
    "      --no-demangle      keep function names as the ELF spells them\n"
    "      --no-inline        no lines for inlined functions\n"
    "  -v, --verbose          say more\n"
    "  -q, --quiet            print errors only\n"
    "  -h, --help             show this help\n"
    "\n"
    "Exit status: 0 printed, 1 failure, 2 usage error, 3 no such domain,\n"
    "4 no usable symbols, 5 not privileged, 6 domain ended, 7 Xen version\n"
    "mismatch, 8 the core file cannot be read.  See xen-uniprof(1).\n";

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("xen-uniprof stack: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'xen-uniprof stack --help' for more information.\n", stderr);
    return XU_EXIT_USAGE;
}

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    stop_requested = sig;
}

/* One option into the job: 0, or the exit status of a usage error. */
static int take_option(int c, char **argv, struct xu_stack_config *job, int *verbose,
                       bool *quiet)
{
    unsigned long n;

    switch (c) {
    case OPT_CORE:        job->core = optarg; return 0;
    case 'e':             job->elf = optarg; return 0;
    case OPT_BACKEND:     job->backend = optarg; return 0;
    case OPT_ROOTS:       job->roots = optarg; return 0;
    case OPT_NO_DEMANGLE: job->render.raw_names = true; return 0;
    case OPT_NO_INLINE:   job->render.no_inline = true; return 0;
    case 'v':             (*verbose)++; return 0;
    case 'q':             *quiet = true; return 0;
    case 'n':
        if (xu_parse_ulong(optarg, 1, XU_STACK_MAX_SNAPSHOTS, &n) < 0)
            return usage_error("-n: '%s' is not a whole number from 1 to %d", optarg,
                               XU_STACK_MAX_SNAPSHOTS);
        job->snapshots = (unsigned int)n;
        return 0;
    case 'd':
        if (xu_parse_double(optarg, 0, 86400, &job->interval) < 0)
            return usage_error("-d: '%s' is not a number of seconds from 0 to 86400", optarg);
        return 0;
    case OPT_MAX_DEPTH:
        if (xu_parse_ulong(optarg, 1, XU_MAX_DEPTH_LIMIT, &n) < 0)
            return usage_error("--max-depth: '%s' is not a whole number from 1 to %d", optarg,
                               XU_MAX_DEPTH_LIMIT);
        job->max_depth = (unsigned int)n;
        return 0;
    case OPT_UNWIND:
        if (xu_record_unwind_parse(optarg, &job->unwind) < 0)
            return usage_error("--unwind: '%s' is not " XU_RECORD_UNWIND_NAMES, optarg);
        return 0;
    case OPT_FORMAT:
        if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
            return usage_error("--format: '%s' is not text or json", optarg);
        job->json = strcmp(optarg, "json") == 0;
        return 0;
    case ':':
        return usage_error("option '%s' needs an argument", argv[optind - 1]);
    default:
        return usage_error("unknown option '%s'", argv[optind - 1]);
    }
}

int xu_cmd_stack(int argc, char **argv)
{
    struct xu_stack_config job = { .max_depth = XU_DEFAULT_MAX_DEPTH, .snapshots = 1,
                                   .interval = 1.0 };
    struct xu_record_env env = { 0 };
    struct sigaction sa;
    struct xu_log log;
    int c, rc, verbose = 0;
    bool quiet = false;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":e:n:d:vqh", stack_options, NULL)) != -1) {
        if (c == 'h') {
            fputs(stack_usage, stdout);
            return XU_EXIT_OK;
        }
        if ((rc = take_option(c, argv, &job, &verbose, &quiet)) != 0)
            return rc;
    }
    if (optind < argc)
        job.domain = argv[optind++];
    if (optind < argc)
        return usage_error("one domain at a time ('%s' is one too many)", argv[optind]);
    if (!job.domain == !job.core)
        return usage_error(job.core ? "a domain or --core, not both" :
                           "which domain? (or --core FILE)");

    xu_cli_log_init(&log, XU_LOG_WARN, verbose, quiet);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    env.log = &log;
    env.stop = &stop_requested;
    return xu_record_exit_status(xu_stack_run(&job, &env, stdout));
}
