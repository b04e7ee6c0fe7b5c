/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * function_ids.h - what the writers of stacks-as-functions share (internal).
 *
 * A flame graph, a report, pprof and speedscope all turn frames into
 * function names.  Doing that per frame (a symbol lookup, a string compare)
 * would be the cost of a writer, so names are built once per unique lookup
 * address and frames become small integer function ids through hash maps.
 */
#ifndef XU_OUTPUT_FUNCTION_IDS_H
#define XU_OUTPUT_FUNCTION_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output/xu_output.h"

/* A map from 64-bit keys to 32-bit values (open addressing, grows).  Key
 * and value share a slot, so a probe touches one cache line. */
struct xu_u64map_slot {
    uint64_t key;
    uint32_t val;               /* UINT32_MAX: free slot */
};

struct xu_u64map {
    struct xu_u64map_slot *slots;
    size_t cap;                 /* power of two, 0 before the first put */
    size_t n;
};

void xu_u64map_dispose(struct xu_u64map *m);
/* True and *val when key is present. */
bool xu_u64map_get(const struct xu_u64map *m, uint64_t key, uint32_t *val);
/* Insert or replace; val must not be UINT32_MAX.  0 or -ENOMEM. */
int xu_u64map_put(struct xu_u64map *m, uint64_t key, uint32_t val);
/* *val is key's value; when key is new it is added with value val first.
 * 1 added, 0 found, -ENOMEM. */
int xu_u64map_get_or_put(struct xu_u64map *m, uint64_t key, uint32_t *val);
/* Room for n keys without growing.  0 or -ENOMEM. */
int xu_u64map_reserve(struct xu_u64map *m, size_t n);

/* Interned strings: equal strings get the same id, ids count from 0. */
struct xu_strtab {
    char **strs;
    uint64_t *hashes;
    size_t n, cap;
    uint32_t *slots;            /* indices into strs, UINT32_MAX when free */
    size_t nr_slots;
    struct xu_strtab_block *blocks;
};

void xu_strtab_dispose(struct xu_strtab *st);
/* The id of s[0..len), added when new.  id >= 0 or -ENOMEM. */
long xu_strtab_intern(struct xu_strtab *st, const char *s, size_t len);
/* id of s when present, else -1. */
long xu_strtab_lookup(const struct xu_strtab *st, const char *s, size_t len);
static inline const char *xu_strtab_get(const struct xu_strtab *st, uint32_t id)
{
    return st->strs[id];
}

/* What a function of a writer is: its source position, as the frames of
 * DWARF give it. */
struct xu_func_src {
    const char *plain;          /* the name without the label's marks */
    const char *file;           /* NULL: unknown */
    uint32_t line;              /* 0: unknown, or not one line (line_varies) */
    bool inlined;
    bool line_varies;           /* seen at several lines (not split_lines) */
};

/* Function ids of the frames of one writer's context. */
struct xu_funcs {
    const struct xu_output_ctx *ctx;
    struct xu_strtab names;
    struct xu_u64map by_key;    /* lookup key -> function id */
    uint64_t *addr;             /* per function: first lookup address seen */
    bool *has_addr;             /* per function: addr is a real address */
    struct xu_func_src *src;    /* per function */
    size_t cap;
    /* How a frame's functions are labelled (xu_output_line_label): set
     * before the first frame.  Functions are their labels: marked, a
     * function inlined and not inlined is two; split by lines, one a line. */
    bool mark_inline;
    bool split_lines;
    /* Per lookup key, its functions outermost first (function_ids.c): in by_chain
     * itself when one, else in chain, where chain[off] is their count and
     * their ids follow. */
    struct xu_u64map by_chain;
    /* The same by the symboliser's chain of the key (xu_symbolizer_chain,
     * 4 bytes a chain: one a function without DWARF) or with DWARF by its
     * index (xu_symbolizer_index, 4 bytes a slot), when frames are
     * addresses it knows: a map keyed by address cost 16 to 32 bytes each
     * and a miss a frame. */
    uint32_t *by_index;
    bool index_tried;
    bool by_chain_id;           /* by_index is by chain */
    struct xu_u64map by_ptr;    /* a name the symboliser owns -> function id */
    uint32_t *chain;
    size_t nr_chain, cap_chain;
    uint32_t one;               /* xu_funcs_frames()'s answer of one function */
    char *label;                /* scratch */
    size_t label_cap;
};

/* Nothing allocated until the first frame; dispose always.  mark_inline
 * is on, split_lines as ctx->opts->lines asks. */
void xu_funcs_init(struct xu_funcs *fn, const struct xu_output_ctx *ctx);
void xu_funcs_dispose(struct xu_funcs *fn);
/* Function id of frame i of s, or -ENOMEM (the physical function alone). */
long xu_funcs_frame(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i);
/* The function ids of frame i of s, outermost first (xu_output_frame_lines):
 * *ids points into fn until the next call.  Their count (>= 1), or -ENOMEM. */
long xu_funcs_frames(struct xu_funcs *fn, const struct xu_stack *s, uint32_t i,
                     const uint32_t **ids);
/*
 * The function ids of the frames s[from..0] (from the outermost frame
 * from down to the innermost), each expanded into its inlined functions
 * while the whole stays within max ids; past it every frame is its
 * physical function alone.  Their count, or -ENOMEM.
 */
long xu_funcs_stack(struct xu_funcs *fn, const struct xu_stack *s, uint32_t from,
                    uint32_t *ids, uint32_t max);
/* Ask the symboliser for s's frames ahead of xu_funcs_stack(fn, s, ...),
 * while the stack before it is handled: their cache misses overlap. */
void xu_funcs_prefetch(const struct xu_funcs *fn, const struct xu_stack *s);
/* Function id of a name that is no frame ("[incomplete]", "vcpu0"). */
long xu_funcs_named(struct xu_funcs *fn, const char *name);
static inline size_t xu_funcs_count(const struct xu_funcs *fn)
{
    return fn->names.n;
}
static inline const char *xu_funcs_name(const struct xu_funcs *fn, uint32_t id)
{
    return fn->names.strs[id];
}

/* A walk that did not reach the end of the chain: drawn under "[incomplete]". */
static inline bool xu_stack_incomplete(const struct xu_stack *s)
{
    return !xu_walk_complete(s->end);
}

/* Text escaping for the formats that carry names.  Invalid UTF-8 and
 * control characters, which a hostile symbol table can hold, become '?' in
 * XML (which cannot carry them at all) and U+FFFD in JSON. */
void xu_fput_xml(FILE *f, const char *s);
void xu_fput_json(FILE *f, const char *s);
/* Length of the valid UTF-8 sequence starting at s, 0 when invalid. */
size_t xu_utf8_seq_len(const unsigned char *s);

/* 64-bit FNV-1a, for names. */
uint64_t xu_hash_str(const char *s, size_t len);

#endif
