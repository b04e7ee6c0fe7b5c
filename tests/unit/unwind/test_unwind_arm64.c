/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_arm64.c - unwinding an arm64 guest: AAPCS64 frame records
 * {x29, x30} on a stack mapped through arm64 tables in the simulated guest
 * (good, cyclic, truncated and PAC-signed chains), and the return address
 * a leaf leaves in x30: exact with CFI, knowingly lost by the pure
 * frame-pointer walk.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sim_arm64.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"
#ifdef HAVE_LIBDW
#include <gelf.h>
#include <libelf.h>

#include "unwind/xu_cfi.h"
#endif

#define NR_FRAMES   1024u
#define STACK_LO    0xffff800010000000ULL
#define STACK_SIZE  0x10000ULL
#define STACK_TOP   (STACK_LO + STACK_SIZE)
#define FRAME_BYTES 48u     /* between records */

/* kernel text: where the return addresses point (never read) */
#define T_ENTRY   0xffff800008000000ULL
#define T_GRAND   0xffff800008001000ULL
#define T_CALLER  0xffff800008002000ULL
#define T_LEAF    0xffff800008003000ULL
#define T_OTHER   0xffff800008004000ULL

struct fixture {
    struct xu_sim *sim;
    struct sim_a64 hi;
    struct xu_target t;
    struct xu_mem *m;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    f.sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    assert_non_null(f.sim);
    xu_sim_set_arch(f.sim, &xu_arch_arm64);
    assert_int_equal(sim_a64_init(&f.hi, f.sim, 12, 48), 0);
    assert_int_equal(sim_a64_map_range(&f.hi, STACK_LO, STACK_SIZE), 0);
    xu_sim_target_open(f.sim, &f.t, NULL);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_mem_free(f->m);
    xu_target_close(&f->t);
    xu_sim_free(f->sim);
    return 0;
}

static struct xu_vcpu_regs kernel_regs(const struct fixture *f)
{
    struct xu_vcpu_regs r;

    memset(&r, 0, sizeof(r));
    r.online = true;
    r.kernel_mode = true;
    r.mmu.paging = XU_PAGING_ARM64;
    r.mmu.root_hi = f->hi.root;
    r.mmu.ctl = sim_a64_tcr(12, 48, 12, 48);
    return r;
}

static uint64_t record_addr(unsigned int n, unsigned int k)
{
    return STACK_TOP - 64 - (uint64_t)(n - 1 - k) * FRAME_BYTES;
}

/*
 * Frame records for pcs[0..n-1] as code with frame pointers leaves them:
 * record k (0 innermost) at x29 of frame k holds {x29 of frame k + 1,
 * pcs[k + 1]}; the outermost holds x29 = 0 (entry code cleared it).  The
 * vCPU stopped in frame 0 after its prologue: sp = x29 = record 0, and x30
 * still holds its own return address, as stored in the record.
 */
static struct xu_vcpu_regs chain(struct fixture *f, const uint64_t *pcs, unsigned int n)
{
    struct xu_vcpu_regs r = kernel_regs(f);
    unsigned int k;

    for (k = 0; k + 1 < n; k++) {
        uint64_t at = record_addr(n, k);
        uint64_t next = k + 2 < n ? record_addr(n, k + 1) : 0;

        assert_int_equal(sim_a64_write_u64(&f->hi, at, next), 0);
        assert_int_equal(sim_a64_write_u64(&f->hi, at + 8, pcs[k + 1]), 0);
    }
    r.ip = pcs[0];
    r.fp = r.sp = record_addr(n, 0);
    r.lr = n > 1 ? pcs[1] : 0;
    return r;
}

static void fp_walk(struct fixture *f, const struct xu_vcpu_regs *r, uint64_t *pcs,
                    unsigned int max, struct xu_unwind_result *res)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    xu_unwind_fp(NULL, f->m, r, pcs, max, res);
}

static const uint64_t chain5[] = {
    T_LEAF + 0x10, T_CALLER + 0x24, T_GRAND + 0x48, T_OTHER + 0x1c, T_ENTRY + 0x14,
};

static void test_fp_chain(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = chain(f, chain5, 5);
    struct xu_unwind_result res;
    uint64_t pcs[16];

    fp_walk(f, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 5);
    assert_memory_equal(pcs, chain5, sizeof(chain5));
    /* bounded by depth */
    fp_walk(f, &r, pcs, 3, &res);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(res.depth, 3);
}

/* The MMU off at boot: the records are at guest-physical addresses. */
static void test_fp_chain_mmu_off(void **state)
{
    struct fixture *f = *state;
    uint64_t stack_pa = sim_a64_alloc(f->sim, 4096), pcs[8];
    uint64_t *frame = xu_sim_frame(f->sim, stack_pa >> 12);
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;

    assert_non_null(frame);
    /* inner()'s record at +0x100 -> outer()'s at +0x110 -> end */
    frame[0x100 / 8] = stack_pa + 0x110;
    frame[0x108 / 8] = 0x400800c4ULL;
    frame[0x110 / 8] = 0;
    frame[0x118 / 8] = 0x40080098ULL;
    memset(&r, 0, sizeof(r));
    r.online = r.kernel_mode = true;
    r.mmu.paging = XU_PAGING_NONE;
    r.ip = 0x400800d8ULL;
    r.sp = r.fp = stack_pa + 0x100;
    fp_walk(f, &r, pcs, 8, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 3);
    assert_int_equal(pcs[1], 0x400800c4ULL);
    assert_int_equal(pcs[2], 0x40080098ULL);
}

/* Return addresses signed with a pointer-authentication code. */
static void test_fp_pac_signed(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = chain(f, chain5, 5);
    struct xu_unwind_result res;
    uint64_t pcs[16];

    /* 0x3f in bits 54:48 and 0xa0 in 63:56, bit 55 kept */
    assert_int_equal(sim_a64_write_u64(&f->hi, record_addr(5, 1) + 8,
                                       (T_GRAND + 0x48) & 0xa0bfffffffffffffULL), 0);
    fp_walk(f, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 5);
    assert_memory_equal(pcs, chain5, sizeof(chain5));
}

/* A forged chain that points back down, and one that points at itself. */
static void test_fp_cyclic(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = chain(f, chain5, 5);
    struct xu_unwind_result res;
    uint64_t pcs[64];

    assert_int_equal(sim_a64_write_u64(&f->hi, record_addr(5, 2), record_addr(5, 0)), 0);
    fp_walk(f, &r, pcs, 64, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 4);
    assert_int_equal(sim_a64_write_u64(&f->hi, record_addr(5, 1), record_addr(5, 1)), 0);
    fp_walk(f, &r, pcs, 64, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 3);
}

/* A record whose caller's fp lies on an unmapped page: the walk stops there. */
static void test_fp_truncated(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = chain(f, chain5, 5);
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_a64_write_u64(&f->hi, record_addr(5, 1), STACK_TOP + 0x2000), 0);
    fp_walk(f, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_int_equal(res.depth, 3);
    assert_memory_equal(pcs, chain5, 3 * sizeof(uint64_t));
}

/*
 * A leaf: stopped in a function that stores no record, its return address
 * only in x30.  sp and x29 are still the caller's, whose record holds the
 * caller's own return address.  The frame-pointer walk does not use x30
 * (it cannot tell a leaf from a function that made a call since its
 * record was stored, where x30 points into the function itself), so the
 * leaf's caller is missing: the known loss.  It never invents a frame.
 */
static const uint64_t leaf_chain[] = {
    /* as the caller's frame records say, from the caller on */
    T_CALLER + 0x30, T_GRAND + 0x48, T_ENTRY + 0x14,
};

static struct xu_vcpu_regs leaf_regs(struct fixture *f)
{
    struct xu_vcpu_regs r = chain(f, leaf_chain, 3);

    r.ip = T_LEAF + 0x8;
    r.lr = T_CALLER + 0x24;     /* after the caller's "bl leaf" */
    return r;
}

static void test_fp_leaf_in_x30_is_lost(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = leaf_regs(f);
    struct xu_unwind_result res;
    uint64_t pcs[16];

    fp_walk(f, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 3);
    assert_int_equal(pcs[0], T_LEAF + 0x8);
    assert_int_equal(pcs[1], T_GRAND + 0x48);
    assert_int_equal(pcs[2], T_ENTRY + 0x14);
}

/*
 * With the ELF's code and where functions start, the frame-pointer walk
 * reads the leaf's instructions before the PC: no "mov x29, sp", no store
 * of x30 and no branch with link, so x30 is still its return address and
 * the caller is kept.  A function that has stored x30 or called since
 * keeps the old walk.
 */
static uint32_t leaf_insns[4];

static const uint8_t *a64_code(const void *ctx, uint64_t addr, size_t len)
{
    static uint8_t buf[64];
    uint64_t start = addr - len;
    size_t i;

    (void)ctx;
    if (len > sizeof(buf))
        return NULL;
    for (i = 0; i < len; i++) {
        uint64_t a = start + i;
        uint32_t insn = 0xd503201fu;                    /* nop */

        if (a >= T_LEAF && a < T_LEAF + 16)
            insn = leaf_insns[(a - T_LEAF) / 4];
        else if (a >= T_CALLER + 0x20 && a < T_CALLER + 0x24)
            insn = 0x94000000u;                         /* bl: the call into the leaf */
        buf[i] = (uint8_t)(insn >> (8 * (a & 3)));
    }
    return buf;
}

static bool a64_func_start(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    (void)ctx;
    (void)thumb;
    *start = pc & ~0xfffULL;
    return true;
}

static void test_fp_leaf_in_x30_with_the_code(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r = leaf_regs(f);
    struct xu_unwind_result res;
    struct xu_unwind_env env;
    uint64_t pcs[16];

    memset(&env, 0, sizeof(env));
    env.text[0].start = T_ENTRY;
    env.text[0].end = T_OTHER + 0x1000;
    env.nr_text = 1;
    env.code = a64_code;
    env.func_start = a64_func_start;
    /* sub sp, sp, #16; str w0, [sp, #12]: a leaf */
    leaf_insns[0] = 0xd10043ffu;
    leaf_insns[1] = 0xb9000fe0u;
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &r);
    xu_unwind_fp(&env, f->m, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[1], T_CALLER + 0x24);
    assert_int_equal(pcs[2], T_GRAND + 0x48);
    /* stp x29, x30, [sp, #-16]!; mov x29, sp: x30 saved, the record made */
    leaf_insns[0] = 0xa9bf7bfdu;
    leaf_insns[1] = 0x910003fdu;
    xu_mem_begin(f->m);
    xu_unwind_fp(&env, f->m, &r, pcs, 16, &res);
    assert_int_equal(res.depth, 3);
    assert_int_equal(pcs[1], T_GRAND + 0x48);
    /* bl before the PC: x30 points into the function itself */
    leaf_insns[0] = 0x94000010u;
    leaf_insns[1] = 0xd503201fu;
    xu_mem_begin(f->m);
    xu_unwind_fp(&env, f->m, &r, pcs, 16, &res);
    assert_int_equal(res.depth, 3);
}

#ifdef HAVE_LIBDW
/*
 * With CFI the leaf is exact: its rows say "the return address is still in
 * x30"; the caller's usual prologue (stp x29, x30, [sp, #-16]!) left x29 at
 * CFA-16 and x30 at CFA-8 with the CFA sp-relative; the grandcaller's rows
 * are fp-relative.
 */
static struct xu_cfi_table *leaf_table(int caller_in_link)
{
    struct xu_cfi_row rows[3];
    struct xu_cfi_table *t = NULL;

    memset(rows, 0, sizeof(rows));
    rows[0] = (struct xu_cfi_row){ .start = T_LEAF, .end = T_LEAF + 0x40, .kind = XU_CFI_RULE,
                                   .cfa_reg = XU_CFI_REG_SP, .cfa_off = 0,
                                   .ra = XU_CFI_RA_LINK, .fp = XU_CFI_FP_SAME };
    rows[1] = (struct xu_cfi_row){ .start = T_CALLER, .end = T_CALLER + 0x100,
                                   .kind = XU_CFI_RULE, .cfa_reg = XU_CFI_REG_SP,
                                   .cfa_off = 16, .ra = XU_CFI_RA_AT_CFA, .ra_off = -8,
                                   .fp = XU_CFI_FP_AT_CFA, .fp_off = -16 };
    if (caller_in_link) {
        rows[1].ra = XU_CFI_RA_LINK;
        rows[1].cfa_off = 0;
        rows[1].fp = XU_CFI_FP_SAME;
    }
    rows[2] = (struct xu_cfi_row){ .start = T_GRAND, .end = T_GRAND + 0x100,
                                   .kind = XU_CFI_RULE, .cfa_reg = XU_CFI_REG_FP,
                                   .cfa_off = 16, .ra = XU_CFI_RA_AT_CFA, .ra_off = -8,
                                   .fp = XU_CFI_FP_AT_CFA, .fp_off = -16 };
    assert_int_equal(xu_cfi_from_rows(rows, 3, NULL, &t), 0);
    return t;
}

static void cfi_walk(struct fixture *f, struct xu_cfi_table *t, const struct xu_vcpu_regs *r,
                     uint64_t *pcs, unsigned int max, struct xu_unwind_result *res)
{
    const struct xu_unwind_env env = { .cfi = t };

    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    xu_unwind_cfi_ops.walk(&env, f->m, r, pcs, max, res);
}

static void test_cfi_leaf_in_x30(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_table *t = leaf_table(0);
    struct xu_vcpu_regs r = leaf_regs(f);
    struct xu_unwind_result res;
    struct xu_cfi_row row;
    uint64_t pcs[16];

    xu_cfi_lookup(t, T_LEAF + 8, &row);
    assert_int_equal(row.kind, XU_CFI_RULE);
    assert_int_equal(row.ra, XU_CFI_RA_LINK);
    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[0], T_LEAF + 0x8);
    assert_int_equal(pcs[1], T_CALLER + 0x24);      /* from x30 */
    assert_int_equal(pcs[2], T_GRAND + 0x48);
    assert_int_equal(pcs[3], T_ENTRY + 0x14);
    /* auto: the same */
    xu_mem_begin(f->m);
    xu_unwind_auto_ops.walk(&(const struct xu_unwind_env){ .cfi = t }, f->m, &r, pcs, 16, &res);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[1], T_CALLER + 0x24);
    /* a signed x30 is stripped like a stored return address */
    r.lr = (T_CALLER + 0x24) & 0x81ffffffffffffffULL;
    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[1], T_CALLER + 0x24);
    xu_cfi_free(t);
}

/* Deeper than the first frame x30 is long gone: the rule cannot be followed. */
static void test_cfi_link_rule_only_first_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_table *t = leaf_table(1);
    struct xu_vcpu_regs r = leaf_regs(f);
    struct xu_unwind_result res;
    uint64_t pcs[16];

    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 2);
    assert_int_equal(pcs[1], T_CALLER + 0x24);
    xu_cfi_free(t);
}

/* ---- real AArch64 CFI: cfi_fixture_arm64.S, assembled at build time ---- */

#define FIXTURE XU_TEST_CFI_ARM64_FIXTURE

/* The address of a symbol of the fixture; 0 when absent. */
static uint64_t sym(const char *name)
{
    int fd = open(FIXTURE, O_RDONLY);
    Elf *elf = NULL;
    Elf_Scn *scn = NULL;
    uint64_t addr = 0;

    assert_true(fd >= 0);
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(elf);
    while (!addr && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        size_t i, n;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        d = elf_getdata(scn, NULL);
        n = sh.sh_size / sh.sh_entsize;
        for (i = 0; d && i < n && i < 4096; i++) {
            GElf_Sym s;
            const char *nm;

            if (!gelf_getsym(d, (int)i, &s))
                continue;
            nm = elf_strptr(elf, sh.sh_link, s.st_name);
            if (nm && strcmp(nm, name) == 0) {
                addr = s.st_value;
                break;
            }
        }
    }
    elf_end(elf);
    close(fd);
    assert_int_not_equal(addr, 0);
    return addr;
}

static struct xu_cfi_table *fixture_table(void)
{
    struct xu_cfi_table *t = NULL;

    if (access(FIXTURE, R_OK) != 0)
        return NULL;
    assert_int_equal(xu_cfi_open(FIXTURE, NULL, NULL, &t), 0);
    return t;
}

/* What libdw makes of GNU as's AArch64 CFI, row by row. */
static void test_cfi_fixture_rows(void **state)
{
    struct xu_cfi_table *t = fixture_table();
    struct xu_cfi_row r;

    (void)state;
    if (!t)
        skip();     /* no AArch64 compiler at configure time */
    xu_cfi_lookup(t, sym("fx_entry"), &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.ra, XU_CFI_RA_UNDEFINED);
    /* a leaf, and any function before its prologue: x30 is "same value" */
    xu_cfi_lookup(t, sym("fx_leaf_body"), &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.ra, XU_CFI_RA_LINK);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_SP);
    assert_int_equal(r.cfa_off, 0);
    /* pac-ret's paciasp changes no rule (DW_CFA_AARCH64_negate_ra_state) */
    xu_cfi_lookup(t, sym("fx_caller"), &r);
    assert_int_equal(r.ra, XU_CFI_RA_LINK);
    assert_int_equal(r.end, sym("fx_caller_pushed"));
    /* after "stp x29, x30, [sp, #-16]!" */
    xu_cfi_lookup(t, sym("fx_ret_caller") - 4, &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_SP);
    assert_int_equal(r.cfa_off, 16);
    assert_int_equal(r.ra, XU_CFI_RA_AT_CFA);
    assert_int_equal(r.ra_off, -8);
    assert_int_equal(r.fp, XU_CFI_FP_AT_CFA);
    assert_int_equal(r.fp_off, -16);
    /* the CFA on x29 */
    xu_cfi_lookup(t, sym("fx_ret_with_fp") - 4, &r);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_FP);
    assert_int_equal(r.cfa_off, 16);
    xu_cfi_free(t);
}

/*
 * The stack fx_entry -> fx_with_fp -> fx_caller builds, as the fixture's
 * code would: each "stp x29, x30, [sp, #-16]!" stores a record below the
 * caller's sp, fx_with_fp then allocates 32 bytes; fx_caller signs its
 * return address first (a pointer-authentication code in bits 63:48, bit
 * 55 kept).  Returns fx_caller's sp after its prologue; *with_fp_rec is
 * fx_with_fp's record.
 */
static uint64_t fixture_stack(struct fixture *f, uint64_t *with_fp_rec)
{
    uint64_t sp1 = STACK_TOP - 256 - 16, sp2 = sp1 - 32 - 16;

    assert_int_equal(sim_a64_write_u64(&f->hi, sp1, 0), 0);
    assert_int_equal(sim_a64_write_u64(&f->hi, sp1 + 8, sym("fx_ret_entry")), 0);
    assert_int_equal(sim_a64_write_u64(&f->hi, sp2, sp1), 0);
    assert_int_equal(sim_a64_write_u64(&f->hi, sp2 + 8,
                                       sym("fx_ret_with_fp") | 0x9a2b000000000000ULL), 0);
    *with_fp_rec = sp1;
    return sp2;
}

/* Stopped in the leaf: its caller comes from x30, exactly. */
static void test_cfi_fixture_leaf(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_table *t = fixture_table();
    struct xu_vcpu_regs r = kernel_regs(f);
    struct xu_unwind_result res;
    uint64_t pcs[16], rec1;

    if (!t)
        skip();
    r.sp = r.fp = fixture_stack(f, &rec1);
    r.ip = sym("fx_leaf_body");
    r.lr = sym("fx_ret_caller");
    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[0], sym("fx_leaf_body"));
    assert_int_equal(pcs[1], sym("fx_ret_caller"));
    assert_int_equal(pcs[2], sym("fx_ret_with_fp"));
    assert_int_equal(pcs[3], sym("fx_ret_entry"));
    xu_cfi_free(t);
}

/* Stopped on fx_caller's first instruction: nothing stored yet, sp and x29
 * still fx_with_fp's, the return address in x30. */
static void test_cfi_fixture_function_entry(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_table *t = fixture_table();
    struct xu_vcpu_regs r = kernel_regs(f);
    struct xu_unwind_result res;
    uint64_t pcs[16], rec1;

    if (!t)
        skip();
    r.sp = fixture_stack(f, &rec1) + 16;
    r.fp = rec1;
    r.ip = sym("fx_caller");
    r.lr = sym("fx_ret_with_fp");
    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    assert_int_equal(res.depth, 3);
    /* one instruction later x30 is signed (paciasp) and still the rule */
    r.ip = sym("fx_caller") + 4;
    r.lr = sym("fx_ret_with_fp") | 0x1357000000000000ULL;
    cfi_walk(f, t, &r, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    assert_int_equal(res.depth, 3);
    assert_int_equal(pcs[1], sym("fx_ret_with_fp"));
    assert_int_equal(pcs[2], sym("fx_ret_entry"));
    xu_cfi_free(t);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fp_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_chain_mmu_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_pac_signed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_cyclic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_truncated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_leaf_in_x30_is_lost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_leaf_in_x30_with_the_code, setup, teardown),
#ifdef HAVE_LIBDW
        cmocka_unit_test_setup_teardown(test_cfi_leaf_in_x30, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cfi_link_rule_only_first_frame, setup, teardown),
        cmocka_unit_test(test_cfi_fixture_rows),
        cmocka_unit_test_setup_teardown(test_cfi_fixture_leaf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cfi_fixture_function_entry, setup, teardown),
#endif
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
