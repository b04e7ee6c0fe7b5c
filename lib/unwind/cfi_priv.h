/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_priv.h - the compiled CFI table and its builder, shared by the table
 * (cfi_table.c), the libdw reader (cfi_build.c) and the walk (unwind_cfi.c).
 *
 * Layout: entry i covers [base + e[i].start, base + e[i + 1].start) and
 * unwinds by rules[e[i].rule].  A 32-bit start and a 16-bit rule index keep
 * an entry at 6 bytes, the index next to the start the search compared, in
 * the same cache line; the last entry is a NONE marker where covered code
 * ends.  rules[0] is NONE and rules[1] UNKNOWN, so a lookup never needs a
 * special case.
 *
 * A binary search over a large table costs a cache miss per step, which
 * would make a deep CFI walk several times slower than a frame-pointer
 * walk.  So a page index narrows it first: page_index[p] is the entry that
 * covers offset p << page_shift, hence every entry of page p lies in
 * [page_index[p], page_index[p + 1]].  Pages are sized for about two
 * entries each, so the search stays within a cache line; the index costs
 * about 2 bytes per entry and never more than CFI_MAX_PAGES slots.
 */
#ifndef CFI_PRIV_H
#define CFI_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unwind/xu_cfi.h"

#define CFI_F_CFA_FP    0x01u   /* CFA from fp, else sp */
#define CFI_F_RA_UNDEF  0x02u   /* outermost frame */
#define CFI_F_FP_AT     0x04u   /* caller's fp saved at CFA + fp_off */
#define CFI_F_FP_UNDEF  0x08u   /* caller's fp unknown */
#define CFI_F_SP_AT     0x10u   /* caller's sp loaded from CFA + sp_off */
#define CFI_F_SIGNAL    0x20u   /* signal frame: the caller's pc is exact */
#define CFI_F_RA_LINK   0x40u   /* return address still in the link register */

#define CFI_RULE_NONE    0u
#define CFI_RULE_UNKNOWN 1u

/* 12 bytes, no padding: rules are compared and hashed as bytes. */
struct cfi_rule {
    int32_t cfa_off;
    int16_t ra_off, fp_off, sp_off;
    uint8_t kind;               /* enum xu_cfi_kind */
    uint8_t flags;              /* CFI_F_* */
};

/* packed: 6 bytes; x86-64 reads the unaligned start at no extra cost */
struct cfi_entry {
    uint32_t start;             /* offset from the table's base */
    uint16_t rule;              /* index into rules */
} __attribute__((packed));

struct xu_cfi_table {
    uint64_t base;
    size_t n;
    struct cfi_entry *e;
    struct cfi_rule *rules;
    size_t nrules;
    uint32_t *page_index;       /* npages + 1 entries */
    size_t npages;
    unsigned int page_shift;
    struct xu_cfi_stats stats;
};

#define CFI_MAX_PAGES (1u << 22)

/* The rule for addr: the page index, then a short binary search; no allocation. */
static inline const struct cfi_rule *cfi_find(const struct xu_cfi_table *t, uint64_t addr)
{
    const struct cfi_entry *e = t->e;
    uint64_t off = addr - t->base;
    size_t lo, len, page;

    /* the last entry is the NONE marker where covered code ends */
    if (t->n == 0 || addr < t->base || off >= e[t->n - 1].start)
        return &t->rules[CFI_RULE_NONE];
    page = (size_t)(off >> t->page_shift);
    lo = t->page_index[page];
    len = (size_t)t->page_index[page + 1] - lo + 1;
    if ((uint32_t)off < e[lo].start)
        return &t->rules[CFI_RULE_NONE];    /* below the first entry */
    /* invariant: e[lo].start <= off, and the answer lies in [lo, lo + len) */
    while (len > 1) {
        size_t half = len / 2;

        if (e[lo + half].start <= (uint32_t)off)
            lo += half;
        len -= half;
    }
    return &t->rules[e[lo].rule];
}

/*
 * Rows are added in order of start; whatever of a row lies below the end
 * of the previous one is dropped (the first FDE to cover an address wins).
 * Adjacent rows with equal rules merge; gaps become NONE entries.
 */
struct cfi_builder {
    struct xu_cfi_table *t;
    size_t cap, max_rows;
    uint64_t span;              /* offsets are <= span <= UINT32_MAX */
    uint64_t cursor;            /* end offset of the last row added */
    bool started;
    uint32_t *hash;             /* rule index + 1 per slot, 0 = empty */
    size_t hash_size;
};

int cfi_builder_init(struct cfi_builder *b, uint64_t base, uint64_t span, size_t max_rows);
/* 0, 1 when the table is full (the row was not added), or -ENOMEM. */
int cfi_builder_add(struct cfi_builder *b, uint64_t start, uint64_t end,
                    const struct xu_cfi_row *row);
/* The finished table (the builder is left empty), or NULL with errno. */
struct xu_cfi_table *cfi_builder_finish(struct cfi_builder *b);
void cfi_builder_dispose(struct cfi_builder *b);

void cfi_rule_unpack(const struct cfi_rule *r, struct xu_cfi_row *out);

/*
 * Registers a CFI program may name (DWARF numbers): x86-64 uses 0..130,
 * arm64 0..127 and its SVE registers up to 127 too.  libdw sizes a frame's
 * register array by the highest register a program names, so a hostile
 * "DW_CFA_offset_extended 100000000" would have it allocate gigabytes.
 */
#define CFI_MAX_DWARF_REG 1023u

/*
 * Whether the CFI program [p, end) decodes cleanly and names no register
 * above CFI_MAX_DWARF_REG.  addr_enc is the DW_EH_PE_* encoding of
 * DW_CFA_set_loc's operand (the FDE's pointer encoding).
 */
bool cfi_program_ok(const uint8_t *p, const uint8_t *end, uint8_t addr_enc);

/* One LEB128 number at *pp, advanced past it; 0, or -1 when it does not fit. */
int cfi_read_leb(const uint8_t **pp, const uint8_t *end, bool sign, uint64_t *out);

/*
 * One DW_EH_PE_* encoded value at *pp, advanced past it; 0 or -1.  With
 * apply, the application is added: pcrel the field's own ELF address
 * (field_addr), datarel *datarel (NULL: not accepted); textrel, funcrel,
 * aligned and indirect values are refused.
 */
int cfi_read_encoded(uint8_t enc, bool apply, const uint8_t **pp, const uint8_t *end,
                     uint64_t field_addr, const uint64_t *datarel, uint64_t *out);

#endif
