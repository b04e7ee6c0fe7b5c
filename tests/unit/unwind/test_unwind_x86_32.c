/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_x86_32.c - unwinding a 32-bit x86 guest: frame records
 * {ebp, eip} of 4-byte words on a stack mapped through two-level and PAE
 * tables in the simulated guest (good, cyclic, misaligned and unmapped
 * chains; a vCPU that left protected mode), a stop in a 32-bit PV
 * hypercall stub, and a 32-bit interrupt frame crossed at upcall entry
 * code.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim_x86_32.h"
#include "expect_walk.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"
#if defined(HAVE_LIBDW) && defined(XU_TEST_CFI_I386_FIXTURE)
#include <elf.h>

#include "symbols/xu_symbols.h"
#include "unwind/xu_cfi.h"
#define CFI_I386 1
#endif

#define NR_FRAMES  1024u
#define STACK_LO   0xc1000000ULL
#define STACK_SIZE 0x4000ULL
#define HC_PAGE    0xc0200000ULL
#define TEXT_LO    0xc0100000ULL
#define TEXT_HI    0xc0180000ULL

#define T_LEAF    0xc0100010ULL
#define T_CALLER  0xc0100100ULL
#define T_GRAND   0xc0100200ULL
#define T_ENTRY   0xc0100300ULL

struct fixture {
    struct xu_sim *sim;
    struct sim_x86_32 g;
    struct xu_target t;
    struct xu_mem *m;
};

static struct fixture f;

static int setup_mode(enum xu_paging_mode mode)
{
    memset(&f, 0, sizeof(f));
    f.sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    assert_non_null(f.sim);
    xu_sim_set_arch(f.sim, &xu_arch_x86_32);
    assert_int_equal(sim32_init(&f.g, f.sim, mode), 0);
    assert_int_equal(sim32_map_range(&f.g, STACK_LO, STACK_SIZE), 0);
    assert_int_equal(sim32_map_range(&f.g, HC_PAGE, XU_PAGE_SIZE), 0);
    assert_int_equal(xu_sim_target_open(f.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    return 0;
}

static int setup_2level(void **state)
{
    (void)state;
    return setup_mode(XU_PAGING_32);
}

static int setup_pae(void **state)
{
    (void)state;
    return setup_mode(XU_PAGING_PAE);
}

static int teardown(void **state)
{
    (void)state;
    xu_mem_free(f.m);
    xu_target_close(&f.t);
    xu_sim_free(f.sim);
    return 0;
}

static void record(uint64_t fp, uint64_t next_fp, uint64_t ret)
{
    assert_int_equal(sim32_write_u32(&f.g, fp, (uint32_t)next_fp), 0);
    assert_int_equal(sim32_write_u32(&f.g, fp + 4, (uint32_t)ret), 0);
}

static void run(const struct xu_unwind_env *env, const struct xu_vcpu_regs *r, uint64_t *pcs,
                unsigned int max, struct xu_unwind_result *res)
{
    xu_mem_begin(f.m);
    xu_mem_set_context(f.m, r);
    xu_unwind_fp(env, f.m, r, pcs, max, res);
}

/* Three records of two 4-byte words, 32 bytes apart; the outermost one's
 * saved ebp is 0.  Read as 8-byte words the chain would be garbage. */
static void chain(uint64_t sp, uint64_t fp0, struct xu_vcpu_regs *r)
{
    record(fp0, fp0 + 32, T_CALLER);
    record(fp0 + 32, fp0 + 64, T_GRAND);
    record(fp0 + 64, 0, T_ENTRY);
    sim32_regs(&f.g, T_LEAF, sp, fp0, r);
}

static void test_fp_chain(void **state)
{
    static const uint64_t want[] = { T_LEAF, T_CALLER, T_GRAND, T_ENTRY };
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    (void)state;
    chain(STACK_LO + 0x3f00, STACK_LO + 0x3f10, &r);
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
    /* depth-bounded */
    run(NULL, &r, pcs, 2, &res);
    expect_chain(pcs, &res, XU_WALK_DEPTH, want, 2);
}

/* Records that are 4-byte but not 8-byte aligned are a 32-bit guest's
 * ordinary case. */
static void test_fp_chain_word_aligned(void **state)
{
    static const uint64_t want[] = { T_LEAF, T_CALLER, T_GRAND, T_ENTRY };
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    (void)state;
    chain(STACK_LO + 0x3f00, STACK_LO + 0x3f14, &r);
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
}

static void test_fp_hostile(void **state)
{
    static const uint64_t want[] = { T_LEAF, T_CALLER, T_GRAND };
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp0 = STACK_LO + 0x3f10;

    (void)state;
    chain(STACK_LO + 0x3f00, fp0, &r);
    /* a cycle: the second record points back at the first */
    record(fp0 + 32, fp0, T_GRAND);
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, want, 3);
    /* a misaligned frame pointer */
    record(fp0 + 32, fp0 + 66, T_GRAND);
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, want, 3);
    /* off the mapped stack */
    record(fp0 + 32, STACK_LO + STACK_SIZE + 0x100, T_GRAND);
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_UNMAPPED, want, 3);
}

/* A vCPU that switched to long mode, or back to real mode, after the run
 * chose 32-bit rules: its IP only, marked, no stack read. */
static void test_mode_changed(void **state)
{
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    struct xu_mem_stats st;

    (void)state;
    chain(STACK_LO + 0x3f00, STACK_LO + 0x3f10, &r);
    r.mmu.paging = XU_PAGING_LONG4;
    r.efer = 0x500;
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_NO_PAGING, &r.ip, 1);
    r.mmu.paging = XU_PAGING_NONE;
    r.cr0 = 0;
    run(NULL, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_NO_PAGING, &r.ip, 1);
    xu_mem_get_stats(f.m, &st);
    assert_int_equal(st.walks, 0);
}

/* Stopped after "int $0x82" in a 32-bit PV guest's hypercall stub: the
 * HYPERVISOR_* caller's return address is the word at esp, and ebp still
 * holds that caller's record. */
static void test_hypercall_stub(void **state)
{
    static const uint8_t stub[] = { 0xb8, 0x1d, 0, 0, 0, 0xcd, 0x82, 0xc3 };
    static const uint64_t want[] = { HC_PAGE + 0x3a7, T_CALLER, T_GRAND, T_ENTRY };
    struct xu_unwind_env env;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16], sp = STACK_LO + 0x3f00, fp0 = STACK_LO + 0x3f10;

    (void)state;
    memset(&env, 0, sizeof(env));
    env.hypercall_page.start = HC_PAGE;
    env.hypercall_page.end = HC_PAGE + XU_PAGE_SIZE;
    assert_int_equal(sim32_write(&f.g, HC_PAGE + 0x3a0, stub, sizeof(stub)), 0);
    assert_int_equal(sim32_write_u32(&f.g, sp, (uint32_t)T_CALLER), 0);
    record(fp0, fp0 + 32, T_GRAND);
    record(fp0 + 32, 0, T_ENTRY);
    sim32_regs(&f.g, HC_PAGE + 0x3a7, sp, fp0, &r);
    run(&env, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
}

/* A handler called from upcall entry code: its caller was interrupted,
 * and the 32-bit frame (eip, cs, eflags; no esp) above the entry's call
 * gives the interrupted PC and stack. */
static void test_interrupt_frame(void **state)
{
    static const uint64_t want[] = { T_LEAF, 0xc0150010ULL, XU_PC_UPCALL, T_GRAND, T_ENTRY };
    struct xu_unwind_env env;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16], sp = STACK_LO + 0x3e00, fp0 = STACK_LO + 0x3e10;
    uint64_t frame = fp0 + 8;               /* right above the handler's record */
    uint64_t ifp = STACK_LO + 0x3f40;

    (void)state;
    memset(&env, 0, sizeof(env));
    env.boundary[0].start = 0xc0150000ULL;
    env.boundary[0].end = 0xc0150100ULL;
    env.nr_boundary = 1;
    env.text[0].start = TEXT_LO;
    env.text[0].end = TEXT_HI;
    env.nr_text = 1;
    record(fp0, ifp, 0xc0150010ULL);
    assert_int_equal(sim32_write_u32(&f.g, frame, (uint32_t)T_GRAND), 0);
    assert_int_equal(sim32_write_u32(&f.g, frame + 4, 0x10), 0);
    assert_int_equal(sim32_write_u32(&f.g, frame + 8, 0x202), 0);
    record(ifp, 0, T_ENTRY);
    sim32_regs(&f.g, T_LEAF, sp, fp0, &r);
    run(&env, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
}

#ifdef CFI_I386
static struct xu_log quiet_log = { .emit = NULL, .min_level = XU_LOG_ERROR };

static uint64_t addr_of(const struct xu_symtab *st, const char *name)
{
    const struct xu_symbol *s = xu_symtab_find(st, name);

    assert_non_null(s);
    return s->start;
}

/*
 * The i386 fixture's CFI (from .eh_frame, or .debug_frame with its
 * absolute 4-byte addresses), walked over the stack its functions build:
 * fx32_leaf stopped after its prologue (CFA ebp + 8), fx32_mid without a
 * frame pointer (CFA esp + 16, ebx saved), fx32_entry the root (eip
 * undefined).
 */
static void cfi_walk(const char *path)
{
    struct xu_symtab *st = NULL;
    struct xu_cfi_table *cfi = NULL;
    struct xu_unwind_env env;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[16], want[3], e = STACK_LO + 0x3f00;

    assert_int_equal(xu_symtab_open_for(path, EM_386, &quiet_log, &st), 0);
    assert_int_equal(xu_cfi_open(path, NULL, &quiet_log, &cfi), 0);
    want[0] = addr_of(st, "fx32_leaf_body");
    want[1] = addr_of(st, "fx32_ret_mid");
    want[2] = addr_of(st, "fx32_ret_entry");
    assert_true(want[0] >= 0xc0100000ULL && want[0] < 0xc0101000ULL);
    record(e, 0, want[1]);                      /* leaf: saved ebp, return */
    assert_int_equal(sim32_write_u32(&f.g, e + 8, 0x11111111), 0);   /* mid's locals */
    assert_int_equal(sim32_write_u32(&f.g, e + 12, 0x22222222), 0);
    assert_int_equal(sim32_write_u32(&f.g, e + 16, 0x33333333), 0);  /* saved ebx */
    assert_int_equal(sim32_write_u32(&f.g, e + 20, (uint32_t)want[2]), 0);
    sim32_regs(&f.g, want[0], e, e, &r);
    memset(&env, 0, sizeof(env));
    env.cfi = cfi;
    xu_mem_begin(f.m);
    xu_mem_set_context(f.m, &r);
    xu_unwind_cfi_ops.walk(&env, f.m, &r, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);
    xu_cfi_free(cfi);
    xu_symtab_free(st);
}
#endif

static void test_cfi_eh_frame(void **state)
{
    (void)state;
#ifdef CFI_I386
    cfi_walk(XU_TEST_CFI_I386_FIXTURE);
#else
    skip();
#endif
}

static void test_cfi_debug_frame(void **state)
{
    (void)state;
#ifdef CFI_I386
    cfi_walk(XU_TEST_CFI_I386_FIXTURE_DBG);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fp_chain, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_fp_chain, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_fp_chain_word_aligned, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_fp_hostile, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_mode_changed, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_hypercall_stub, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_frame, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_cfi_eh_frame, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_cfi_debug_frame, setup_2level, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
