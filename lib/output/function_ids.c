/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * function_ids.c - function ids, hash maps and escaping for the writers.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "function_ids.h"

#define FREE_SLOT UINT32_MAX
#define STRTAB_BLOCK (64 * 1024)

struct xu_strtab_block {
    struct xu_strtab_block *next;
    size_t used, size;
    char data[];
};

static inline uint64_t mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

uint64_t xu_hash_str(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return mix64(h);
}

/* ------------------------------------------------------------ u64map -- */

void xu_u64map_dispose(struct xu_u64map *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

/* The slot of key, or the free slot where it would go. */
static inline struct xu_u64map_slot *u64map_find(const struct xu_u64map *m, uint64_t key)
{
    size_t mask = m->cap - 1, i;

    for (i = mix64(key) & mask;; i = (i + 1) & mask)
        if (m->slots[i].val == FREE_SLOT || m->slots[i].key == key)
            return &m->slots[i];
}

bool xu_u64map_get(const struct xu_u64map *m, uint64_t key, uint32_t *val)
{
    const struct xu_u64map_slot *s;

    if (!m->cap)
        return false;
    s = u64map_find(m, key);
    if (s->val == FREE_SLOT)
        return false;
    *val = s->val;
    return true;
}

static int u64map_resize(struct xu_u64map *m, size_t ncap)
{
    struct xu_u64map old = *m;
    size_t i;

    m->slots = malloc(ncap * sizeof(*m->slots));
    if (!m->slots) {
        *m = old;
        return -ENOMEM;
    }
    memset(m->slots, 0xff, ncap * sizeof(*m->slots));
    m->cap = ncap;
    for (i = 0; i < old.cap; i++)
        if (old.slots[i].val != FREE_SLOT)
            *u64map_find(m, old.slots[i].key) = old.slots[i];
    free(old.slots);
    return 0;
}

int xu_u64map_reserve(struct xu_u64map *m, size_t n)
{
    size_t ncap = m->cap ? m->cap : 256;

    /* Keep the load under one half so probes stay short. */
    while (ncap < 2 * n) {
        if (ncap > SIZE_MAX / 4 / sizeof(*m->slots))
            return -ENOMEM;
        ncap *= 2;
    }
    return ncap == m->cap ? 0 : u64map_resize(m, ncap);
}

int xu_u64map_get_or_put(struct xu_u64map *m, uint64_t key, uint32_t *val)
{
    struct xu_u64map_slot *s;

    if ((m->n + 1) * 2 > m->cap && xu_u64map_reserve(m, m->n + 1) < 0)
        return -ENOMEM;
    s = u64map_find(m, key);
    if (s->val != FREE_SLOT) {
        *val = s->val;
        return 0;
    }
    s->key = key;
    s->val = *val;
    m->n++;
    return 1;
}

int xu_u64map_put(struct xu_u64map *m, uint64_t key, uint32_t val)
{
    uint32_t v = val;
    int rc = xu_u64map_get_or_put(m, key, &v);

    if (rc == 0)
        u64map_find(m, key)->val = val;
    return rc < 0 ? rc : 0;
}

/* ------------------------------------------------------------ strtab -- */

void xu_strtab_dispose(struct xu_strtab *st)
{
    struct xu_strtab_block *b, *next;

    for (b = st->blocks; b; b = next) {
        next = b->next;
        free(b);
    }
    free(st->strs);
    free(st->hashes);
    free(st->slots);
    memset(st, 0, sizeof(*st));
}

static char *strtab_copy(struct xu_strtab *st, const char *s, size_t len)
{
    struct xu_strtab_block *b = st->blocks;
    char *p;

    if (!b || b->size - b->used < len + 1) {
        size_t size = len + 1 > STRTAB_BLOCK ? len + 1 : STRTAB_BLOCK;

        b = malloc(sizeof(*b) + size);
        if (!b)
            return NULL;
        b->used = 0;
        b->size = size;
        b->next = st->blocks;
        st->blocks = b;
    }
    p = b->data + b->used;
    memcpy(p, s, len);
    p[len] = '\0';
    b->used += len + 1;
    return p;
}

static long strtab_find(const struct xu_strtab *st, const char *s, size_t len,
                        uint64_t h, size_t *slot)
{
    size_t mask, i;

    if (!st->nr_slots) {
        *slot = 0;
        return -1;
    }
    mask = st->nr_slots - 1;
    for (i = h & mask;; i = (i + 1) & mask) {
        uint32_t id = st->slots[i];

        if (id == FREE_SLOT) {
            *slot = i;
            return -1;
        }
        if (st->hashes[id] == h && strncmp(st->strs[id], s, len) == 0 &&
            st->strs[id][len] == '\0')
            return id;
    }
}

long xu_strtab_lookup(const struct xu_strtab *st, const char *s, size_t len)
{
    size_t slot;

    return strtab_find(st, s, len, xu_hash_str(s, len), &slot);
}

static int strtab_grow(struct xu_strtab *st)
{
    size_t nslots = st->nr_slots ? st->nr_slots * 2 : 1024, i;
    uint32_t *slots = malloc(nslots * sizeof(*slots));

    if (!slots)
        return -ENOMEM;
    memset(slots, 0xff, nslots * sizeof(*slots));
    for (i = 0; i < st->n; i++) {
        size_t j = st->hashes[i] & (nslots - 1);

        while (slots[j] != FREE_SLOT)
            j = (j + 1) & (nslots - 1);
        slots[j] = (uint32_t)i;
    }
    free(st->slots);
    st->slots = slots;
    st->nr_slots = nslots;
    return 0;
}

long xu_strtab_intern(struct xu_strtab *st, const char *s, size_t len)
{
    uint64_t h = xu_hash_str(s, len);
    size_t slot;
    long id;
    char *copy;

    id = strtab_find(st, s, len, h, &slot);
    if (id >= 0)
        return id;
    if (st->n >= UINT32_MAX - 1)
        return -ENOMEM;
    if ((st->n + 1) * 2 > st->nr_slots) {
        if (strtab_grow(st) < 0)
            return -ENOMEM;
        strtab_find(st, s, len, h, &slot);
    }
    if (st->n == st->cap) {
        size_t ncap = st->cap ? st->cap * 2 : 256;
        char **strs = realloc(st->strs, ncap * sizeof(*strs));

        if (!strs)
            return -ENOMEM;
        st->strs = strs;
        {
            uint64_t *hashes = realloc(st->hashes, ncap * sizeof(*hashes));

            if (!hashes)
                return -ENOMEM;
            st->hashes = hashes;
        }
        st->cap = ncap;
    }
    copy = strtab_copy(st, s, len);
    if (!copy)
        return -ENOMEM;
    st->strs[st->n] = copy;
    st->hashes[st->n] = h;
    st->slots[slot] = (uint32_t)st->n;
    return (long)st->n++;
}

/* ------------------------------------------------------------- funcs -- */

void xu_funcs_init(struct xu_funcs *fn, const struct xu_output_ctx *ctx)
{
    memset(fn, 0, sizeof(*fn));
    fn->ctx = ctx;
    fn->mark_inline = true;
    fn->split_lines = ctx->opts && ctx->opts->lines;
}

void xu_funcs_dispose(struct xu_funcs *fn)
{
    xu_strtab_dispose(&fn->names);
    xu_u64map_dispose(&fn->by_key);
    xu_u64map_dispose(&fn->by_chain);
    free(fn->by_index);
    xu_u64map_dispose(&fn->by_ptr);
    free(fn->addr);
    free(fn->has_addr);
    free(fn->src);
    free(fn->chain);
    free(fn->label);
    memset(fn, 0, sizeof(*fn));
}

static long funcs_add(struct xu_funcs *fn, const char *name, bool has_addr,
                      uint64_t addr)
{
    long id = xu_strtab_intern(&fn->names, name, strlen(name));

    if (id < 0)
        return id;
    if ((size_t)id >= fn->cap) {
        size_t ncap = fn->cap ? fn->cap * 2 : 256;
        uint64_t *a = realloc(fn->addr, ncap * sizeof(*a));
        bool *h;

        if (!a)
            return -ENOMEM;
        fn->addr = a;
        h = realloc(fn->has_addr, ncap * sizeof(*h));
        if (!h)
            return -ENOMEM;
        memset(h + fn->cap, 0, (ncap - fn->cap) * sizeof(*h));
        fn->has_addr = h;
        {
            struct xu_func_src *src = realloc(fn->src, ncap * sizeof(*src));

            if (!src)
                return -ENOMEM;
            memset(src + fn->cap, 0, (ncap - fn->cap) * sizeof(*src));
            fn->src = src;
        }
        fn->cap = ncap;
    }
    if (!fn->src[id].plain)
        fn->src[id].plain = fn->names.strs[id];
    if (has_addr && !fn->has_addr[id]) {
        fn->has_addr[id] = true;
        fn->addr[id] = addr;
    }
    return id;
}

long xu_funcs_frame(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i)
{
    const struct xu_output_ctx *ctx = fn->ctx;
    uint64_t key = ctx->names ? s->pcs[i] : xu_stack_lookup_addr(s, i);
    uint32_t id;
    char buf[19];
    const char *name;
    long rc;

    if (xu_u64map_get(&fn->by_key, key, &id))
        return id;
    if (ctx->names) {
        if (key < ctx->names->count) {
            name = ctx->names->names[key];
        } else {
            snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)key);
            name = buf;
        }
    } else {
        name = xu_output_frame_name(ctx, s, i, buf);
    }
    rc = funcs_add(fn, name, !ctx->names, key);
    if (rc < 0)
        return rc;
    if (xu_u64map_put(&fn->by_key, key, (uint32_t)rc) < 0)
        return -ENOMEM;
    return rc;
}

/* Record where function id was seen: the first source position, and
 * whether its line changes between frames. */
static void note_src(struct xu_funcs *fn, long id, const struct xu_frame_line *l,
                     bool decorated)
{
    struct xu_func_src *src = &fn->src[id];

    if (decorated)
        src->plain = l->name;   /* the symboliser's: lives as long as fn */
    src->inlined = l->inlined;
    if (!src->file && !src->line && !src->line_varies) {
        src->file = l->file;
        src->line = l->line;
    } else if (src->line != l->line && !src->line_varies) {
        src->line_varies = true;
        src->line = 0;
    }
}

/*
 * by_chain holds, per lookup key, the function id itself when the frame is
 * one function (nearly all of them: asking then costs no access beyond the
 * map), else CHAIN | the offset of its ids in fn->chain.
 */
#define CHAIN 0x80000000u
#define UNSET UINT32_MAX        /* in by_index: not met yet */

/*
 * The id of a function named by a string the symboliser owns: its pointer
 * is remembered, so a function's many addresses cost one string lookup.
 */
static long funcs_add_owned(struct xu_funcs *fn, const char *name, uint64_t addr)
{
    uint32_t id;
    long rc;

    if (xu_u64map_get(&fn->by_ptr, (uint64_t)(uintptr_t)name, &id)) {
        if (!fn->has_addr[id]) {
            fn->has_addr[id] = true;
            fn->addr[id] = addr;
        }
        return id;
    }
    rc = funcs_add(fn, name, true, addr);
    if (rc >= 0 && xu_u64map_put(&fn->by_ptr, (uint64_t)(uintptr_t)name, (uint32_t)rc) < 0)
        return -ENOMEM;
    return rc;
}

/*
 * The functions of a frame, l[0..n), the first time its key is met: *v
 * gets what to remember of it.  from_syms: l is the symboliser's (not a
 * name made up for the frame); owned: so are the names, each resolved.
 */
static long new_frames(struct xu_funcs *fn, uint64_t key, const struct xu_frame_line *l,
                       unsigned int n, bool from_syms, bool owned, uint32_t *v, uint32_t *one,
                       const uint32_t **ids)
{
    const struct xu_output_ctx *ctx = fn->ctx;
    uint32_t off = (uint32_t)fn->nr_chain;
    unsigned int j;
    bool chained;

    if (fn->nr_chain + n + 1 > fn->cap_chain) {
        size_t ncap = fn->cap_chain ? fn->cap_chain * 2 : 1024;
        uint32_t *c;

        while (ncap < fn->nr_chain + n + 1)
            ncap *= 2;
        /* CHAIN | offset stays below UNSET */
        if (ncap >= CHAIN - 1 || !(c = realloc(fn->chain, ncap * sizeof(*c))))
            return -ENOMEM;
        fn->chain = c;
        fn->cap_chain = ncap;
    }
    fn->chain[off] = n;
    for (j = 0; j < n; j++) {
        bool decorated = (fn->mark_inline && l[j].inlined) || (fn->split_lines && l[j].line);
        const char *name = l[j].name;
        long id;

        if (decorated) {
            long len = xu_output_line_label(&l[j], fn->split_lines, &fn->label,
                                            &fn->label_cap);

            if (len < 0)
                return len;
            if (!fn->mark_inline && l[j].inlined)
                fn->label[len - 4] = '\0';
            name = fn->label;
        }
        id = owned && !decorated ? funcs_add_owned(fn, name, key)
                                 : funcs_add(fn, name, !ctx->names, key);
        if (id < 0)
            return id;
        /* the unmarked name points into the symboliser only when it came
         * from there */
        note_src(fn, id, &l[j], decorated && from_syms);
        fn->chain[off + 1 + j] = (uint32_t)id;
    }
    /* an id with CHAIN set (2^31 functions) goes to the chain as well */
    chained = n > 1 || (fn->chain[off + 1] & CHAIN);
    *v = chained ? CHAIN | off : fn->chain[off + 1];
    if (!chained) {
        *one = fn->chain[off + 1];
        *ids = one;
        return 1;
    }
    fn->nr_chain += n + 1;
    *ids = &fn->chain[off + 1];
    return n;
}

/*
 * by_index, once, when the frames are addresses the symboliser knows: by
 * chain when the symboliser has no DWARF (a function's addresses then
 * share one chain and what is remembered of them is the same), else by
 * address, since where a function was seen first and last with which
 * line (note_src) follows every address.
 */
static int index_init(struct xu_funcs *fn)
{
    size_t n;

    fn->index_tried = true;
    fn->by_chain_id = !xu_symbolizer_has_dwarf(fn->ctx->syms);
    n = fn->by_chain_id ? xu_symbolizer_nr_chains(fn->ctx->syms)
                        : xu_symbolizer_count(fn->ctx->syms);
    if (fn->ctx->names || n == 0)
        return 0;
    fn->by_index = malloc(n * sizeof(*fn->by_index));
    if (!fn->by_index)
        return -ENOMEM;
    memset(fn->by_index, 0xff, n * sizeof(*fn->by_index));
    return 0;
}

/* Frame i of s, met for the first time: *v gets what to remember. */
static long new_frames_of(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                          uint64_t key, uint32_t *v, uint32_t *one, const uint32_t **ids)
{
    const struct xu_frame_line *l;
    struct xu_frame_line single;
    unsigned int n;
    char buf[19];

    n = xu_output_frame_lines(fn->ctx, s, i, &single, buf, &l);
    return new_frames(fn, key, l, n, l != &single, false, v, one, ids);
}

/* The same for the address or chain k of the symboliser. */
static long new_frames_at(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                          uint64_t key, long k, uint32_t *one, const uint32_t **ids)
{
    const struct xu_frame_line *l;
    const struct xu_symbol *sym;
    struct xu_frame_line single;
    unsigned int n = fn->by_chain_id
                         ? xu_symbolizer_chain_frames(fn->ctx->syms, (size_t)k, &sym, &l)
                         : xu_symbolizer_frames_at(fn->ctx->syms, (size_t)k, &sym, &l);

    /* an unresolved frame is named after its own pc, not the symboliser's
     * lookup address; a pseudo-frame is no function */
    if (!sym || xu_pc_is_pseudo(s->pcs[i]))
        return new_frames_of(fn, s, i, key, &fn->by_index[k], one, ids);
    /* one function without a line: its name alone, as xu_output_frame_lines
     * gives it */
    if (n == 1 && !l[0].file && !l[0].line) {
        memset(&single, 0, sizeof(single));
        single.name = l[0].name;
        return new_frames(fn, key, &single, 1, false, true, &fn->by_index[k], one, ids);
    }
    return new_frames(fn, key, l, n, true, true, &fn->by_index[k], one, ids);
}

/* The value by_chain keeps for key, the first time it is met. */
static long new_frames_by_key(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                              uint64_t key, uint32_t *one, const uint32_t **ids)
{
    uint32_t v;
    long n = new_frames_of(fn, s, i, key, &v, one, ids);

    if (n >= 0 && xu_u64map_put(&fn->by_chain, key, v) < 0)
        return -ENOMEM;
    return n;
}

static inline long funcs_frames(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                                uint32_t *one, const uint32_t **ids)
{
    uint64_t key = fn->ctx->names ? s->pcs[i] : xu_stack_lookup_addr(s, i);
    uint32_t v;
    long k;

    if (!fn->index_tried && index_init(fn) < 0)
        return -ENOMEM;
    /* a pseudo-frame's key is remembered by the key: a chain would give
     * its name to the addresses of a symbol it fell in */
    if (fn->by_index && (fn->ctx->names || !xu_pc_is_pseudo(key)) &&
        (k = fn->by_chain_id ? xu_symbolizer_chain(fn->ctx->syms, key)
                             : xu_symbolizer_index(fn->ctx->syms, key)) >= 0) {
        v = fn->by_index[k];
        if (v == UNSET)
            return new_frames_at(fn, s, i, key, k, one, ids);
    } else if (!xu_u64map_get(&fn->by_chain, key, &v)) {
        return new_frames_by_key(fn, s, i, key, one, ids);
    }
    if (!(v & CHAIN)) {
        *one = v;
        *ids = one;
        return 1;
    }
    *ids = &fn->chain[(v & ~CHAIN) + 1];
    return fn->chain[v & ~CHAIN];
}

long xu_funcs_frames(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                     const uint32_t **ids)
{
    return funcs_frames(fn, s, i, &fn->one, ids);
}

void xu_funcs_prefetch(const struct xu_funcs *fn, const struct xu_stack *s)
{
    uint32_t i;

    for (i = 0; fn->by_index && i < s->depth; i++)
        xu_symbolizer_prefetch(fn->ctx->syms, xu_stack_lookup_addr(s, i));
}

long xu_funcs_stack(struct xu_funcs *fn, const struct xu_stack *s, uint32_t from,
                    uint32_t *ids, uint32_t max)
{
    uint32_t i, len = 0, total = 0, one;
    const uint32_t *c;
    long n;

    if (fn->by_index)
        for (i = 0; i <= from; i++)
            xu_symbolizer_prefetch(fn->ctx->syms, xu_stack_lookup_addr(s, i));
    /* without DWARF a frame is one function: no need to count */
    for (i = from + 1; !fn->ctx->names && xu_symbolizer_has_dwarf(fn->ctx->syms) && i-- > 0;) {
        n = funcs_frames(fn, s, i, &one, &c);
        if (n < 0)
            return n;
        total += (uint32_t)n;
    }
    for (i = from + 1; i-- > 0;) {
        n = funcs_frames(fn, s, i, &one, &c);
        if (n < 0)
            return n;
        if (n == 1 || total > max) {
            if (len == max)
                break;
            ids[len++] = c[0];
            continue;
        }
        if (len + (uint32_t)n > max)
            break;
        memcpy(ids + len, c, (size_t)n * sizeof(*ids));
        len += (uint32_t)n;
    }
    return len;
}

long xu_funcs_named(struct xu_funcs *fn, const char *name)
{
    return funcs_add(fn, name, false, 0);
}

/* ---------------------------------------------------------- escaping -- */

size_t xu_utf8_seq_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n, i;
    uint32_t cp;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and code points past U+10FFFF. */
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    /* U+FFFE and U+FFFF are not XML characters either. */
    if (cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

void xu_fput_xml(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    while (*s) {
        size_t n = xu_utf8_seq_len(s);

        if (n == 0) {
            putc('?', f);
            s++;
            continue;
        }
        if (n > 1) {
            fwrite(s, 1, n, f);
            s += n;
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            putc(*s < 0x20 || *s == 0x7f ? '?' : *s, f);
            break;
        }
        s++;
    }
}

void xu_fput_json(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    putc('"', f);
    while (*s) {
        size_t n = xu_utf8_seq_len(s);

        if (n == 0) {
            fputs("\\ufffd", f);
            s++;
            continue;
        }
        if (n > 1) {
            fwrite(s, 1, n, f);
            s += n;
            continue;
        }
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            putc(*s, f);
        s++;
    }
    putc('"', f);
}
