/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_diff.c - `xen-uniprof diff BEFORE AFTER -o diff.svg`: a differential
 * flame graph.
 *
 * The graph is AFTER's (frame widths are its samples); each frame's colour
 * says how its share of samples changed from BEFORE, after normalising
 * BEFORE to AFTER's total so runs of different lengths compare: red grew,
 * blue shrank, white stayed.  Inputs are raw traces or folded stacks; frames
 * are matched by name, so both need symbols (an --elf for raw addresses).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "render_options.h"
#include "util/xu_atomic_file.h"
#include "output/xu_flamegraph.h"

static const struct option diff_options[] = {
    { "elf",          required_argument, NULL, 'e' },
    { "output",       required_argument, NULL, 'o' },
    { "format",       required_argument, NULL, 'f' },
    { "input-format", required_argument, NULL, 'i' },
    { "verbose",      no_argument,       NULL, 'v' },
    { "quiet",        no_argument,       NULL, 'q' },
    { "help",         no_argument,       NULL, 'h' },
    XU_RENDER_LONG_OPTIONS,
    { NULL, 0, NULL, 0 },
};

static const char diff_usage[] =
    "Usage: xen-uniprof diff [OPTIONS] BEFORE AFTER -o OUTPUT.svg\n"
    "\n"
    "Draw AFTER as a flame graph coloured by the change from BEFORE, each\n"
    "normalised by its total samples: red grew, blue shrank.  BEFORE and AFTER\n"
    "are raw traces or folded stacks.\n"
    "\n"
    "Options:\n"
    "  -o, --output=FILE      where to write the SVG (default: - for stdout)\n"
    "  -e, --elf=FILE         symbolise raw addresses of both inputs\n"
    "  -i, --input-format=FMT raw, folded or auto (default auto)\n"
    XU_RENDER_USAGE
    "                         (--palette does not apply: colours show the change)\n"
    "  -v, --verbose          say more\n"
    "  -q, --quiet            print errors only\n"
    "  -h, --help             show this help\n";

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("xen-uniprof diff: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'xen-uniprof diff --help' for more information.\n", stderr);
    return XU_EXIT_USAGE;
}

static int write_diff(FILE *f, struct xu_loaded *before, struct xu_loaded *after,
                      const char *bpath, const char *apath, const struct xu_output_options *oo,
                      struct xu_log *log)
{
    struct xu_fg *fg = xu_fg_new();
    struct xu_fg_labels labels = { .title = oo->title };
    struct xu_profile_totals tb, ta;
    char subtitle[512];
    int rc;

    if (!fg)
        return -ENOMEM;
    rc = xu_fg_add(fg, &after->ctx, 0);
    if (rc == 0)
        rc = xu_fg_add(fg, &before->ctx, 1);
    if (rc < 0)
        goto out;
    xu_profile_get_totals(before->input->profile, &tb);
    xu_profile_get_totals(after->input->profile, &ta);
    snprintf(subtitle, sizeof(subtitle),
             "%s (%" PRIu64 " samples) -> %s (%" PRIu64 " samples); "
             "red grew, blue shrank, by share of samples", bpath, tb.samples, apath,
             ta.samples);
    labels.subtitle = subtitle;
    rc = xu_fg_write_svg(f, fg, oo, &labels, log);
out:
    xu_fg_free(fg);
    return rc;
}

int xu_cmd_diff(int argc, char **argv)
{
    struct xu_output_options oo = { 0 };
    struct xu_loaded before = { 0 }, after = { 0 };
    struct xu_symtab *symtab = NULL;
    char *sym_path = NULL;
    struct xu_atomic_file *af = NULL;
    struct xu_log log;
    const char *elf = NULL, *output = "-";
    enum xu_input_format ifmt = XU_INPUT_AUTO;
    int verbose = 0, c, rc;
    bool quiet = false;
    char err[256];

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":e:o:f:i:vqh", diff_options, NULL)) != -1) {
        if (c == XU_ROPT_PALETTE)
            return usage_error("--palette: a diff is coloured by the change, not by a palette");
        switch (xu_render_option(c, optarg, &oo, err, sizeof(err))) {
        case 1:
            continue;
        case -1:
            return usage_error("%s", err);
        }
        switch (c) {
        case 'e': elf = optarg; break;
        case 'o': output = optarg; break;
        case 'f':
            if (strcmp(optarg, "svg") != 0)
                return usage_error("--format: '%s': a diff is drawn as svg only", optarg);
            break;
        case 'i':
            if (strcmp(optarg, "raw") == 0)
                ifmt = XU_INPUT_RAW;
            else if (strcmp(optarg, "folded") == 0)
                ifmt = XU_INPUT_FOLDED;
            else if (strcmp(optarg, "auto") != 0)
                return usage_error("--input-format: '%s' is not raw, folded or auto", optarg);
            break;
        case 'v': verbose++; break;
        case 'q': quiet = true; break;
        case 'h':
            fputs(diff_usage, stdout);
            return XU_EXIT_OK;
        case ':':
            return usage_error("option '%s' needs an argument", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return usage_error("%s", argc - optind < 2 ? "BEFORE and AFTER are both needed"
                                                   : "more than two inputs given");

    xu_cli_log_init(&log, XU_LOG_WARN, verbose, quiet);
    /* killed while writing: no ".OUTPUT.XXXXXX" left behind */
    xu_atomic_cleanup_on_signals();
    if (elf) {
        rc = xu_cmd_open_elf(elf, &log, &symtab, &sym_path);
        if (rc)
            goto out;
    }
    rc = xu_cmd_load(argv[optind], ifmt, symtab, sym_path, &oo, &log, &before);
    if (rc == 0)
        rc = xu_cmd_load(argv[optind + 1], ifmt, symtab, sym_path, &oo, &log, &after);
    if (rc)
        goto out;
    before.ctx.opts = after.ctx.opts = &oo;
    before.ctx.log = after.ctx.log = &log;
    if (strcmp(output, "-") == 0) {
        rc = write_diff(stdout, &before, &after, argv[optind], argv[optind + 1], &oo, &log);
        errno = 0;
        if (rc == 0 && fflush(stdout) != 0)
            rc = errno ? -errno : -EIO;
    } else {
        af = xu_atomic_open(output);
        if (!af) {
            xu_error(&log, "cannot create a file beside %s: %s", output, strerror(errno));
            rc = XU_EXIT_FAILURE;
            goto out;
        }
        rc = write_diff(af->f, &before, &after, argv[optind], argv[optind + 1], &oo, &log);
        rc = xu_atomic_reason(af, rc);
        if (rc < 0)
            xu_atomic_abort(af);
        else
            rc = xu_atomic_commit(af);
    }
    if (rc < 0) {
        xu_error(&log, "writing %s: %s", output, strerror(-rc));
        rc = XU_EXIT_FAILURE;
    }
out:
    xu_cmd_loaded_dispose(&before);
    xu_cmd_loaded_dispose(&after);
    xu_symtab_free(symtab);
    free(sym_path);
    return rc;
}
