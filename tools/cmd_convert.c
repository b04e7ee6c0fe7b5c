/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_convert.c - `xen-uniprof convert [OPTIONS] INPUT`: a raw trace (ours
 * or the original uniprof's) or folded stacks, symbolised against --elf
 * when its frames are addresses (names demangled unless --no-demangle),
 * written in any output format.
 *
 * Also what convert and diff share: reading a profile back and the logger.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "output/function_ids.h"
#include "render_options.h"
#include "symbols/xu_bzimage.h"
#include "symbols/xu_elf_find.h"
#include "util/xu_atomic_file.h"

static const struct option convert_options[] = {
    { "elf",          required_argument, NULL, 'e' },
    { "format",       required_argument, NULL, 'f' },
    { "output",       required_argument, NULL, 'o' },
    { "input-format", required_argument, NULL, 'i' },
    { "verbose",      no_argument,       NULL, 'v' },
    { "quiet",        no_argument,       NULL, 'q' },
    { "help",         no_argument,       NULL, 'h' },
    XU_RENDER_LONG_OPTIONS,
    { NULL, 0, NULL, 0 },
};

static const char convert_usage[] =
    "Usage: xen-uniprof convert [OPTIONS] INPUT\n"
    "\n"
    "Read a raw trace (xen-uniprof's or the original uniprof's, symbolised or\n"
    "not) or folded stacks, and write it in another format.  INPUT may be -.\n"
    "\n"
    "Options:\n"
    "  -e, --elf=FILE         symbolise addresses against this unstripped ELF\n"
    "  -f, --format=FORMAT    output format (default: from -o's extension,\n"
    "                         else folded)\n"
    "  -o, --output=FILE      where to write (default: - for stdout)\n"
    "  -i, --input-format=FMT raw, folded or auto (default auto)\n"
    XU_RENDER_USAGE
    "  -v, --verbose          say more\n"
    "  -q, --quiet            print errors only\n"
    "  -h, --help             show this help\n";

/*
 * The symbol reader's messages about --elf, held back until we know whether
 * they matter: a stripped file sends us looking for its debug file, whose
 * search says in one line what it found or tried; any other failure is the
 * user's to read as the reader wrote it.
 */
#define HELD_MAX 4
struct held_log {
    struct xu_log log;
    unsigned int n;
    enum xu_log_level level[HELD_MAX];
    char msg[HELD_MAX][512];
};

static void held_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct held_log *h = ctx;

    if (h->n < HELD_MAX) {
        h->level[h->n] = level;
        snprintf(h->msg[h->n++], sizeof(h->msg[0]), "%s", msg);
    }
}

static void held_release(const struct held_log *h, struct xu_log *to)
{
    unsigned int i;

    for (i = 0; i < h->n; i++)
        xu_logf(to, h->level[i], "%s", h->msg[i]);
}

int xu_cmd_open_elf(const char *path, struct xu_log *log, struct xu_symtab **out,
                    char **symbols_path)
{
    /* no guest to match: an ELF of any guest architecture */
    struct xu_elf_find_config cfg = { .elf = path, .any_machine = true };
    struct held_log held = { .log = { .emit = held_emit, .ctx = &held,
                                      .min_level = log ? log->min_level : XU_LOG_WARN } };
    struct xu_elf_choice choice;
    /* a real symbol table first; a bzImage or a vmlinux without one goes
     * through the search, which falls back to the kernel's kallsyms last */
    int rc = xu_bzimage_is_file(path) ? -ENODATA
             : xu_symtab_open_flags(path, EM_NONE, XU_SYMTAB_ELF_ONLY, &held.log, out);

    if (rc != -ENODATA)
        held_release(&held, log);
    *symbols_path = NULL;
    if (rc == 0) {
        *symbols_path = strdup(path);
        if (!*symbols_path) {
            xu_symtab_free(*out);
            *out = NULL;
            rc = -ENOMEM;
        }
    } else if (rc == -ENODATA) {
        /* Stripped: its debug file where the record path looks for one (a .dbg
         * sibling, /usr/lib/debug by build-id, .gnu_debuglink, debuginfod). */
        rc = xu_elf_find(&cfg, log, &choice);
        if (rc == 0) {
            xu_info(log, "symbols: %s (%s)", choice.shown ? choice.shown : choice.path,
                    choice.reason);
            *out = choice.symtab;
            *symbols_path = choice.path;
            choice.symtab = NULL;
            choice.path = NULL;
            /* a decompressed kernel lives in its memory file: kept open for the
             * command's life, as its path is read again (DWARF, outputs) */
            choice.mem_fd = -1;
        }
        xu_elf_choice_dispose(&choice);
        if (rc < 0)
            return XU_EXIT_SYMBOLS;     /* xu_elf_find said why */
    }
    if (rc < 0) {
        xu_error(log, "%s: cannot use it for symbols: %s", path,
                 rc == -ENOEXEC ? "not a usable x86-64 ELF file (see above)" : strerror(-rc));
        return XU_EXIT_SYMBOLS;
    }
    return 0;
}

void xu_cmd_loaded_dispose(struct xu_loaded *l)
{
    xu_symbolizer_free(l->syms);
    xu_input_free(l->input);
    memset(l, 0, sizeof(*l));
}

int xu_cmd_load(const char *path, enum xu_input_format fmt, const struct xu_symtab *symtab,
                const char *elf_path, const struct xu_output_options *oo,
                struct xu_log *log, struct xu_loaded *out)
{
    struct xu_input_options io = { .symtab = symtab };
    int rc;

    memset(out, 0, sizeof(*out));
    rc = xu_input_read_path(path, fmt, &io, log, &out->input);
    if (rc < 0)
        return XU_EXIT_FAILURE;
    xu_info(log, "%s: %s, %llu samples, %zu distinct stacks, frames as %s", path,
            xu_input_format_name(out->input->format),
            (unsigned long long)out->input->stats.samples,
            xu_profile_nr_stacks(out->input->profile),
            out->input->has_names ? "names" : "addresses");
    if (!out->input->has_names && symtab) {
        out->syms = xu_output_symbolizer_of(oo, symtab, out->input->profile, elf_path, log);
        if (!out->syms) {
            xu_error(log, "symbolising %s: %s", path, strerror(errno));
            rc = XU_EXIT_FAILURE;
            goto out;
        }
    }
    out->meta.domid = out->input->domid;
    out->meta.elf_path = elf_path;
    out->meta.frequency_hz = out->input->frequency_hz;
    out->ctx.profile = out->input->profile;
    out->ctx.syms = out->syms;
    out->ctx.names = out->input->has_names ? &out->input->names : NULL;
    out->ctx.symtab = symtab;
    out->ctx.meta = &out->meta;
    rc = 0;
out:
    if (rc)
        xu_cmd_loaded_dispose(out);
    return rc;
}

static int usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "xen-uniprof %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'xen-uniprof %s --help' for more information.\n", cmd);
    return XU_EXIT_USAGE;
}

/* The name of the option getopt just rejected, for the message. */
static const char *bad_option(char **argv)
{
    return optind > 0 ? argv[optind - 1] : "?";
}

int xu_cmd_convert(int argc, char **argv)
{
    struct xu_output_options oo = { 0 };
    struct xu_loaded l = { 0 };
    struct xu_symtab *symtab = NULL;
    char *sym_path = NULL;
    struct xu_log log;
    const struct xu_output_ops *ops = NULL;
    const char *elf = NULL, *format = NULL, *output = "-", *input;
    enum xu_input_format ifmt = XU_INPUT_AUTO;
    int verbose = 0, c, rc;
    bool quiet = false;
    char err[256];

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":e:f:o:i:vqh", convert_options, NULL)) != -1) {
        switch (xu_render_option(c, optarg, &oo, err, sizeof(err))) {
        case 1:
            continue;
        case -1:
            return usage_error("convert", "%s", err);
        }
        switch (c) {
        case 'e': elf = optarg; break;
        case 'f': format = optarg; break;
        case 'o': output = optarg; break;
        case 'i':
            if (strcmp(optarg, "raw") == 0)
                ifmt = XU_INPUT_RAW;
            else if (strcmp(optarg, "folded") == 0)
                ifmt = XU_INPUT_FOLDED;
            else if (strcmp(optarg, "auto") == 0)
                ifmt = XU_INPUT_AUTO;
            else
                return usage_error("convert", "--input-format: '%s' is not raw, folded or auto",
                                   optarg);
            break;
        case 'v': verbose++; break;
        case 'q': quiet = true; break;
        case 'h':
            fputs(convert_usage, stdout);
            return XU_EXIT_OK;
        case ':':
            return usage_error("convert", "option '%s' needs an argument", bad_option(argv));
        default:
            return usage_error("convert", "unknown option '%s'", bad_option(argv));
        }
    }
    if (optind >= argc)
        return usage_error("convert", "%s", "no INPUT file given");
    if (optind + 1 < argc)
        return usage_error("convert", "unexpected argument '%s' (one INPUT only)",
                           argv[optind + 1]);
    input = argv[optind];
    if (format) {
        ops = xu_output_find(format);
        if (!ops)
            return usage_error("convert", "--format: unknown format '%s' (see xen-uniprof "
                               "--help)", format);
    } else if (strcmp(output, "-") != 0) {
        ops = xu_output_for_path(output);
        if (!ops)
            return usage_error("convert", "-o: cannot tell the format from '%s': use -f",
                               output);
    } else {
        ops = xu_output_find("folded");
    }

    xu_cli_log_init(&log, XU_LOG_WARN, verbose, quiet);
    /* killed while writing: no ".OUTPUT.XXXXXX" left behind */
    xu_atomic_cleanup_on_signals();
    if (elf) {
        rc = xu_cmd_open_elf(elf, &log, &symtab, &sym_path);
        if (rc)
            goto out;
    }
    rc = xu_cmd_load(input, ifmt, symtab, sym_path, &oo, &log, &l);
    if (rc)
        goto out;
    if (elf && l.input->has_names)
        xu_info(&log, "%s: frames are names that %s does not all know: kept as names",
                input, elf);
    l.ctx.opts = &oo;
    l.ctx.log = &log;
    rc = xu_output_write_path(ops, output, &l.ctx) < 0 ? XU_EXIT_FAILURE : XU_EXIT_OK;
out:
    xu_cmd_loaded_dispose(&l);
    xu_symtab_free(symtab);
    free(sym_path);
    return rc;
}
