/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_mem.h - reading guest-virtual memory through the guest's page tables.
 *
 * The guest is untrusted: its page tables are walked by us, entry by entry,
 * with every level checked (present, reserved bits, frame within the
 * physical-address width), and every walk is bounded by the number of
 * levels.  Nothing the guest writes can make a read loop or allocate.
 *
 * Two bounded caches keep the paused window short:
 *  - mapped frames (frame number -> host pointer), kept across samples and
 *    evicted least-recently-used; at most cfg.max_frames mappings exist.
 *  - translations (page-table root, virtual page) -> frame, a direct-mapped
 *    table flushed by xu_mem_begin(), i.e. once per sample, because the guest
 *    runs (and may change its page tables) between samples.
 * Neither cache grows, however long the run or however hostile the guest.
 */
#ifndef XU_MEM_H
#define XU_MEM_H

#include <stdint.h>
#include <stddef.h>

#include "arch/xu_arch.h"
#include "target/xu_target.h"

struct xu_mem;

struct xu_mem_config {
    unsigned int max_frames;        /* mapped-frame cache size; 0 = default (1024) */
    unsigned int tlb_entries;       /* translation cache slots; 0 = default (256), power of 2 */
};

struct xu_mem_stats {
    uint64_t frame_hits, frame_misses, frame_evictions, map_failures;
    uint64_t tlb_hits, tlb_misses;
    uint64_t walks, walk_faults;    /* page walks done, and those that failed */
    unsigned int frames_mapped;     /* now */
};


/* NULL with errno on allocation failure.  cfg may be NULL for defaults. */
struct xu_mem *xu_mem_new(struct xu_target *t, const struct xu_mem_config *cfg);
/* Unmaps everything it mapped. */
void xu_mem_free(struct xu_mem *m);

/* Start a new sample: forget all translations (mappings are kept). */
void xu_mem_begin(struct xu_mem *m);

/* Select the address space of the vCPU whose stack is about to be read. */
void xu_mem_set_context(struct xu_mem *m, const struct xu_vcpu_regs *regs);

/*
 * Translate va in the current context to a frame number and offset.
 * Returns XU_MEM_OK or a fault.
 */
enum xu_mem_fault xu_mem_translate(struct xu_mem *m, uint64_t va, uint64_t *frame);

/*
 * Copy len bytes at va into buf, crossing page boundaries as needed.
 * Returns 0 or -(enum xu_mem_fault).  No allocation, no syscalls on cache hits.
 */
int xu_mem_read(struct xu_mem *m, uint64_t va, void *buf, size_t len);

/* Read one little-endian 64-bit word; va must not need to be aligned. */
int xu_mem_read_u64(struct xu_mem *m, uint64_t va, uint64_t *out);

/*
 * Stack words of the guest's width (its architecture's word_bytes: 8 or
 * 4), little-endian, each zero-extended into out[i]; n at most
 * XU_MEM_MAX_WORDS.  0 or -(enum xu_mem_fault).
 */
#define XU_MEM_MAX_WORDS 64
int xu_mem_read_words(struct xu_mem *m, uint64_t va, uint64_t *out, unsigned int n);
static inline int xu_mem_read_word(struct xu_mem *m, uint64_t va, uint64_t *out)
{
    return xu_mem_read_words(m, va, out, 1);
}

/* The architecture whose page tables and frames this reads. */
const struct xu_arch_ops *xu_mem_arch(const struct xu_mem *m);

/* The code selector (x86 CS) of the context's vCPU when it was stopped in
 * its kernel, 0 otherwise or where there is none. */
uint16_t xu_mem_code_selector(const struct xu_mem *m);

void xu_mem_get_stats(const struct xu_mem *m, struct xu_mem_stats *out);

#endif
