/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mem.c - guest-virtual reads: the guest architecture's page walk over bounded caches.
 *
 * Mapped frames: a chained hash (frame -> entry) over a fixed pool of
 * max_frames entries, with an LRU list for eviction.  Mapping a frame is a
 * system call and a hypercall, so this cache is what makes a sample cheap;
 * it persists across samples.  Page-table frames and stack frames share it.
 *
 * Translations: a direct-mapped TLB keyed by (address space, virtual
 * page), invalidated in O(1) by bumping an epoch at the start of every
 * sample, because the guest may remap memory while it runs.  Within one
 * sample (the guest is paused) translations cannot change.
 *
 * In front of both, the page of the last read: a frame walk reads word
 * after word from one or two stack pages, and answering those from one
 * remembered (address space, virtual page) -> host pointer skips the
 * TLB and frame-hash lookups (a third of the software cost of a sample on
 * the simulated target).  It is forgotten with the TLB (each
 * sample), on a context switch, and when its frame is evicted.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mem/xu_mem.h"

#define DEFAULT_MAX_FRAMES 1024
#define DEFAULT_TLB_ENTRIES 256
#define NIL UINT32_MAX

struct frame_ent {
    uint64_t frame;
    const void *ptr;
    uint32_t hnext;             /* hash chain */
    uint32_t lru_prev, lru_next;
};

struct tlb_ent {
    uint64_t root, vpage, frame;
    uint64_t epoch;             /* valid when equal to xu_mem.epoch */
};

struct xu_mem {
    struct xu_target *t;
    /* frame cache */
    struct frame_ent *ents;
    uint32_t nr_ents, max_ents;
    uint32_t *buckets;
    uint32_t nr_buckets;        /* power of two */
    uint32_t lru_head, lru_tail;/* head = most recently used */
    uint32_t last;              /* one-entry fast path */
    /* translation cache */
    struct tlb_ent *tlb;
    uint32_t tlb_mask;
    uint64_t epoch;
    /* the page of the last read, valid while hot_epoch == epoch */
    uint64_t hot_vpage, hot_epoch;
    const uint8_t *hot_ptr;
    /* current address space: the vCPU's MMU state and its cache key */
    const struct xu_arch_ops *arch;
    struct xu_mmu mmu;
    uint64_t root;
    uint16_t code_sel;          /* the vCPU's kernel code selector, 0: not known */
    struct xu_mem_stats st;
};

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t p = 1;

    while (p < n && p < (1u << 30))
        p <<= 1;
    return p;
}

struct xu_mem *xu_mem_new(struct xu_target *t, const struct xu_mem_config *cfg)
{
    struct xu_mem *m = calloc(1, sizeof(*m));
    uint32_t max = cfg && cfg->max_frames ? cfg->max_frames : DEFAULT_MAX_FRAMES;
    uint32_t tlb = pow2_at_least(cfg && cfg->tlb_entries ? cfg->tlb_entries : DEFAULT_TLB_ENTRIES);

    if (!m)
        return NULL;
    m->t = t;
    m->max_ents = max;
    m->nr_buckets = pow2_at_least(max * 2);
    m->ents = calloc(max, sizeof(*m->ents));
    m->buckets = malloc(m->nr_buckets * sizeof(*m->buckets));
    m->tlb = calloc(tlb, sizeof(*m->tlb));
    if (!m->ents || !m->buckets || !m->tlb) {
        xu_mem_free(m);
        errno = ENOMEM;
        return NULL;
    }
    memset(m->buckets, 0xff, m->nr_buckets * sizeof(*m->buckets));
    m->tlb_mask = tlb - 1;
    m->lru_head = m->lru_tail = m->last = NIL;
    m->epoch = 1;   /* zeroed TLB entries (epoch 0) are never valid */
    m->arch = t->arch;
    return m;
}

void xu_mem_free(struct xu_mem *m)
{
    uint32_t i;

    if (!m)
        return;
    if (m->ents)
        for (i = 0; i < m->nr_ents; i++)
            m->t->ops->unmap_frame(m->t, m->ents[i].ptr);
    free(m->ents);
    free(m->buckets);
    free(m->tlb);
    free(m);
}

void xu_mem_begin(struct xu_mem *m)
{
    m->epoch++;
}

void xu_mem_set_context(struct xu_mem *m, const struct xu_vcpu_regs *regs)
{
    m->mmu = regs->mmu;
    m->root = m->arch->space_key(&regs->mmu);
    m->code_sel = regs->kernel_mode ? regs->code_sel : 0;
    m->hot_epoch = 0;
}

static uint32_t bucket_of(const struct xu_mem *m, uint64_t frame)
{
    uint64_t h = frame * 0x9e3779b97f4a7c15ULL;

    return (uint32_t)(h >> 32) & (m->nr_buckets - 1);
}

static void lru_unlink(struct xu_mem *m, uint32_t i)
{
    struct frame_ent *e = &m->ents[i];

    if (e->lru_prev != NIL)
        m->ents[e->lru_prev].lru_next = e->lru_next;
    else
        m->lru_head = e->lru_next;
    if (e->lru_next != NIL)
        m->ents[e->lru_next].lru_prev = e->lru_prev;
    else
        m->lru_tail = e->lru_prev;
}

static void lru_push_front(struct xu_mem *m, uint32_t i)
{
    struct frame_ent *e = &m->ents[i];

    e->lru_prev = NIL;
    e->lru_next = m->lru_head;
    if (m->lru_head != NIL)
        m->ents[m->lru_head].lru_prev = i;
    m->lru_head = i;
    if (m->lru_tail == NIL)
        m->lru_tail = i;
}

/* Drop entry i from its hash chain (chains hold at most max_ents entries). */
static void hash_remove(struct xu_mem *m, uint32_t i)
{
    uint32_t *link = &m->buckets[bucket_of(m, m->ents[i].frame)];

    while (*link != NIL) {
        if (*link == i) {
            *link = m->ents[i].hnext;
            return;
        }
        link = &m->ents[*link].hnext;
    }
}

/* Host pointer to frame, mapping it (and evicting the LRU one) on a miss. */
static const uint8_t *get_frame(struct xu_mem *m, uint64_t frame)
{
    uint32_t i, b;
    const void *p;

    if (m->last != NIL && m->ents[m->last].frame == frame) {
        m->st.frame_hits++;
        return m->ents[m->last].ptr;
    }
    b = bucket_of(m, frame);
    for (i = m->buckets[b]; i != NIL; i = m->ents[i].hnext) {
        if (m->ents[i].frame == frame) {
            m->st.frame_hits++;
            if (m->lru_head != i) {
                lru_unlink(m, i);
                lru_push_front(m, i);
            }
            m->last = i;
            return m->ents[i].ptr;
        }
    }

    m->st.frame_misses++;
    p = m->t->ops->map_frame(m->t, frame);
    if (!p) {
        m->st.map_failures++;
        return NULL;
    }
    if (m->nr_ents < m->max_ents) {
        i = m->nr_ents++;
    } else {
        i = m->lru_tail;
        lru_unlink(m, i);
        hash_remove(m, i);
        m->t->ops->unmap_frame(m->t, m->ents[i].ptr);
        m->st.frame_evictions++;
        m->hot_epoch = 0;       /* it may have been the hot page */
    }
    m->ents[i].frame = frame;
    m->ents[i].ptr = p;
    m->ents[i].hnext = m->buckets[b];
    m->buckets[b] = i;
    lru_push_front(m, i);
    m->last = i;
    return p;
}

/* Page-table entries are read through the frame cache, like the stack. */
static enum xu_mem_fault read_pte(void *ctx, uint64_t addr, uint64_t *pte)
{
    struct xu_mem *m = ctx;
    const uint8_t *tp = get_frame(m, addr >> XU_PAGE_SHIFT);

    if (!tp)
        return XU_MEM_MAP_FAILED;
    memcpy(pte, tp + (addr & (XU_PAGE_SIZE - 1) & ~7ULL), sizeof(*pte));
    return XU_MEM_OK;
}

enum xu_mem_fault xu_mem_translate(struct xu_mem *m, uint64_t va, uint64_t *frame)
{
    uint64_t vpage = va >> XU_PAGE_SHIFT;
    struct tlb_ent *te = &m->tlb[(vpage ^ (vpage >> 9)) & m->tlb_mask];
    enum xu_mem_fault f;

    if (te->epoch == m->epoch && te->vpage == vpage && te->root == m->root) {
        m->st.tlb_hits++;
        *frame = te->frame;
        return XU_MEM_OK;
    }
    m->st.tlb_misses++;
    m->st.walks++;
    f = m->arch->translate(&m->mmu, va, read_pte, m, frame);
    if (f != XU_MEM_OK) {
        m->st.walk_faults++;
        return f;
    }
    te->epoch = m->epoch;
    te->vpage = vpage;
    te->root = m->root;
    te->frame = *frame;
    return XU_MEM_OK;
}

/*
 * Host pointer to the start of the page holding va, in the current context.
 * Counted as a TLB hit and a frame hit when it is the hot page, as the two
 * lookups it replaces would have been.
 */
static const uint8_t *page_ptr(struct xu_mem *m, uint64_t va, enum xu_mem_fault *f)
{
    uint64_t vpage = va >> XU_PAGE_SHIFT, frame;
    const uint8_t *p;

    if (m->hot_epoch == m->epoch && m->hot_vpage == vpage) {
        m->st.tlb_hits++;
        m->st.frame_hits++;
        return m->hot_ptr;
    }
    *f = xu_mem_translate(m, va, &frame);
    if (*f != XU_MEM_OK)
        return NULL;
    p = get_frame(m, frame);
    if (!p) {
        *f = XU_MEM_MAP_FAILED;
        return NULL;
    }
    m->hot_vpage = vpage;
    m->hot_ptr = p;
    m->hot_epoch = m->epoch;
    return p;
}

int xu_mem_read(struct xu_mem *m, uint64_t va, void *buf, size_t len)
{
    uint8_t *dst = buf;

    /* Each iteration consumes up to a page; len bounds the loop. */
    while (len) {
        size_t off = va & (XU_PAGE_SIZE - 1);
        size_t chunk = XU_PAGE_SIZE - off;
        enum xu_mem_fault f = XU_MEM_OK;
        const uint8_t *p = page_ptr(m, va, &f);

        if (!p)
            return -(int)f;
        if (chunk > len)
            chunk = len;
        memcpy(dst, p + off, chunk);
        dst += chunk;
        va += chunk;
        len -= chunk;
    }
    return 0;
}

int xu_mem_read_u64(struct xu_mem *m, uint64_t va, uint64_t *out)
{
    size_t off = va & (XU_PAGE_SIZE - 1);
    enum xu_mem_fault f = XU_MEM_OK;
    const uint8_t *p;

    if (off > XU_PAGE_SIZE - sizeof(*out))
        return xu_mem_read(m, va, out, sizeof(*out));
    p = page_ptr(m, va, &f);
    if (!p)
        return -(int)f;
    memcpy(out, p + off, sizeof(*out));
    return 0;
}

int xu_mem_read_words(struct xu_mem *m, uint64_t va, uint64_t *out, unsigned int n)
{
    uint32_t narrow[XU_MEM_MAX_WORDS];
    unsigned int i;
    int rc;

    if (n > XU_MEM_MAX_WORDS)
        return -(int)XU_MEM_UNSUPPORTED;
    if (m->arch->word_bytes == 8)
        return n == 1 ? xu_mem_read_u64(m, va, out) : xu_mem_read(m, va, out, n * 8ULL);
    rc = xu_mem_read(m, va, narrow, n * 4ULL);
    if (rc < 0)
        return rc;
    for (i = 0; i < n; i++)
        out[i] = narrow[i];
    return 0;
}

const struct xu_arch_ops *xu_mem_arch(const struct xu_mem *m)
{
    return m->arch;
}

uint16_t xu_mem_code_selector(const struct xu_mem *m)
{
    return m->code_sel;
}

void xu_mem_get_stats(const struct xu_mem *m, struct xu_mem_stats *out)
{
    *out = m->st;
    out->frames_mapped = m->nr_ents;
}
