/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kaslr.c - the slides a relocated kernel's vCPU points at (xu_kaslr.h):
 * read from the registers it holds, checked for alignment and range here,
 * confirmed against guest memory by elf_match.c.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "symbols/xu_kaslr.h"

/* An x86-64 gate descriptor: 16 bytes, the handler's offset in three parts. */
#define GATE_SIZE 16
#define GATE_PRESENT 0x80u
#define GATE_TYPE_MASK 0x0fu
#define GATE_INTERRUPT 0x0eu
#define GATE_TRAP 0x0fu
#define VECTOR_DIVIDE_ERROR 0

/* Names kernels have given the anchors, newest first. */
static const char *const syscall_names[] = { "entry_SYSCALL_64", NULL };
static const char *const divide_names[] = { "asm_exc_divide_error", "divide_error", NULL };

static uint64_t find_any(const struct xu_symtab *st, const char *const *names)
{
    const struct xu_symbol *s;

    for (; *names; names++)
        if ((s = xu_symtab_find(st, *names)) && s->start)
            return s->start;
    return 0;
}

void xu_kaslr_anchors_from(const struct xu_symtab *st, uint64_t text_lo, uint64_t text_hi,
                           struct xu_kaslr_anchors *out)
{
    memset(out, 0, sizeof(*out));
    if (!st || text_hi <= text_lo)
        return;
    out->syscall_entry = find_any(st, syscall_names);
    out->divide_error = find_any(st, divide_names);
    out->text_lo = text_lo;
    out->text_hi = text_hi;
}

bool xu_kaslr_has_anchors(const struct xu_kaslr_anchors *a)
{
    return a->syscall_entry || a->divide_error;
}

bool xu_kaslr_slide_valid(const struct xu_kaslr_anchors *a, int64_t slide)
{
    uint64_t lo = a->text_lo + (uint64_t)slide, hi = a->text_hi + (uint64_t)slide;

    if (a->text_hi <= a->text_lo || (uint64_t)slide % XU_KASLR_X86_ALIGN != 0)
        return false;
    /* the image itself must be in the window, and stay there slid (the
     * sums wrap for a slide that would carry it out of the address space) */
    if (a->text_lo < XU_KASLR_X86_WINDOW_LO || a->text_hi > XU_KASLR_X86_WINDOW_HI)
        return false;
    return lo >= XU_KASLR_X86_WINDOW_LO && hi <= XU_KASLR_X86_WINDOW_HI && lo < hi;
}

const char *xu_kaslr_source_name(enum xu_kaslr_source s)
{
    switch (s) {
    case XU_KASLR_FROM_SYSCALL: return "MSR_LSTAR (entry_SYSCALL_64)";
    case XU_KASLR_FROM_IDT:     return "the IDT's divide-error gate (asm_exc_divide_error)";
    case XU_KASLR_NONE:         break;
    }
    return "none";
}

/* The divide-error handler the IDT names, or 0 (unreadable, not a gate). */
static uint64_t idt_handler(const struct xu_vcpu_regs *regs, struct xu_mem *m)
{
    uint8_t g[GATE_SIZE];
    uint8_t type;

    if (!regs->idt_base || !m ||
        xu_mem_read(m, regs->idt_base + VECTOR_DIVIDE_ERROR * GATE_SIZE, g, sizeof(g)) < 0)
        return 0;
    type = g[5] & GATE_TYPE_MASK;
    if (!(g[5] & GATE_PRESENT) || (type != GATE_INTERRUPT && type != GATE_TRAP))
        return 0;
    return (uint64_t)g[0] | (uint64_t)g[1] << 8 | (uint64_t)g[6] << 16 | (uint64_t)g[7] << 24 |
           (uint64_t)g[8] << 32 | (uint64_t)g[9] << 40 | (uint64_t)g[10] << 48 |
           (uint64_t)g[11] << 56;
}

/* Add runtime - link when it is a slide the kernel can have and not yet listed. */
static void consider(const struct xu_kaslr_anchors *a, uint64_t runtime, uint64_t link,
                     enum xu_kaslr_source src, struct xu_kaslr_candidate *out, unsigned int *n,
                     unsigned int *rejected)
{
    int64_t slide = (int64_t)(runtime - link);
    unsigned int i;

    if (!runtime || !link)
        return;
    if (!xu_kaslr_slide_valid(a, slide)) {
        (*rejected)++;
        return;
    }
    for (i = 0; i < *n; i++)
        if (out[i].slide == slide)
            return;
    if (*n < XU_KASLR_MAX_CANDIDATES)
        out[(*n)++] = (struct xu_kaslr_candidate){ .slide = slide, .source = src,
                                                   .runtime = runtime };
}

unsigned int xu_kaslr_candidates(const struct xu_kaslr_anchors *a,
                                 const struct xu_vcpu_regs *regs, struct xu_mem *m,
                                 struct xu_kaslr_candidate *out, unsigned int *rejected)
{
    unsigned int n = 0;

    *rejected = 0;
    if (!xu_kaslr_has_anchors(a) || !regs->online)
        return 0;
    consider(a, regs->syscall_entry, a->syscall_entry, XU_KASLR_FROM_SYSCALL, out, &n, rejected);
    if (a->divide_error)
        consider(a, idt_handler(regs, m), a->divide_error, XU_KASLR_FROM_IDT, out, &n,
                 rejected);
    return n;
}
