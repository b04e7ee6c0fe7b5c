/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.c - interned stacks.
 *
 * Stacks live in a growable array (insertion order, what writers iterate)
 * and are found through an open-addressing hash table of indices.  The PCs
 * themselves are copied into arena blocks that never move, so a struct
 * xu_stack's pcs pointer stays valid as the profile grows.
 *
 * A profile of a million distinct 20-deep stacks fills 160 MB of blocks
 * once, front to back: past the first few, a block is 2 MiB of huge pages
 * (xu_big_map), a page fault a block rather than one every 4 KiB (in a
 * virtual machine the faults were a fifth of storing the stacks).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/xu_profile.h"
#include "util/xu_big.h"
#include "util/xu_sort.h"

const char *xu_walk_end_name(enum xu_walk_end end)
{
    switch (end) {
    case XU_WALK_COMPLETE:  return "complete";
    case XU_WALK_BAD_FRAME: return "bad frame";
    case XU_WALK_UNMAPPED:  return "unmapped";
    case XU_WALK_DEPTH:     return "depth limit";
    case XU_WALK_NO_PAGING: return "not in long mode";
    case XU_WALK_CFI_ROOT:  return "cfi root";
    case XU_WALK_NOT_ROOT:  return "not a root";
    case XU_WALK_NOT_CALL:  return "not after a call";
    case XU_WALK__COUNT:    break;
    }
    return "unknown";
}

const char *xu_vstate_name(enum xu_vstate s)
{
    switch (s) {
    case XU_VSTATE_UNKNOWN:  return "unknown";
    case XU_VSTATE_RUNNING:  return "running";
    case XU_VSTATE_RUNNABLE: return "runnable";
    case XU_VSTATE_BLOCKED:  return "blocked";
    case XU_VSTATE_OFFLINE:  return "offline";
    case XU_VSTATE__COUNT:   break;
    }
    return "unknown";
}

enum xu_vstate xu_vstate_from_name(const char *name, size_t len)
{
    unsigned int s;

    for (s = 0; s < XU_VSTATE__COUNT; s++) {
        const char *n = xu_vstate_name((enum xu_vstate)s);

        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return (enum xu_vstate)s;
    }
    return XU_VSTATE__COUNT;
}

#define SMALL_BLOCK ((size_t)512 * 1024)   /* malloc's, the first few */
#define SMALL_BLOCKS 4                      /* then XU_BIG_MIN, mapped */
#define EMPTY_SLOT UINT32_MAX

struct arena_block {
    struct arena_block *next;
    size_t used, cap;           /* in words */
    bool mapped;                /* by xu_big_map, of XU_BIG_MIN bytes */
    uint64_t words[];
};

/*
 * A stack's record is its xu_stack alone: its hash is not kept (8 bytes a
 * stack, a sixth of a record), since a probe compares the stack's own
 * fields and PCs and a growing index hashes the stacks again.
 */
struct stack_rec {
    struct xu_stack s;
};

/* The largest stack fits a small block, so no block is ever oversized. */
_Static_assert(XU_MAX_DEPTH_LIMIT * 8 + sizeof(struct arena_block) <= SMALL_BLOCK,
               "a stack of XU_MAX_DEPTH_LIMIT frames fits one arena block");

struct xu_profile {
    struct stack_rec *stacks;
    size_t nr_stacks, cap_stacks, max_stacks;
    uint32_t *slots;            /* indices into stacks[], EMPTY_SLOT when free */
    uint32_t tag_mask;          /* the bits of a slot that hold its stack's tag */
    size_t nr_slots;            /* power of two */
    struct arena_block *arena;  /* newest first */
    size_t nr_blocks;
    struct xu_profile_totals totals;
    bool ends_changed;          /* set_end was called: the hash no longer finds stacks */
    bool sealed;                /* no more adds: the index is freed */
};

/* FNV-1a over the words, mixed per word: cheap and good enough for PCs. */
static uint64_t stack_hash(uint32_t vcpu, enum xu_vstate state, enum xu_walk_end end,
                           const uint64_t *pcs, uint32_t depth)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ ((uint64_t)vcpu << 32) ^ ((uint64_t)state << 8) ^
                 (uint64_t)end;
    uint32_t i;

    for (i = 0; i < depth; i++) {
        h ^= pcs[i];
        h *= 0x100000001b3ULL;
        h ^= h >> 29;
    }
    h ^= depth;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

struct xu_profile *xu_profile_new(size_t max_stacks)
{
    struct xu_profile *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->max_stacks = max_stacks ? max_stacks : XU_PROFILE_DEFAULT_MAX_STACKS;
    /*
     * A slot's high byte holds the top byte of its stack's hash, when the
     * indices leave it free (below 2^24 - 1, so no slot reads as
     * EMPTY_SLOT): a probe passes a slot of another stack on that byte
     * nearly always, without reading the stack's record and PCs, two
     * cache misses when the stacks are a million (the index stays 4
     * bytes a slot).
     */
    p->tag_mask = p->max_stacks < (1u << 24) - 1 ? 0xff000000u : 0;
    p->nr_slots = 1024;
    p->slots = malloc(p->nr_slots * sizeof(*p->slots));
    if (!p->slots) {
        free(p);
        return NULL;
    }
    memset(p->slots, 0xff, p->nr_slots * sizeof(*p->slots));
    return p;
}

static void block_free(struct arena_block *b)
{
    if (b->mapped)
        xu_big_unmap(b, XU_BIG_MIN);
    else
        free(b);
}

void xu_profile_free(struct xu_profile *p)
{
    struct arena_block *b, *next;

    if (!p)
        return;
    for (b = p->arena; b; b = next) {
        next = b->next;
        block_free(b);
    }
    free(p->stacks);
    free(p->slots);
    free(p);
}

void xu_profile_clear(struct xu_profile *p)
{
    struct arena_block *b, *next;

    /* the newest block stays for the next window's stacks */
    if (p->arena) {
        for (b = p->arena->next; b; b = next) {
            next = b->next;
            block_free(b);
        }
        p->arena->next = NULL;
        p->arena->used = 0;
        p->nr_blocks = 1;
    }
    p->nr_stacks = 0;
    if (p->slots)
        memset(p->slots, 0xff, p->nr_slots * sizeof(*p->slots));
    memset(&p->totals, 0, sizeof(p->totals));
    p->ends_changed = false;
}

/* words <= XU_MAX_DEPTH_LIMIT, which every block holds. */
static uint64_t *arena_alloc(struct xu_profile *p, uint32_t words)
{
    struct arena_block *b = p->arena;
    bool big = p->nr_blocks >= SMALL_BLOCKS;
    size_t size = big ? XU_BIG_MIN : SMALL_BLOCK;

    if (!b || b->used + words > b->cap) {
        b = big ? xu_big_map(size) : malloc(size);
        if (!b)
            return NULL;
        b->next = p->arena;
        b->used = 0;
        b->cap = (size - sizeof(*b)) / sizeof(uint64_t);
        b->mapped = big;
        p->arena = b;
        p->nr_blocks++;
    }
    b->used += words;
    return &b->words[b->used - words];
}

/* What a slot holds for stack i of hash h: the index, and the tag. */
static uint32_t slot_value(const struct xu_profile *p, size_t i, uint64_t h)
{
    return (uint32_t)i | ((uint32_t)(h >> 32) & p->tag_mask);
}

static int grow_slots(struct xu_profile *p)
{
    size_t n = p->nr_slots * 2, i, j;
    uint32_t *slots = xu_big_alloc(n * sizeof(*slots));

    if (!slots)
        return -ENOMEM;
    memset(slots, 0xff, n * sizeof(*slots));
    for (i = 0; i < p->nr_stacks; i++) {
        const struct xu_stack *s = &p->stacks[i].s;
        uint64_t h = stack_hash(s->vcpu, s->state, s->end, s->pcs, s->depth);

        for (j = h & (n - 1); slots[j] != EMPTY_SLOT; j = (j + 1) & (n - 1))
            ;
        slots[j] = slot_value(p, i, h);
    }
    free(p->slots);
    p->slots = slots;
    p->nr_slots = n;
    return 0;
}

int xu_profile_add(struct xu_profile *p, uint32_t vcpu, const uint64_t *pcs,
                   uint32_t depth, enum xu_walk_end end, uint64_t count)
{
    return xu_profile_add_state(p, vcpu, XU_VSTATE_UNKNOWN, pcs, depth, end, count, 0);
}

int xu_profile_add_state(struct xu_profile *p, uint32_t vcpu, enum xu_vstate state,
                         const uint64_t *pcs, uint32_t depth, enum xu_walk_end end,
                         uint64_t count, uint64_t cpu_ns)
{
    uint64_t h;
    size_t j;
    struct stack_rec *rec;
    uint64_t *copy;

    if (depth == 0 || depth > XU_MAX_DEPTH_LIMIT || (unsigned)end >= XU_WALK__COUNT ||
        (unsigned)state >= XU_VSTATE__COUNT)
        return -EINVAL;
    if (p->ends_changed || p->sealed)
        return -EPERM;
    /* the one bound that keeps every later sum of counts exact */
    if (count > XU_PROFILE_MAX_SAMPLES - p->totals.samples ||
        cpu_ns > XU_PROFILE_MAX_CPU_NS - p->totals.cpu_ns)
        return -EOVERFLOW;
    h = stack_hash(vcpu, state, end, pcs, depth);
    for (j = h & (p->nr_slots - 1); p->slots[j] != EMPTY_SLOT; j = (j + 1) & (p->nr_slots - 1)) {
        if ((p->slots[j] ^ (uint32_t)(h >> 32)) & p->tag_mask)
            continue;
        rec = &p->stacks[p->slots[j] & ~p->tag_mask];
        if (rec->s.pcs[0] == pcs[0] && rec->s.vcpu == vcpu && rec->s.end == end &&
            rec->s.state == state && rec->s.depth == depth &&
            memcmp(rec->s.pcs, pcs, depth * sizeof(*pcs)) == 0) {
            rec->s.count += count;
            rec->s.cpu_ns += cpu_ns;
            goto counted;
        }
    }

    if (p->nr_stacks >= p->max_stacks) {
        p->totals.dropped += count;
        goto counted;
    }
    /* keep the load factor under 1/2 so probe sequences stay short and a
     * free slot always exists */
    if ((p->nr_stacks + 1) * 2 > p->nr_slots) {
        if (grow_slots(p) < 0)
            return -ENOMEM;
        for (j = h & (p->nr_slots - 1); p->slots[j] != EMPTY_SLOT; j = (j + 1) & (p->nr_slots - 1))
            ;
    }
    if (p->nr_stacks == p->cap_stacks) {
        size_t cap = p->cap_stacks ? p->cap_stacks * 2 : 256;
        struct stack_rec *s = realloc(p->stacks, cap * sizeof(*s));
        if (!s)
            return -ENOMEM;
        p->stacks = s;
        p->cap_stacks = cap;
    }
    copy = arena_alloc(p, depth);
    if (!copy)
        return -ENOMEM;
    memcpy(copy, pcs, depth * sizeof(*pcs));
    rec = &p->stacks[p->nr_stacks];
    rec->s.vcpu = vcpu;
    rec->s.depth = depth;
    rec->s.end = end;
    rec->s.state = state;
    rec->s.count = count;
    rec->s.cpu_ns = cpu_ns;
    rec->s.pcs = copy;
    p->slots[j] = slot_value(p, p->nr_stacks, h);
    p->nr_stacks++;
    p->totals.stacks = p->nr_stacks;

counted:
    p->totals.samples += count;
    p->totals.by_end[end] += count;
    p->totals.by_state[state] += count;
    p->totals.cpu_ns += cpu_ns;
    if (vcpu > p->totals.max_vcpu)
        p->totals.max_vcpu = vcpu;
    return 0;
}

void xu_profile_seal(struct xu_profile *p)
{
    free(p->slots);
    p->slots = NULL;
    p->nr_slots = 0;
    p->sealed = true;
}

void xu_profile_get_totals(const struct xu_profile *p, struct xu_profile_totals *out)
{
    *out = p->totals;
}

size_t xu_profile_nr_stacks(const struct xu_profile *p)
{
    return p->nr_stacks;
}

const struct xu_stack *xu_profile_stack(const struct xu_profile *p, size_t i)
{
    return i < p->nr_stacks ? &p->stacks[i].s : NULL;
}

void xu_profile_incomplete_reasons(const struct xu_profile_totals *t, char *buf, size_t size)
{
    bool used[XU_WALK__COUNT] = { false };
    size_t len = 0;
    unsigned int k, e, best;

    if (size)
        buf[0] = '\0';
    for (k = 0; k < 3 && t->samples; k++) {
        best = XU_WALK__COUNT;
        for (e = 0; e < XU_WALK__COUNT; e++)
            if (!used[e] && !xu_walk_complete((enum xu_walk_end)e) && t->by_end[e] &&
                (best == XU_WALK__COUNT || t->by_end[e] > t->by_end[best]))
                best = e;
        if (best == XU_WALK__COUNT || len >= size)
            break;
        used[best] = true;
        len += (size_t)snprintf(buf + len, size - len, "%s%s %.1f%%", k ? ", " : "",
                                xu_walk_end_name((enum xu_walk_end)best),
                                100.0 * (double)t->by_end[best] / (double)t->samples);
    }
}

void xu_profile_set_end(struct xu_profile *p, size_t i, enum xu_walk_end end)
{
    struct xu_stack *s;

    if (i >= p->nr_stacks || (unsigned)end >= XU_WALK__COUNT)
        return;
    s = &p->stacks[i].s;
    p->totals.by_end[s->end] -= s->count;
    p->totals.by_end[end] += s->count;
    s->end = end;
    p->ends_changed = true;
}

/*
 * The distinct addresses of a profile: an open-addressing set in one array
 * of addresses, 0 marking a free slot (the address 0 itself is kept apart),
 * at most 3/4 full (a prefix-free profile has millions of distinct
 * addresses: half full, the set alone was 128 MiB for five million).  One array, not addresses and "used" flags side by
 * side: every frame of every stack is looked up here, and a second array
 * was a second cache miss a frame.
 */
struct addr_set {
    uint64_t *slots;
    unsigned int bits;          /* 1 << bits slots */
    size_t n;                   /* in slots (0 not counted) */
    bool has_zero;
};

static size_t set_slot(uint64_t a, unsigned int bits)
{
    return (size_t)((a * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

static void set_put(uint64_t *slots, unsigned int bits, uint64_t a)
{
    size_t mask = ((size_t)1 << bits) - 1, j;

    for (j = set_slot(a, bits); slots[j]; j = (j + 1) & mask)
        ;
    slots[j] = a;
}

static int set_grow(struct addr_set *set)
{
    size_t cap = (size_t)1 << set->bits, i;
    uint64_t *slots;

    if (set->bits >= 40 || !(slots = xu_big_alloc(cap * 2 * sizeof(*slots))))
        return -ENOMEM;
    memset(slots, 0, cap * 2 * sizeof(*slots));
    for (i = 0; i < cap; i++)
        if (set->slots[i])
            set_put(slots, set->bits + 1, set->slots[i]);
    free(set->slots);
    set->slots = slots;
    set->bits++;
    return 0;
}

static int set_add(struct addr_set *set, uint64_t a)
{
    size_t mask = ((size_t)1 << set->bits) - 1, j;

    if (a == 0) {
        set->has_zero = true;
        return 0;
    }
    for (j = set_slot(a, set->bits); set->slots[j]; j = (j + 1) & mask)
        if (set->slots[j] == a)
            return 0;
    set->slots[j] = a;
    /* keep it at most 3/4 full: probes stay short and a free slot exists */
    if (++set->n * 4 > (mask + 1) * 3)
        return set_grow(set);
    return 0;
}

/*
 * Distinct addresses first, then one sort of the distinct ones: profiles
 * repeat the same return addresses in most stacks, so sorting every frame
 * would waste most of the work.  The set grows with the distinct addresses,
 * not with the frames: a set sized for every frame (20 million for a
 * million 20-deep samples) cost 576 MiB of address space and a page fault
 * per distinct address (the worst case of the offline benchmark).
 */
long xu_profile_unique_addrs(const struct xu_profile *p, uint64_t **out)
{
    struct addr_set set = { .bits = 10 };
    uint64_t *addrs = NULL;
    size_t i, n = 0;
    uint32_t k;
    long rc;

    *out = NULL;
    set.slots = calloc((size_t)1 << set.bits, sizeof(*set.slots));
    if (!set.slots) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < p->nr_stacks; i++) {
        const struct xu_stack *s = &p->stacks[i].s;

        /* a stack's frames asked for at once: their cache misses overlap
         * (a frame's first probe misses when addresses are millions) */
        for (k = 0; k < s->depth; k++)
            __builtin_prefetch(&set.slots[set_slot(xu_stack_lookup_addr(s, k), set.bits)]);
        for (k = 0; k < s->depth; k++) {
            if (set_add(&set, xu_stack_lookup_addr(s, k)) < 0) {
                rc = -ENOMEM;
                goto out;
            }
        }
    }
    /* the set's own array becomes the sorted list: no second array (and
     * at most 3/4 full, it has room for the address 0 after the others) */
    for (i = 0; i < (size_t)1 << set.bits; i++)
        if (set.slots[i])
            set.slots[n++] = set.slots[i];
    if (set.has_zero)
        set.slots[n++] = 0;
    xu_sort_u64(set.slots, n);
    addrs = set.slots;
    set.slots = NULL;
    /* a smaller block: shrinking may fail and leave it as it is */
    if (n && (set.slots = realloc(addrs, n * sizeof(*addrs))) != NULL)
        addrs = set.slots;
    set.slots = NULL;
    *out = addrs;
    addrs = NULL;
    rc = (long)n;
out:
    free(addrs);
    free(set.slots);
    return rc;
}
