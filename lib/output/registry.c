/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.c - the table of formats, and what every writer shares: choosing a
 * format, naming a frame, and putting the result on disk atomically.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xu_atomic_file.h"
#include "util/xu_distinct.h"
#include "output/xu_output.h"

/* One line per format, in the order --help lists them. */
const struct xu_output_ops *const xu_output_formats[] = {
    &xu_output_raw,
    &xu_output_folded,
    &xu_output_svg,
    &xu_output_report,
    &xu_output_pprof,
    &xu_output_speedscope,
    NULL,
};

const struct xu_output_ops *xu_output_find(const char *name)
{
    size_t i;

    for (i = 0; xu_output_formats[i]; i++)
        if (strcmp(xu_output_formats[i]->name, name) == 0)
            return xu_output_formats[i];
    return NULL;
}

const struct xu_output_ops *xu_output_default(void)
{
    return &xu_output_svg;
}

/*
 * Whether the file name part of path ends with ext (case-insensitively, so
 * "PROFILE.SVG" works) and has something before it: ".folded" alone is a
 * hidden file's name, not an extension.
 */
static bool has_extension(const char *path, const char *ext, size_t ext_len)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);

    return len > ext_len && strncasecmp(base + len - ext_len, ext, ext_len) == 0;
}

const struct xu_output_ops *xu_output_for_path(const char *path)
{
    const struct xu_output_ops *best = NULL;
    size_t best_len = 0, i;

    /* the longest matching extension wins: ".folded.gz" before ".gz" */
    for (i = 0; xu_output_formats[i]; i++) {
        const char *p = xu_output_formats[i]->extensions;

        while (p && *p) {
            size_t n;

            p += strspn(p, " ");
            n = strcspn(p, " ");
            if (n > best_len && has_extension(path, p, n)) {
                best = xu_output_formats[i];
                best_len = n;
            }
            p += n;
        }
    }
    return best;
}

static int write_stdout(const struct xu_output_ops *ops, const struct xu_output_ctx *ctx)
{
    int rc = ops->write(stdout, ctx);

    errno = 0;
    if (fflush(stdout) != 0 && rc == 0)
        rc = errno ? -errno : -EIO;
    if (ferror(stdout) && rc == 0)
        rc = -EIO;
    if (rc < 0)
        xu_error(ctx->log, "writing %s output to stdout: %s", ops->name, strerror(-rc));
    return rc;
}

int xu_output_write_path(const struct xu_output_ops *ops, const char *path,
                         const struct xu_output_ctx *ctx)
{
    struct xu_atomic_file *af;
    int rc;

    if (ops != &xu_output_raw)     /* raw keeps everything, whatever the view */
        xu_output_view_check(ctx);
    if (strcmp(path, "-") == 0)
        return write_stdout(ops, ctx);
    af = xu_atomic_open(path);
    if (!af) {
        rc = -errno;
        xu_error(ctx->log, "cannot create a file beside %s: %s", path, strerror(errno));
        return rc;
    }
    rc = xu_atomic_reason(af, ops->write(af->f, ctx));
    if (rc < 0) {
        xu_atomic_abort(af);
        xu_error(ctx->log, "writing %s output to %s: %s (file left unchanged)",
                 ops->name, path, strerror(-rc));
        return rc;
    }
    rc = xu_atomic_commit(af);
    if (rc < 0)
        xu_error(ctx->log, "writing %s: %s (file left unchanged)", path, strerror(-rc));
    return rc;
}

const char *xu_output_frame_name(const struct xu_output_ctx *ctx,
                                 const struct xu_stack *s, uint32_t i,
                                 char buf[static 19])
{
    const struct xu_symbol *sym = NULL;
    const char *name = NULL;

    if (ctx->names) {
        if (s->pcs[i] < ctx->names->count)
            return ctx->names->names[s->pcs[i]];
    } else if ((name = xu_pseudo_frame_name(ctx->tasks, s->pcs[i], buf, 19))) {
        return name;
    } else if (ctx->syms) {
        name = xu_symbolizer_name(ctx->syms, xu_stack_lookup_addr(s, i), &sym);
        if (name && sym)
            return name;
    }
    /* the frame's own PC, not the pc - 1 that was looked up: it is what a
     * reader can match against a disassembly or a raw trace */
    snprintf(buf, 19, "0x%" PRIx64, s->pcs[i]);
    return buf;
}

unsigned int xu_output_frame_lines(const struct xu_output_ctx *ctx, const struct xu_stack *s,
                                   uint32_t i, struct xu_frame_line *one, char buf[static 19],
                                   const struct xu_frame_line **out)
{
    const struct xu_frame_line *l = NULL;
    unsigned int n = 0;

    if (!ctx->names && !xu_pc_is_pseudo(s->pcs[i]) && ctx->syms)
        n = xu_symbolizer_frames(ctx->syms, xu_stack_lookup_addr(s, i), &l);
    /* one function without a line: named as every writer named it before
     * DWARF (an unresolved frame by its own PC, not the pc - 1 looked up) */
    if (n == 0 || (n == 1 && !l[0].file && !l[0].line)) {
        memset(one, 0, sizeof(*one));
        one->name = xu_output_frame_name(ctx, s, i, buf);
        *out = one;
        return 1;
    }
    *out = l;
    return n;
}

long xu_output_line_label(const struct xu_frame_line *l, bool with_line, char **buf,
                          size_t *cap)
{
    size_t len = strlen(l->name), need = len + sizeof(":4294967295_[i]");
    char *p = *buf;

    if (need > *cap) {
        size_t ncap = *cap ? *cap : 256;

        while (ncap < need)
            ncap *= 2;
        if (!(p = realloc(*buf, ncap)))
            return -ENOMEM;
        *buf = p;
        *cap = ncap;
    }
    memcpy(p, l->name, len);
    if (with_line && l->line)
        len += (size_t)sprintf(p + len, ":%" PRIu32, l->line);
    if (l->inlined) {
        memcpy(p + len, "_[i]", 4);
        len += 4;
    }
    p[len] = '\0';
    return (long)len;
}

unsigned int xu_output_symbolizer_flags(const struct xu_output_options *opts)
{
    unsigned int flags = XU_SYMBOLIZER_INLINE;

    if (!opts)
        return flags;
    if (opts->raw_names)
        flags |= XU_SYMBOLIZER_RAW_NAMES;
    if (opts->no_inline)
        flags &= ~XU_SYMBOLIZER_INLINE;
    return flags;
}

/* The note --lines needs when sz has no line to give. */
static void lines_note(const struct xu_output_options *opts, const struct xu_symtab *st,
                       const struct xu_symbolizer *sz, size_t n, const char *elf_path,
                       struct xu_log *log)
{
    if (!sz || !opts || !opts->lines || xu_symbolizer_has_dwarf(sz) || !n)
        return;
    if (!xu_symbolizer_dwarf_supported())
        xu_warn(log, "--lines: this build has no libdw (configure found none), so frames "
                "have no source lines");
    else if (st)
        xu_warn(log, "--lines: %s has no DWARF line table for the sampled code (built "
                "without -g?), so frames have no source lines", elf_path ? elf_path : "the ELF");
}

struct xu_symbolizer *xu_output_symbolizer_new(const struct xu_output_options *opts,
                                               const struct xu_symtab *st,
                                               const uint64_t *addrs, size_t n,
                                               const char *elf_path, struct xu_log *log)
{
    struct xu_symbolizer *sz = xu_symbolizer_new_dwarf(st, addrs, n,
                                                       xu_output_symbolizer_flags(opts),
                                                       elf_path, log);

    lines_note(opts, st, sz, n, elf_path, log);
    return sz;
}

/*
 * About how many distinct lookup addresses p has: a read of its frames in
 * order, far cheaper than the table's growth it spares (every address
 * moved at each doubling, at random, into fresh memory).
 */
static size_t distinct_addrs(const struct xu_profile *p)
{
    struct xu_distinct *d = malloc(sizeof(*d));
    size_t i, nr = xu_profile_nr_stacks(p), est;
    uint32_t k;

    if (!d)
        return 0;           /* no estimate: the table grows */
    xu_distinct_init(d);
    for (i = 0; i < nr; i++) {
        const struct xu_stack *s = xu_profile_stack(p, i);

        for (k = 0; k < s->depth; k++)
            xu_distinct_add(d, xu_stack_lookup_addr(s, k));
    }
    est = xu_distinct_estimate(d);
    free(d);
    return est;
}

/* Every lookup address of p into sz, *n the frames.  0 or -ENOMEM. */
static int add_frames(struct xu_symbolizer *sz, const struct xu_profile *p, size_t *n)
{
    size_t i, nr = xu_profile_nr_stacks(p);
    uint32_t k;
    int rc;

    *n = 0;
    for (i = 0; i < nr; i++) {
        const struct xu_stack *s = xu_profile_stack(p, i);

        /* a stack's slots asked for at once: with millions of distinct
         * addresses each add misses the cache, and the misses overlap */
        for (k = 0; k < s->depth; k++)
            xu_symbolizer_prefetch(sz, xu_stack_lookup_addr(s, k));
        for (k = 0; k < s->depth; k++)
            if ((rc = xu_symbolizer_add(sz, xu_stack_lookup_addr(s, k))) < 0)
                return rc;
        *n += s->depth;
    }
    return 0;
}

struct xu_symbolizer *xu_output_symbolizer_of(const struct xu_output_options *opts,
                                              const struct xu_symtab *st,
                                              const struct xu_profile *p,
                                              const char *elf_path, struct xu_log *log)
{
    struct xu_symbolizer *sz = xu_symbolizer_new_empty(distinct_addrs(p));
    size_t n = 0;
    int rc;

    if (!sz)
        return NULL;
    if ((rc = add_frames(sz, p, &n)) < 0 ||
        (rc = xu_symbolizer_resolve(sz, st, xu_output_symbolizer_flags(opts), elf_path,
                                    log)) < 0) {
        xu_symbolizer_free(sz);
        errno = -rc;
        return NULL;
    }
    lines_note(opts, st, sz, n, elf_path, log);
    return sz;
}
