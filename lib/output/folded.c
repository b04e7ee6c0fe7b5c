/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_folded.c - one line per distinct stack: "root;...;leaf count".
 *
 * The format flamegraph.pl, speedscope and most profilers' tools read.
 * Frames are function names (xu_output_frame_name), root first; a walk that
 * did not complete gets XU_INCOMPLETE_FRAME as its root, and with per_vcpu
 * every line starts with "vcpu<N>"; split by state (--state=split), the
 * state's frame ("[running]") comes next.  The count is the view's weight
 * (xu_output_weight): samples, or with --weight=cpu whole microseconds of
 * CPU time (flamegraph.pl and most folded readers take integers only).
 * With the ELF's DWARF a frame is its function and every function inlined
 * in it, outermost first, each inlined one named with the suffix "_[i]"
 * (perf's); --lines adds each function's source line: "name:17",
 * "name:17_[i]" (a stack whose inlined functions would pass
 * XU_OUTPUT_MAX_FRAMES shows its physical frames only).
 * Distinct raw stacks often fold to the
 * same names (two return addresses in one function), so equal lines are
 * merged and their counts added; lines are sorted bytewise, making the
 * output a pure function of the profile.
 *
 * Lines are never built as strings.  Each frame's name is interned once
 * (made safe for the format first), and a line is a path of tokens
 * (paths.h): a token is a name followed by what follows it in the line,
 * ';' or the line's end.  No name holds ';' (or a NUL), so no token is a
 * prefix of another, and comparing two lines byte by byte is comparing
 * their tokens in turn: the bytewise order of lines is the order of their
 * token paths once tokens are numbered in the bytewise order of
 * "name;" and "name\0".  That is what makes "foo.cold;x" sort before
 * "foo;x" ('.' < ';') but "foo" before both.  Sorting paths of 16-bit
 * ranks instead of strings is what keeps a million distinct 20-deep stacks
 * fast and small (paths.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "function_ids.h"
#include "paths.h"
#include "output/xu_output.h"

#define OUT_BUF (64 * 1024)
#define TOK_END 0               /* token = 2 * name id + TOK_END or TOK_MORE */
#define TOK_MORE 1
#define MAX_NAMES ((UINT32_MAX - 2) / 2)

struct fold {
    const struct xu_output_ctx *ctx;
    struct xu_strtab names;     /* made safe for the format */
    size_t *lens;               /* per name */
    size_t lens_cap;
    struct xu_u64map exact;     /* pc of an exact frame (the innermost, ...) -> chain */
    struct xu_u64map caller;    /* pc of a return address -> chain */
    uint32_t *by_chain;         /* symboliser's chain -> what its frames are named */
    struct xu_u64map by_ptr;    /* a name the symboliser owns -> its id */
    uint32_t *chain;            /* per frame value: its name count, then the names */
    size_t nr_chain, cap_chain;
    char *label;                /* scratch */
    size_t label_cap;
    struct xu_u64map vcpus;     /* vCPU -> name of "vcpuN" */
    struct xu_paths paths;      /* of tokens, then of token ranks */
    uint32_t *by_rank;          /* token rank -> token */
};

/* ------------------------------------------------------------- names -- */

/* The id of a name, made safe for the format: ';' separates frames and a
 * newline ends the line, so neither may appear inside a name. */
static long intern(struct fold *fo, const char *name)
{
    size_t n = strlen(name), i = strcspn(name, ";\n\r"), before = fo->names.n;
    char *fixed = NULL;
    long id;

    if (i < n) {
        fixed = strdup(name);
        if (!fixed)
            return -ENOMEM;
        for (; i < n; i++) {
            if (fixed[i] == ';')
                fixed[i] = ':';
            else if (fixed[i] == '\n' || fixed[i] == '\r')
                fixed[i] = '?';
        }
        name = fixed;
    }
    id = xu_strtab_intern(&fo->names, name, n);
    free(fixed);
    if (id < 0 || fo->names.n == before)
        return id;
    /* two tokens a name, numbered in 32 bits */
    if ((size_t)id >= MAX_NAMES)
        return -E2BIG;
    if ((size_t)id >= fo->lens_cap) {
        size_t cap = fo->lens_cap ? fo->lens_cap * 2 : 1024;
        size_t *l = realloc(fo->lens, cap * sizeof(*l));

        if (!l)
            return -ENOMEM;
        fo->lens = l;
        fo->lens_cap = cap;
    }
    fo->lens[id] = n;
    return id;
}

/*
 * The names of frame i of s, outermost first (xu_output_frame_lines): *names
 * points at them (at *one, or into fo->chain until the next call).  They
 * depend on the frame's value and on whether it is exact (looked up as
 * itself) or a return address (looked up at pc - 1, and shown as its own pc
 * when unresolved), so each distinct frame is named once and remembered:
 * a resolved frame by the symboliser's chain of its lookup address (its
 * names depend on that chain alone), in fo->by_chain, 4 bytes a chain:
 * one a function without DWARF, so asking costs the symboliser's one
 * probe and no array as large as the distinct addresses; an unresolved
 * one (named after its own pc) and every
 * frame without a symboliser in a map by pc, one for exact frames and one
 * for return addresses.  The value remembered is the frame's one name,
 * nearly all of them (asking then costs no access beyond it), or CHAIN |
 * the offset of its names in fo->chain.  Their count, or -errno.
 */
#define CHAIN 0x80000000u
#define UNSET UINT32_MAX        /* in by_chain: not named yet */
#define BY_PC (UINT32_MAX - 1)  /* in by_chain: unresolved, named in the maps */

/*
 * The id of a name the symboliser owns: its pointer is remembered, so a
 * function's many addresses cost one string lookup, not one each.
 */
static long intern_owned(struct fold *fo, const char *name)
{
    uint32_t id;
    long rc;

    if (xu_u64map_get(&fo->by_ptr, (uint64_t)(uintptr_t)name, &id))
        return id;
    rc = intern(fo, name);
    if (rc >= 0 && xu_u64map_put(&fo->by_ptr, (uint64_t)(uintptr_t)name, (uint32_t)rc) < 0)
        return -ENOMEM;
    return rc;
}

/* Name a frame whose functions are l[0..n): *v gets what to remember of
 * it.  owned: their names are the symboliser's. */
static long new_frame_names(struct fold *fo, const struct xu_frame_line *l, unsigned int n,
                            bool owned, uint32_t *v, uint32_t *one, const uint32_t **names)
{
    bool lines = fo->ctx->opts && fo->ctx->opts->lines;
    uint32_t off = (uint32_t)fo->nr_chain;
    unsigned int j;
    long rc;

    if (n > 1 && fo->nr_chain + n + 1 > fo->cap_chain) {
        size_t cap = fo->cap_chain ? fo->cap_chain * 2 : 1024;
        uint32_t *c;

        while (cap < fo->nr_chain + n + 1)
            cap *= 2;
        /* CHAIN | offset stays below BY_PC */
        if (cap >= CHAIN - 2 || !(c = realloc(fo->chain, cap * sizeof(*c))))
            return -ENOMEM;
        fo->chain = c;
        fo->cap_chain = cap;
    }
    for (j = 0; j < n; j++) {
        const char *name = l[j].name;
        bool label = l[j].inlined || (lines && l[j].line);

        if (label) {
            rc = xu_output_line_label(&l[j], lines, &fo->label, &fo->label_cap);
            if (rc < 0)
                return rc;
            name = fo->label;
        }
        rc = owned && !label ? intern_owned(fo, name) : intern(fo, name);
        if (rc < 0)
            return rc;
        if (n == 1)
            *one = (uint32_t)rc;
        else
            fo->chain[off + 1 + j] = (uint32_t)rc;
    }
    if (n == 1) {
        *names = one;
        *v = *one;
        return 1;
    }
    fo->chain[off] = n;
    *v = CHAIN | off;
    fo->nr_chain += n + 1;
    *names = &fo->chain[off + 1];
    return n;
}

/* What was remembered of a frame, as its names. */
static inline long remembered(const struct fold *fo, uint32_t v, uint32_t *one,
                              const uint32_t **names)
{
    if (!(v & CHAIN)) {
        *one = v;
        *names = one;
        return 1;
    }
    *names = &fo->chain[(v & ~CHAIN) + 1];
    return fo->chain[v & ~CHAIN];
}

/* A frame the maps remember, by its pc. */
static long frame_names_by_pc(struct fold *fo, const struct xu_stack *s, uint32_t i,
                              bool exact, uint32_t *one, const uint32_t **names)
{
    struct xu_u64map *m = exact ? &fo->exact : &fo->caller;
    const struct xu_frame_line *l;
    struct xu_frame_line single;
    char buf[19];
    uint32_t v;
    long n;

    if (xu_u64map_get(m, s->pcs[i], &v))
        return remembered(fo, v, one, names);
    n = (long)xu_output_frame_lines(fo->ctx, s, i, &single, buf, &l);
    n = new_frame_names(fo, l, (unsigned int)n, false, &v, one, names);
    if (n >= 0 && xu_u64map_put(m, s->pcs[i], v) < 0)
        return -ENOMEM;
    return n;
}

/* Every frame of every stack asks: the answer for a frame named before
 * stays small enough to inline. */
static inline long frame_names(struct fold *fo, const struct xu_stack *s, uint32_t i,
                               uint32_t *one, const uint32_t **names)
{
    bool exact = i == 0 || xu_pc_is_pseudo(s->pcs[i]) || s->pcs[i - 1] == XU_PC_UPCALL;
    const struct xu_frame_line *l;
    const struct xu_symbol *sym;
    struct xu_frame_line single;
    unsigned int n;
    uint32_t *v;
    long k;

    if (!fo->by_chain || xu_pc_is_pseudo(s->pcs[i]) ||
        (k = xu_symbolizer_chain(fo->ctx->syms, exact ? s->pcs[i] : s->pcs[i] - 1)) < 0)
        return frame_names_by_pc(fo, s, i, exact, one, names);
    v = &fo->by_chain[k];
    if (*v == BY_PC)
        return frame_names_by_pc(fo, s, i, exact, one, names);
    if (*v != UNSET)
        return remembered(fo, *v, one, names);
    n = xu_symbolizer_chain_frames(fo->ctx->syms, (size_t)k, &sym, &l);
    if (!sym) {
        *v = BY_PC;
        return frame_names_by_pc(fo, s, i, exact, one, names);
    }
    /* one function without a line: its name alone, as xu_output_frame_lines
     * gives it */
    if (n == 1 && !l[0].file && !l[0].line) {
        memset(&single, 0, sizeof(single));
        single.name = l[0].name;
        l = &single;
    }
    return new_frame_names(fo, l, n, true, v, one, names);
}

/* by_chain for a profile with a symboliser of addresses (not of names). */
static int chains_init(struct fold *fo)
{
    size_t n = xu_symbolizer_nr_chains(fo->ctx->syms);

    if (fo->ctx->names || n == 0)
        return 0;
    fo->by_chain = malloc(n * sizeof(*fo->by_chain));
    if (!fo->by_chain)
        return -ENOMEM;
    memset(fo->by_chain, 0xff, n * sizeof(*fo->by_chain));
    return 0;
}

static long vcpu_name(struct fold *fo, uint32_t vcpu)
{
    char buf[19];
    uint32_t id;
    long rc;

    if (xu_u64map_get(&fo->vcpus, vcpu, &id))
        return id;
    snprintf(buf, sizeof(buf), "vcpu%" PRIu32, vcpu);
    rc = intern(fo, buf);
    if (rc >= 0 && xu_u64map_put(&fo->vcpus, vcpu, (uint32_t)rc) < 0)
        return -ENOMEM;
    return rc;
}

/* ------------------------------------------------------------- paths -- */

/* The root frames a line has above the stack's own. */
static uint32_t nr_roots(const struct xu_output_ctx *ctx, const struct xu_stack *s)
{
    return (ctx->opts && ctx->opts->per_vcpu) + (xu_output_state_frame(ctx, s) != NULL) +
           !xu_walk_complete(s->end);
}

/* The line of s as names, root first, into ids: its length or -errno. */
static long line_names(struct fold *fo, const struct xu_stack *s, uint32_t *ids)
{
    const struct xu_output_ctx *ctx = fo->ctx;
    const char *state = xu_output_state_frame(ctx, s);
    const uint32_t *names;
    uint32_t len = 0, i, total = 0, one;
    long id = 0, n;

    if (ctx->opts && ctx->opts->per_vcpu)
        ids[len++] = (uint32_t)(id = vcpu_name(fo, s->vcpu));
    if (id >= 0 && state)
        ids[len++] = (uint32_t)(id = intern(fo, state));
    if (id >= 0 && !xu_walk_complete(s->end))
        ids[len++] = (uint32_t)(id = intern(fo, XU_INCOMPLETE_FRAME));
    if (id < 0)
        return id;
    /* every frame with its inlined functions while they fit, else each
     * frame's physical function alone (without DWARF, a frame is one name:
     * no need to count) */
    if (!fo->ctx->names && xu_symbolizer_has_dwarf(fo->ctx->syms)) {
        for (i = s->depth; i-- > 0; total += (uint32_t)n)
            if ((n = frame_names(fo, s, i, &one, &names)) < 0)
                return n;
    }
    for (i = s->depth; i-- > 0;) {
        n = frame_names(fo, s, i, &one, &names);
        if (n < 0)
            return n;
        if (n == 1 || total > XU_OUTPUT_MAX_FRAMES) {
            ids[len++] = names[0];
            continue;
        }
        memcpy(ids + len, names, (size_t)n * sizeof(*ids));
        len += (uint32_t)n;
    }
    return (long)len;
}

/* A stack's frames asked of the symboliser while the stack before it is
 * named: their cache misses overlap that work and one another. */
static void prefetch_frames(const struct fold *fo, size_t k)
{
    const struct xu_stack *s = xu_profile_stack(fo->ctx->profile, k);
    uint32_t i;

    if (!fo->by_chain || !s)
        return;
    for (i = 0; i < s->depth; i++)
        xu_symbolizer_prefetch(fo->ctx->syms, xu_stack_lookup_addr(s, i));
}

/* Every stack the view keeps, as a path of tokens. */
static int build_paths(struct fold *fo)
{
    const struct xu_profile *p = fo->ctx->profile;
    size_t n = xu_profile_nr_stacks(p), k, nr_paths = 0, nr_vals = 0;
    uint32_t *ids = malloc(XU_PATHS_MAX_LEN * sizeof(*ids));
    int rc = 0;

    if (!ids)
        return -ENOMEM;
    /* sizes first, so that each array is allocated once */
    for (k = 0; k < n; k++) {
        const struct xu_stack *s = xu_profile_stack(p, k);

        if (xu_output_weight(fo->ctx, s) == 0)
            continue;
        nr_paths++;
        nr_vals += nr_roots(fo->ctx, s) + s->depth;
    }
    rc = xu_paths_reserve(&fo->paths, nr_paths, nr_vals);
    prefetch_frames(fo, 0);
    for (k = 0; k < n && rc == 0; k++) {
        const struct xu_stack *s = xu_profile_stack(p, k);
        uint64_t weight = xu_output_weight(fo->ctx, s);
        long len, j;

        prefetch_frames(fo, k + 1);
        if (weight == 0)
            continue;
        /* a profile holds at most XU_MAX_DEPTH_LIMIT frames a stack */
        if (s->depth + 3 > XU_PATHS_MAX_LEN) {
            rc = -EINVAL;
            break;
        }
        len = line_names(fo, s, ids);
        if (len < 0) {
            rc = (int)len;
            break;
        }
        for (j = 0; j < len; j++)
            ids[j] = 2 * ids[j] + (j == len - 1 ? TOK_END : TOK_MORE);
        rc = xu_paths_add(&fo->paths, ids, (uint32_t)len, weight, 0);
    }
    free(ids);
    return rc;
}

/* ------------------------------------------------------------- ranks -- */

struct tok {
    const char *name;
    size_t len;
    uint32_t tok;
};

/* The bytes of "name;" or "name\0" against those of another token. */
static int cmp_tok(const void *pa, const void *pb)
{
    const struct tok *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    unsigned char ca, cb;
    int c = memcmp(a->name, b->name, n);

    if (c)
        return c;
    ca = a->len > n ? (unsigned char)a->name[n] : (a->tok & 1) == TOK_MORE ? ';' : '\0';
    cb = b->len > n ? (unsigned char)b->name[n] : (b->tok & 1) == TOK_MORE ? ';' : '\0';
    return (ca > cb) - (ca < cb);
}

/* Paths of tokens become paths of token ranks (bytewise order). */
static int rank_tokens(struct fold *fo)
{
    size_t ntok = 2 * fo->names.n, t;
    struct tok *toks = malloc((ntok ? ntok : 1) * sizeof(*toks));
    uint32_t *rank = malloc((ntok ? ntok : 1) * sizeof(*rank));
    int rc = -ENOMEM;

    fo->by_rank = malloc((ntok ? ntok : 1) * sizeof(*fo->by_rank));
    if (!toks || !rank || !fo->by_rank)
        goto out;
    for (t = 0; t < ntok; t++)
        toks[t] = (struct tok){ xu_strtab_get(&fo->names, (uint32_t)(t / 2)),
                                fo->lens[t / 2], (uint32_t)t };
    qsort(toks, ntok, sizeof(*toks), cmp_tok);
    for (t = 0; t < ntok; t++) {
        rank[toks[t].tok] = (uint32_t)t;
        fo->by_rank[t] = toks[t].tok;
    }
    rc = xu_paths_remap(&fo->paths, rank, ntok);
out:
    free(toks);
    free(rank);
    return rc;
}

/* ----------------------------------------------------------- writing -- */

/* Lines are many small pieces: one buffer and one fwrite a chunk, not a
 * locked stdio call a piece. */
struct out {
    FILE *f;
    size_t len;
    int err;
    char buf[OUT_BUF];
};

static void out_flush(struct out *o)
{
    if (o->len && !o->err && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->err = -EIO;
    o->len = 0;
}

static void out_put(struct out *o, const char *s, size_t n)
{
    if (n > OUT_BUF - o->len) {
        out_flush(o);
        if (n > OUT_BUF) {
            if (!o->err && fwrite(s, 1, n, o->f) != n)
                o->err = -EIO;
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void out_line(struct out *o, const struct fold *fo, size_t k, uint64_t count)
{
    uint32_t len = xu_paths_len(&fo->paths, k), i;
    char num[24];
    size_t at = sizeof(num);

    for (i = 0; i < len; i++) {
        uint32_t name = fo->by_rank[xu_paths_val(&fo->paths, k, i)] / 2;

        if (i)
            out_put(o, ";", 1);
        out_put(o, xu_strtab_get(&fo->names, name), fo->lens[name]);
    }
    num[--at] = '\n';
    do {
        num[--at] = (char)('0' + count % 10);
        count /= 10;
    } while (count);
    num[--at] = ' ';
    out_put(o, num + at, sizeof(num) - at);
}

/* The sorted paths, equal ones (first[k] == 0) merged into one line. */
static int write_lines(FILE *f, const struct fold *fo, const uint32_t *order,
                       const uint8_t *first)
{
    struct out *o = malloc(sizeof(*o));
    size_t n = xu_paths_count(&fo->paths), i, j;
    int rc;

    if (!o)
        return -ENOMEM;
    o->f = f;
    o->len = 0;
    o->err = 0;
    for (i = 0; i < n && !o->err; i = j) {
        uint64_t count = 0;

        if (i + XU_PATHS_AHEAD < n)
            xu_paths_prefetch_ends(&fo->paths, order[i + XU_PATHS_AHEAD]);
        if (i + XU_PATHS_AHEAD / 2 < n)
            xu_paths_prefetch_vals(&fo->paths, order[i + XU_PATHS_AHEAD / 2]);
        for (j = i; j < n && (j == i || !first[j]); j++) {
            uint64_t c = fo->paths.counts[order[j]];

            count = c > UINT64_MAX - count ? UINT64_MAX : count + c;
        }
        out_line(o, fo, order[i], count);
    }
    out_flush(o);
    rc = o->err;
    free(o);
    return rc;
}

static int folded_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct fold fo = { .ctx = ctx };
    uint32_t *order = NULL;
    uint8_t *first = NULL;
    int rc;

    xu_paths_init(&fo.paths);
    rc = chains_init(&fo);
    if (rc == 0)
        rc = build_paths(&fo);
    /* frames are named: their maps are not needed while sorting */
    free(fo.by_chain);
    xu_u64map_dispose(&fo.by_ptr);
    xu_u64map_dispose(&fo.exact);
    xu_u64map_dispose(&fo.caller);
    xu_u64map_dispose(&fo.vcpus);
    free(fo.chain);
    free(fo.label);
    if (rc == 0)
        rc = rank_tokens(&fo);
    if (rc == 0)
        rc = xu_paths_sort(&fo.paths, &order, &first);
    if (rc == 0)
        rc = write_lines(f, &fo, order, first);
    free(order);
    free(first);
    free(fo.by_rank);
    free(fo.lens);
    xu_paths_dispose(&fo.paths);
    xu_strtab_dispose(&fo.names);
    return rc;
}

const struct xu_output_ops xu_output_folded = {
    .name = "folded",
    .extensions = ".folded .collapsed",
    .description = "one line per stack, \"root;...;leaf count\" (flamegraph.pl input)",
    .write = folded_write,
};
