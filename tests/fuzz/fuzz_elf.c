/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_elf.c - a hostile ELF file: symbols, the symboliser, CFI building,
 * choosing the ELF and matching it against a guest.
 *
 * The input is the file.  It is read the ways the tool reads an ELF it is
 * given: xu_symtab_open (by path: the harness keeps the input in a memfd),
 * lookups and the symboliser over addresses taken from the file's own
 * symbols and a sweep (with the inlined functions and lines of its DWARF),
 * xu_cfi_from_memory with a small row cap and lookups
 * in the table, xu_elf_code_open (an x86 kernel's .altinstructions with it)
 * with the entries Xen's notes name and the
 * vouching of stacks that end there, xu_elf_find with the file as --elf,
 * and xu_elf_match_check against a small simulated guest; the slides of a
 * relocated kernel (xu_kaslr.h) read against the file's symbols, with the
 * vCPU's syscall entry and IDT gate taken from the input's last 24 bytes
 * (past what an ELF's headers place), and the symbols and code moved by
 * them and back.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim_guest.h"
#include "mem/xu_mem.h"
#include "symbols/xu_elf_find.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_symbols.h"
#include "symbols/xu_vouch.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif

struct guest {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_vcpu_regs regs;
};

/* The guest the file is matched against: built once, never changed. */
static struct guest *guest(void)
{
    static struct guest gs;
    static int state;   /* 0 not built, 1 ready, -1 failed */
    static const uint64_t pcs[] = { SIM_TEXT_BASE + 0x10, SIM_TEXT_BASE + 0x40 };

    if (state == 0) {
        state = -1;
        if (sim_guest_init(&gs.g, XU_GUEST_PVH, 1, 256) == 0 &&
            xu_sim_target_open(gs.g.sim, &gs.t, xu_fuzz_log()) == 0 &&
            (gs.m = xu_mem_new(&gs.t, NULL)) &&
            sim_guest_chain(&gs.g, 0, pcs, 2, &gs.regs) == 0)
            state = 1;
    }
    return state == 1 ? &gs : NULL;
}

static void symbols(const char *path)
{
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    uint64_t addrs[64];
    size_t n = 0, i;
    const struct xu_symbol *sym;

    if (xu_symtab_open(path, xu_fuzz_log(), &st) < 0)
        return;
    xu_symtab_count(st);
    /* a sweep of low and kernel addresses; around each symbol found, its
     * start, its end and the byte before it */
    for (i = 0; n < 64; i++) {
        uint64_t a = (uint64_t)i * 0x1000 + (i & 7);

        addrs[n++] = i & 1 ? a : SIM_TEXT_BASE + a;
    }
    for (i = 0; i < n; i++) {
        sym = xu_symtab_lookup(st, addrs[i]);
        if (sym) {
            xu_symtab_find(st, sym->name);
            xu_symtab_lookup(st, sym->start + sym->size);
            xu_symtab_lookup(st, sym->start - 1);
        }
    }
    xu_symtab_build_id(st, &i);
    xu_symtab_machine(st);
    /* the symboliser wants its addresses sorted and unique */
    for (i = 1; i < n; i++) {
        uint64_t v = addrs[i];
        size_t j = i;

        while (j > 0 && addrs[j - 1] > v) {
            addrs[j] = addrs[j - 1];
            j--;
        }
        addrs[j] = v;
    }
    sz = xu_symbolizer_new_dwarf(st, addrs, n, XU_SYMBOLIZER_INLINE, path, xu_fuzz_log());
    if (sz) {
        const struct xu_frame_line *l;

        for (i = 0; i < n; i++) {
            xu_symbolizer_name(sz, addrs[i], &sym);
            xu_symbolizer_frames(sz, addrs[i], &l);
        }
        xu_symbolizer_free(sz);
    }
    xu_symtab_free(st);
}

static void cfi(const uint8_t *data, size_t size)
{
#ifdef HAVE_LIBDW
    struct xu_cfi_config cfg = { .max_rows = 4096, .max_work = 1u << 20 };
    struct xu_cfi_table *t = NULL;
    struct xu_cfi_stats stats;
    struct xu_cfi_row r;
    unsigned int i;

    if (xu_cfi_from_memory(data, size, &cfg, xu_fuzz_log(), &t) < 0)
        return;
    xu_cfi_get_stats(t, &stats);
    for (i = 0; i < 256; i++)
        xu_cfi_lookup(t, 0x400000 + (uint64_t)i * 0x40, &r);
    xu_cfi_lookup(t, 0, &r);
    xu_cfi_lookup(t, UINT64_MAX, &r);
    xu_cfi_free(t);
#else
    (void)data;
    (void)size;
#endif
}

/* The code and the entries Xen's notes or __xen_guest name, with the
 * vouching that uses them against the symbols. */
static void code(const char *path)
{
    uint64_t entries[XU_ELF_CODE_MAX_ENTRIES], pcs[2];
    struct xu_elf_code *c = NULL;
    struct xu_symtab *st = NULL;
    struct xu_profile *p;
    unsigned int n, i;
    double share;

    if (xu_elf_code_open(path, xu_fuzz_log(), &c) < 0)
        return;
    n = xu_elf_code_entries(c, entries);
    xu_symtab_open(path, xu_fuzz_log(), &st);
    p = xu_profile_new(0);
    for (i = 0; p && i < n; i++) {
        const struct xu_vouch v = { st, c, &xu_arch_x86_64, NULL };

        pcs[0] = entries[i] + 3;
        pcs[1] = entries[i] + 16;
        xu_elf_code_patched_call(c, pcs[1]);
        xu_profile_add(p, 0, pcs, 2, XU_WALK_COMPLETE, 1);
        xu_profile_add(p, 0, pcs, 1, XU_WALK_COMPLETE, 1);
        xu_vouch_profile(p, &v);
        xu_vouch_outermost_not_root(p, st, &share);
        xu_profile_free(p);
        p = xu_profile_new(0);
    }
    xu_profile_free(p);
    if (st)
        xu_symtab_free(st);
    xu_elf_code_free(c);
}

static void find_and_match(const char *path)
{
    struct xu_elf_find_config cfg = { .elf = path, .debug_root = "/nonexistent" };
    struct xu_elf_choice c;
    struct xu_elf_match mr;
    struct guest *g = guest();

    xu_elf_choice_init(&c);
    xu_elf_find(&cfg, xu_fuzz_log(), &c);
    xu_elf_choice_dispose(&c);
    if (!g)
        return;
    xu_mem_begin(g->m);
    xu_mem_set_context(g->m, &g->regs);
    xu_elf_match_check(path, NULL, g->m, xu_fuzz_log(), &mr);
}

/* A page of the guest's stack area serves as the IDT the input fills. */
#define FUZZ_IDT (SIM_STACK_BASE + 0x1000)

static void kaslr(const char *path, const uint8_t *data, size_t size)
{
    struct xu_kaslr_candidate cand[XU_KASLR_MAX_CANDIDATES];
    struct xu_kaslr_anchors a;
    struct xu_symtab *st = NULL;
    struct xu_elf_code *c = NULL;
    struct xu_vcpu_regs regs;
    struct guest *g = guest();
    unsigned int n, i, rejected;

    if (!g || size < 24 || xu_symtab_open(path, xu_fuzz_log(), &st) < 0)
        return;
    regs = g->regs;
    memcpy(&regs.syscall_entry, data + size - 24, 8);
    regs.idt_base = FUZZ_IDT;
    xu_sim_write(g->g.sim, g->g.root, FUZZ_IDT, data + size - 16, 16);
    xu_kaslr_anchors_from(st, XU_KASLR_X86_WINDOW_LO + 0x1000000, XU_KASLR_X86_WINDOW_LO +
                          0x2000000, &a);
    xu_mem_begin(g->m);
    xu_mem_set_context(g->m, &regs);
    n = xu_kaslr_candidates(&a, &regs, g->m, cand, &rejected);
    xu_elf_code_open(path, xu_fuzz_log(), &c);
    for (i = 0; i < n; i++) {
        if (xu_symtab_relocate(st, cand[i].slide) == 0) {
            xu_symtab_lookup(st, cand[i].runtime);
            xu_symtab_relocate(st, -cand[i].slide);
        }
        if (c && xu_elf_code_relocate(c, cand[i].slide) == 0)
            xu_elf_code_relocate(c, -cand[i].slide);
    }
    xu_elf_code_free(c);
    xu_symtab_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = xu_fuzz_as_file(data, size);

    if (!path)
        return 0;
    symbols(path);
    cfi(data, size);
    code(path);
    find_and_match(path);
    kaslr(path, data, size);
    return 0;
}
