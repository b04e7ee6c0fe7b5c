/* SPDX-License-Identifier: GPL-2.0-only */
/* options.c - parsing `xen-uniprof [options] DOMAIN` (see options.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "render_options.h"
#include "sample/xu_sampler.h"   /* XU_SAMPLER_MAX_JITTER */
#include "unwind/xu_unwind.h"

enum {
    OPT_MAX_DEPTH = 256,
    OPT_BACKEND,
    OPT_STATS,
    OPT_CREATE,
    OPT_DESTROY,
    OPT_UNWIND,
    OPT_SAMPLES,
    OPT_ROOTS,
    OPT_JITTER,
    OPT_SPIN,
    OPT_ALL,
    OPT_NO_TASKS,
};

static const struct option long_options[] = {
    { "frequency", required_argument, NULL, 'F' },
    { "jitter",    required_argument, NULL, OPT_JITTER },
    { "spin",      no_argument,       NULL, OPT_SPIN },
    { "time",      required_argument, NULL, 'T' },
    { "samples",   required_argument, NULL, OPT_SAMPLES },
    { "output",    required_argument, NULL, 'o' },
    { "format",    required_argument, NULL, 'f' },
    { "elf",       required_argument, NULL, 'e' },
    { "backend",   required_argument, NULL, OPT_BACKEND },
    { "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
    { "unwind",    required_argument, NULL, OPT_UNWIND },
    { "roots",     required_argument, NULL, OPT_ROOTS },
    { "no-tasks",  no_argument,       NULL, OPT_NO_TASKS },
    { "stats",     required_argument, NULL, OPT_STATS },
    { "create",    required_argument, NULL, OPT_CREATE },
    { "all",       no_argument,       NULL, OPT_ALL },
    { "destroy",   no_argument,       NULL, OPT_DESTROY },
    { "verbose",   no_argument,       NULL, 'v' },
    { "quiet",     no_argument,       NULL, 'q' },
    { "help",      no_argument,       NULL, 'h' },
    { "version",   no_argument,       NULL, 'V' },
    XU_RENDER_LONG_OPTIONS,
    { NULL, 0, NULL, 0 },
};

static const char usage_text[] =
    "Usage: xen-uniprof [OPTIONS] DOMAIN\n"
    "       xen-uniprof [OPTIONS] --create XL-CONFIG\n"
    "       xen-uniprof [OPTIONS] --all -o DIR\n"
    "       xen-uniprof convert [OPTIONS] INPUT\n"
    "       xen-uniprof diff BEFORE AFTER -o OUTPUT\n"
    "       xen-uniprof top [OPTIONS] DOMAIN\n"
    "       xen-uniprof stack [OPTIONS] DOMAIN | --core FILE\n"
    "\n"
    "Sample the stacks of every vCPU of a Xen guest from dom0 and write a profile.\n"
    "DOMAIN is a domain name or a numeric domain id.\n"
    "\n"
    "Options:\n"
    "  -F, --frequency=HZ     samples per second (default 99)\n"
    "      --jitter=FRACTION  space ticks at random, uniformly within FRACTION of a\n"
    "                         period either side, 0 to 0.9 (default 0: strictly\n"
    "                         periodic), so that no guest can stay in step with them\n"
    "      --spin             wait for each tick spinning, not sleeping: one dom0\n"
    "                         vCPU busy throughout; only where it has a CPU to itself\n"
    "  -T, --time=SECONDS     how long to sample, fractions allowed (default: until\n"
    "                         Ctrl-C or the domain ends)\n"
    "      --samples=N        stop after N samples (a stack per vCPU per tick),\n"
    "                         or at -T, whichever comes first\n"
    "  -o, --output=FILE      where to write the profile, - for stdout\n"
    "                         (default: DOMAIN.<format extension>)\n"
    "  -f, --format=FORMAT    output format (default: from FILE's extension)\n"
    "  -e, --elf=FILE         the guest's unstripped ELF (default: found from the\n"
    "                         domain's kernel; with no kernel file, a Linux\n"
    "                         kernel's own image in the guest's memory)\n"
    "      --backend=NAME     Xen interface to use (default: the best built)\n"
    "      --max-depth=N      frames per stack, 1-1024 (default 128)\n"
    "      --unwind=HOW       auto (a Linux kernel's ORC tables where the ELF has\n"
    "                         them, else DWARF CFI where it has some, else an\n"
    "                         ARM ELF's EHABI tables, frame pointers elsewhere;\n"
    "                         the default), fp, cfi, orc or ehabi\n"
    "      --roots=LIST       functions a complete stack may start in, comma-\n"
    "                         separated (+LIST: in addition to the defaults)\n"
    "      --no-tasks         a Linux guest's samples without their task: no\n"
    "                         [task] comm/pid root frame, user mode as its address\n"
    "      --stats=FILE       also write the run's statistics as JSON\n"
    "      --create=CONFIG    create the domain from an xl config, paused, and\n"
    "                         profile it from its first instruction\n"
    "      --destroy          destroy the domain when done (with --create)\n"
    "      --all              every running guest but dom0, one file per domain in\n"
    "                         the directory -o DIR: DIR/NAME.<format extension>;\n"
    "                         --stats=SUFFIX writes DIR/NAME<SUFFIX>\n"
    XU_RENDER_USAGE
    "  -v, --verbose          say more (debug output)\n"
    "  -q, --quiet            print errors only\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n";

const char *xu_options_usage(void)
{
    return usage_text;
}

void xu_options_init(struct xu_options *o)
{
    memset(o, 0, sizeof(*o));
    o->frequency = XU_DEFAULT_FREQUENCY;
    o->jitter = XU_DEFAULT_JITTER;
    o->max_depth = XU_DEFAULT_MAX_DEPTH;
}

static enum xu_parse_result fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum xu_parse_result fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return XU_PARSE_ERROR;
}

/* --all: a directory of files, one a domain, each domain's ELF its own. */
static enum xu_parse_result check_all(const struct xu_options *o, int argc, char **argv,
                                      char *err, size_t errlen)
{
    if (o->create)
        return fail(err, errlen, "--all and --create contradict each other");
    if (o->elf)
        return fail(err, errlen, "-e/--elf and --all contradict each other: each domain's "
                    "ELF is found from its own kernel");
    if (!o->output || strcmp(o->output, "-") == 0)
        return fail(err, errlen, "--all writes a file per domain: give their directory "
                    "with -o DIR");
    if (o->stats && strchr(o->stats, '/'))
        return fail(err, errlen, "--stats with --all is a file name suffix (DIR/NAME<SUFFIX>), "
                    "without '/': '%s'", o->stats);
    if (optind < argc)
        return fail(err, errlen, "unexpected argument '%s': --all takes no DOMAIN", argv[optind]);
    return XU_PARSE_OK;
}

int xu_parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    double v;

    if (!*s)
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int xu_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
    char *end;
    unsigned long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* The option as the user spelt it, for messages. */
static const char *opt_name(int c, char *buf, size_t len)
{
    size_t i;

    if (xu_render_option_name(c))
        return xu_render_option_name(c);
    for (i = 0; long_options[i].name; i++)
        if (long_options[i].val == c) {
            if (c < 256)
                snprintf(buf, len, "-%c/--%s", c, long_options[i].name);
            else
                snprintf(buf, len, "--%s", long_options[i].name);
            return buf;
        }
    snprintf(buf, len, "-%c", c);
    return buf;
}

enum xu_parse_result xu_options_parse(struct xu_options *o, int argc, char **argv,
                                      char *err, size_t errlen)
{
    char name[32];
    unsigned long u;
    int c;

    opterr = 0;     /* we word the errors ourselves (and the leading colon reports missing arguments as :) */
    optind = 0;     /* glibc: full re-initialisation, so tests can parse twice */
    while ((c = getopt_long(argc, argv, ":F:T:o:f:e:vqhV", long_options, NULL)) != -1) {
        switch (xu_render_option(c, optarg, &o->render, err, errlen)) {
        case 1:
            continue;
        case -1:
            return XU_PARSE_ERROR;
        }
        switch (c) {
        case 'F':
            if (xu_parse_double(optarg, 0.001, XU_MAX_FREQUENCY, &o->frequency) < 0)
                return fail(err, errlen, "%s: '%s' is not a frequency in Hz (0.001 to %.0f)",
                            opt_name(c, name, sizeof(name)), optarg, XU_MAX_FREQUENCY);
            break;
        case OPT_SPIN:
            o->spin = true;
            break;
        case OPT_NO_TASKS:
            o->no_tasks = true;
            break;
        case OPT_JITTER:
            if (xu_parse_double(optarg, 0, XU_SAMPLER_MAX_JITTER, &o->jitter) < 0)
                return fail(err, errlen, "--jitter: '%s' is not a fraction of a period "
                            "(0 to %.1f)", optarg, XU_SAMPLER_MAX_JITTER);
            break;
        case 'T':
            if (xu_parse_double(optarg, 0, 1e9, &o->duration) < 0 || o->duration == 0)
                return fail(err, errlen, "%s: '%s' is not a positive number of seconds",
                            opt_name(c, name, sizeof(name)), optarg);
            break;
        case 'o':
            if (!*optarg)
                return fail(err, errlen, "-o/--output: empty file name");
            o->output = optarg;
            break;
        case 'f':
            o->format = optarg;
            break;
        case 'e':
            if (!*optarg)
                return fail(err, errlen, "-e/--elf: empty file name");
            o->elf = optarg;
            break;
        case OPT_BACKEND:
            o->backend = optarg;
            break;
        case OPT_MAX_DEPTH:
            if (xu_parse_ulong(optarg, 1, XU_MAX_DEPTH_LIMIT, &u) < 0)
                return fail(err, errlen, "--max-depth: '%s' is not a whole number from 1 to %d",
                            optarg, XU_MAX_DEPTH_LIMIT);
            o->max_depth = (unsigned int)u;
            break;
        case OPT_SAMPLES:
            if (xu_parse_ulong(optarg, 1, 4000000000UL, &u) < 0)
                return fail(err, errlen, "--samples: '%s' is not a whole number from 1 to "
                            "4000000000", optarg);
            o->samples = u;
            break;
        case OPT_UNWIND:
            if (xu_record_unwind_parse(optarg, &o->unwind) < 0)
                return fail(err, errlen, "--unwind: '%s' is not " XU_RECORD_UNWIND_NAMES, optarg);
            break;
        case OPT_STATS:
            if (!*optarg)
                return fail(err, errlen, "--stats: empty file name");
            o->stats = optarg;
            break;
        case OPT_ROOTS:
            if (!*optarg || strcmp(optarg, "+") == 0)
                return fail(err, errlen, "--roots: give one or more function names");
            o->roots = optarg;
            break;
        case OPT_CREATE:
            if (!*optarg)
                return fail(err, errlen, "--create: empty file name");
            o->create = optarg;
            break;
        case OPT_ALL:
            o->all = true;
            break;
        case OPT_DESTROY:
            o->destroy = true;
            break;
        case 'v':
            o->verbose++;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            return XU_PARSE_HELP;
        case 'V':
            return XU_PARSE_VERSION;
        case ':':
            if (optopt)
                return fail(err, errlen, "%s needs an argument", opt_name(optopt, name, sizeof(name)));
            return fail(err, errlen, "%s needs an argument", argv[optind - 1]);
        case '?':
        default:
            if (optopt)
                return fail(err, errlen, "unknown option '-%c'", optopt);
            return fail(err, errlen, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (o->quiet && o->verbose)
        return fail(err, errlen, "-q/--quiet and -v/--verbose contradict each other");
    if (o->destroy && !o->create)
        return fail(err, errlen, "--destroy only goes with --create");
    if (o->all)
        return check_all(o, argc, argv, err, errlen);
    if (o->create) {
        if (optind < argc)
            return fail(err, errlen, "--create names the domain through its config; "
                        "unexpected DOMAIN '%s'", argv[optind]);
        return XU_PARSE_OK;
    }
    if (optind >= argc)
        return fail(err, errlen, "no DOMAIN given (a domain name or id)");
    if (optind + 1 < argc)
        return fail(err, errlen, "unexpected argument '%s' after DOMAIN '%s'",
                    argv[optind + 1], argv[optind]);
    o->domain = argv[optind];
    if (!*o->domain)
        return fail(err, errlen, "empty DOMAIN");
    return XU_PARSE_OK;
}
