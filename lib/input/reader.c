/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reader.c - reading profiles back (see xu_input.h): which reader a file
 * needs, and the final choice between addresses and names; the readers'
 * common machinery is builder.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define MAX_NAME_FINDS 50000    /* xu_symtab_find is O(n): bound the lookups */

struct xu_input_priv {
    struct xu_strtab names;
};

enum tok_kind { TOK_HEX, TOK_SYM };

struct tok_info {
    uint64_t val;               /* HEX: the address; SYM: the offset */
    uint32_t name_len;          /* SYM: length of the name part */
    uint8_t kind;
};

const char *xu_input_format_name(enum xu_input_format fmt)
{
    switch (fmt) {
    case XU_INPUT_RAW: return "raw";
    case XU_INPUT_FOLDED: return "folded";
    default: return "auto";
    }
}

/* --------------------------------------------------------- finishing -- */

static void classify(const char *s, struct tok_info *t)
{
    const char *plus = strstr(s, "+0x"), *next;

    if (xu_input_parse_hex(s, &t->val)) {
        t->kind = TOK_HEX;
        return;
    }
    t->kind = TOK_SYM;
    t->val = 0;
    t->name_len = (uint32_t)strlen(s);
    /* The last "+0x" that is followed by hex to the end is the offset. */
    while (plus && (next = strstr(plus + 1, "+0x")))
        plus = next;
    if (plus && plus > s && xu_input_parse_hex(plus + 1, &t->val))
        t->name_len = (uint32_t)(plus - s);
}

/* Address mode for a symbolised trace: every name must be in the ELF. */
static bool names_to_addrs(struct input_builder *b, const struct tok_info *ti, uint64_t *addr)
{
    const struct xu_symtab *st = b->opts ? b->opts->symtab : NULL;
    size_t i, finds = 0;
    char *name;
    bool ok = true;

    if (!st)
        return false;
    for (i = 0; i < b->tokens.n && ok; i++) {
        const struct xu_symbol *sym;

        if (ti[i].kind == TOK_HEX) {
            addr[i] = ti[i].val;
            continue;
        }
        if (++finds > MAX_NAME_FINDS)
            return false;
        name = strndup(xu_strtab_get(&b->tokens, (uint32_t)i), ti[i].name_len);
        if (!name)
            return false;
        sym = xu_symtab_find(st, name);
        free(name);
        if (!sym)
            ok = false;
        else
            addr[i] = sym->start + ti[i].val;
    }
    return ok;
}

/* Name id of token t at a leaf (innermost) or caller position. */
static long token_name(struct input_builder *b, const struct tok_info *ti, uint32_t t,
                       bool leaf, uint32_t *cache)
{
    const struct xu_symtab *st = b->opts ? b->opts->symtab : NULL;
    uint32_t *slot = &cache[2 * (size_t)t + (leaf ? 0 : 1)];
    const char *s = xu_strtab_get(&b->tokens, t);
    char hex[19];
    long id;

    if (*slot != UINT32_MAX)
        return *slot;
    if (ti[t].kind == TOK_SYM) {
        id = xu_strtab_intern(&b->in->priv->names, s, ti[t].name_len);
    } else {
        const struct xu_symbol *sym = NULL;
        uint64_t a = ti[t].val;

        if (st)
            sym = xu_symtab_lookup(st, leaf || a == 0 ? a : a - 1);
        if (sym) {
            id = xu_strtab_intern(&b->in->priv->names, sym->name, strlen(sym->name));
        } else {
            snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a);
            id = xu_strtab_intern(&b->in->priv->names, hex, strlen(hex));
        }
    }
    if (id >= 0)
        *slot = (uint32_t)id;
    return id;
}

static int finish_tokens(struct input_builder *b);

static int finish(struct input_builder *b)
{
    if (!b->token_mode) {
        /* Every frame was an address: the scratch profile is the result. */
        b->in->profile = b->scratch;
        b->scratch = NULL;
        b->in->has_names = false;
        return 0;
    }
    return finish_tokens(b);
}

static int finish_tokens(struct input_builder *b)
{
    struct xu_input *in = b->in;
    size_t ntok = b->tokens.n, nr = xu_profile_nr_stacks(b->scratch), i, k;
    struct tok_info *ti = NULL;
    uint64_t *addr = NULL, *pcs = NULL;
    uint32_t *cache = NULL;
    bool all_hex = true, addr_mode;
    int rc = 0;

    ti = calloc(ntok ? ntok : 1, sizeof(*ti));
    addr = calloc(ntok ? ntok : 1, sizeof(*addr));
    pcs = malloc(b->max_depth * sizeof(*pcs));
    in->profile = xu_profile_new(b->opts ? b->opts->max_stacks : 0);
    if (!ti || !addr || !pcs || !in->profile) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < ntok; i++) {
        classify(xu_strtab_get(&b->tokens, (uint32_t)i), &ti[i]);
        if (ti[i].kind == TOK_HEX)
            addr[i] = ti[i].val;
        else
            all_hex = false;
    }
    /* Folded frames are function names without offsets: as addresses they
     * would be function starts, and a caller's start - 1 is another function. */
    addr_mode = all_hex || (in->format == XU_INPUT_RAW && names_to_addrs(b, ti, addr));
    if (!addr_mode) {
        cache = malloc(2 * (ntok ? ntok : 1) * sizeof(*cache));
        if (!cache) {
            rc = -ENOMEM;
            goto out;
        }
        memset(cache, 0xff, 2 * (ntok ? ntok : 1) * sizeof(*cache));
    }
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(b->scratch, k);

        for (i = 0; i < s->depth; i++) {
            if (addr_mode) {
                pcs[i] = addr[s->pcs[i]];
            } else {
                long id = token_name(b, ti, (uint32_t)s->pcs[i], i == 0, cache);

                if (id < 0) {
                    rc = -ENOMEM;
                    goto out;
                }
                pcs[i] = (uint64_t)id;
            }
        }
        rc = xu_profile_add_state(in->profile, s->vcpu, s->state, pcs, s->depth, s->end,
                                  s->count, s->cpu_ns);
        if (rc < 0)
            goto out;
    }
    in->has_names = !addr_mode;
    if (in->has_names) {
        in->names.names = (const char *const *)in->priv->names.strs;
        in->names.count = in->priv->names.n;
    }
out:
    free(ti);
    free(addr);
    free(pcs);
    free(cache);
    return rc;
}

/* ------------------------------------------------------------- entry -- */

/* Folded when the first data line ends in " <count>"; raw otherwise. */
static enum xu_input_format detect(struct input_builder *b)
{
    long len;

    while ((len = xu_input_next_line(b, XU_INPUT_MAX_FOLDED_LINE)) == 0)
        ;
    xu_input_unread(b, len);
    if (len < 0)
        return len == XU_INPUT_LINE_TOO_LONG ? XU_INPUT_FOLDED : XU_INPUT_RAW;
    if (b->line[0] == '#')
        return XU_INPUT_RAW;
    {
        const char *sp = strrchr(b->line, ' ');

        if (sp && sp[1] && strspn(sp + 1, "0123456789") == strlen(sp + 1))
            return XU_INPUT_FOLDED;
    }
    return XU_INPUT_RAW;
}

void xu_input_free(struct xu_input *in)
{
    if (!in)
        return;
    xu_profile_free(in->profile);
    if (in->priv)
        xu_strtab_dispose(&in->priv->names);
    free(in->priv);
    free(in);
}

static int input_read(FILE *f, const char *path, enum xu_input_format fmt,
                      const struct xu_input_options *opts, struct xu_log *log,
                      struct xu_input **out)
{
    struct input_builder b = { .f = f, .opts = opts, .log = log, .path = path };
    struct xu_input *in = calloc(1, sizeof(*in));
    int rc;

    *out = NULL;
    b.in = in;
    b.max_depth = opts && opts->max_depth && opts->max_depth <= XU_MAX_DEPTH_LIMIT
                  ? opts->max_depth : XU_MAX_DEPTH_LIMIT;
    if (!in || !(in->priv = calloc(1, sizeof(*in->priv))) ||
        !(b.scratch = xu_profile_new(opts ? opts->max_stacks : 0))) {
        rc = -ENOMEM;
        goto out;
    }
    if (fmt == XU_INPUT_AUTO)
        fmt = detect(&b);
    in->format = fmt;
    rc = fmt == XU_INPUT_FOLDED ? xu_input_parse_folded(&b) : xu_input_parse_raw(&b);
    if (rc < 0)
        goto out;
    if (xu_profile_nr_stacks(b.scratch) == 0) {
        xu_error(log, "%s: no samples in this %s file", path ? path : "input",
                 xu_input_format_name(fmt));
        rc = -ENODATA;
        goto out;
    }
    rc = finish(&b);
    if (rc < 0)
        goto out;
    /* read whole: its index would only take memory from the writers */
    xu_profile_seal(in->profile);
    if (in->stats.bad_lines)
        xu_warn(log, "%s: %llu line(s) skipped", path ? path : "input",
                (unsigned long long)in->stats.bad_lines);
    *out = in;
    in = NULL;
out:
    if (rc == -ENOMEM)
        xu_error(log, "%s: out of memory", path ? path : "input");
    else if (rc == -E2BIG)
        xu_error(log, "%s: more than %u distinct frames, or %u frames in distinct stacks",
                 path ? path : "input", XU_INPUT_MAX_FRAMES, XU_INPUT_MAX_STORED_FRAMES);
    else if (rc == -EIO)
        xu_error(log, "%s: read error", path ? path : "input");
    else if (rc == -EOVERFLOW)
        xu_error(log, "%s:%llu: more than %llu samples in all (or %llu ns of CPU time): "
                 "figures this large are not a profile", path ? path : "input",
                 (unsigned long long)(in ? in->stats.lines : 0),
                 (unsigned long long)XU_PROFILE_MAX_SAMPLES,
                 (unsigned long long)XU_PROFILE_MAX_CPU_NS);
    xu_input_free(in);
    xu_profile_free(b.scratch);
    xu_strtab_dispose(&b.tokens);
    xu_u64map_dispose(&b.hex_tokens);
    free(b.rbuf);
    free(b.line);
    return rc;
}

int xu_input_read(FILE *f, enum xu_input_format fmt, const struct xu_input_options *opts,
                  struct xu_log *log, struct xu_input **out)
{
    return input_read(f, NULL, fmt, opts, log, out);
}

int xu_input_read_path(const char *path, enum xu_input_format fmt,
                       const struct xu_input_options *opts, struct xu_log *log,
                       struct xu_input **out)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    int rc;

    *out = NULL;
    if (!f) {
        rc = -errno;
        xu_error(log, "%s: %s", path, strerror(errno));
        return rc;
    }
    rc = input_read(f, path, fmt, opts, log, out);
    if (f != stdin)
        fclose(f);
    return rc;
}
