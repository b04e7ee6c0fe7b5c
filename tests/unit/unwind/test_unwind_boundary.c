/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_boundary.c - the edges of ordinary calls, for every unwinder:
 * a vCPU stopped in the hypercall page (PV stubs push %rcx and %r11 over
 * the return address, PVH/HVM stubs push nothing), and handlers of event
 * upcalls whose frames were interrupted, not called: the frame the event
 * left on the same stack, or behind a pointer saved on an interrupt stack,
 * above or below the thread's stack.  Stacks are laid out by hand in the
 * simulated guest, as the guests' entry code lays them out.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "expect_walk.h"

#include "sim_guest.h"
#include "unwind/xu_cfi.h"
#include "unwind/xu_unwind.h"

/* Code addresses (the sim maps a page of text for the hypercall page). */
#define TEXT            SIM_TEXT_BASE
#define HCALL_PAGE      (TEXT + 0x10000)
#define ENTRY_SCHED_OP  (HCALL_PAGE + 29 * 32)
#define H_RET           (TEXT + 0x1105)     /* in HYPERVISOR_sched_op, after its call */
#define B_RET           (TEXT + 0x1205)     /* in block_domain */
#define TS_RET          (TEXT + 0x1305)     /* in thread_starter */
#define CB_START        (TEXT + 0x2000)     /* hypervisor_callback */
#define CB_RET          (TEXT + 0x2040)
#define CB_END          (TEXT + 0x2100)
#define HANDLER_PC      (TEXT + 0x3010)     /* in do_hypervisor_callback */
#define BUSY_PC         (TEXT + 0x4022)     /* the interrupted function */
#define MAIN_RET        (TEXT + 0x4105)
#define START_RET       (TEXT + 0x4205)

#define STACK(id)       (SIM_STACK_BASE + (uint64_t)(id) * SIM_STACK_SPAN)

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_unwind_env env;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));

    assert_non_null(f);
    assert_int_equal(sim_guest_init(&f->g, XU_GUEST_PV, 1, 0), 0);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, HCALL_PAGE, XU_PAGE_SIZE), 0);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, STACK(0), 3 * SIM_STACK_SPAN), 0);
    assert_int_equal(xu_sim_target_open(f->g.sim, &f->t, NULL), 0);
    f->m = xu_mem_new(&f->t, NULL);
    assert_non_null(f->m);
    f->env.hypercall_page.start = HCALL_PAGE;
    f->env.hypercall_page.end = HCALL_PAGE + XU_PAGE_SIZE;
    f->env.boundary[0].start = CB_START;
    f->env.boundary[0].end = CB_END;
    f->env.nr_boundary = 1;
    f->env.text[0].start = TEXT;
    f->env.text[0].end = TEXT + 0x100000;
    f->env.nr_text = 1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    if (f) {
        xu_mem_free(f->m);
        xu_target_close(&f->t);
        sim_guest_fini(&f->g);
        free(f);
    }
    return 0;
}

static void put(struct fixture *f, uint64_t va, uint64_t v)
{
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, va, v), 0);
}

static void regs_at(struct fixture *f, struct xu_vcpu_regs *r, uint64_t ip, uint64_t sp,
                    uint64_t fp)
{
    memset(r, 0, sizeof(*r));
    r->online = true;
    r->kernel_mode = true;
    r->mmu.paging = XU_PAGING_LONG4;
    r->mmu.root = f->g.root;
    r->ip = ip;
    r->sp = sp;
    r->fp = fp;
}

static void walk(struct fixture *f, const struct xu_unwinder_ops *ops,
                 const struct xu_unwind_env *env, const struct xu_vcpu_regs *r,
                 uint64_t *pcs, struct xu_unwind_result *res)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    ops->walk(env, f->m, r, pcs, 32, res);
}

/* block_domain's and HYPERVISOR_sched_op's frame records on stack 0;
 * returns HYPERVISOR_sched_op's fp. */
static uint64_t blocking_chain(struct fixture *f)
{
    uint64_t f2 = STACK(1) - 64, f1 = f2 - 48;

    put(f, f2, 0);
    put(f, f2 + 8, TS_RET);
    put(f, f1, f2);
    put(f, f1 + 8, B_RET);
    return f1;
}

static void write_pv_stub(struct fixture *f)
{
    static const uint8_t stub[14] = { 0x51, 0x41, 0x53, 0xb8, 29, 0, 0, 0, 0x0f, 0x05,
                                      0x41, 0x5b, 0x59, 0xc3 };

    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, ENTRY_SCHED_OP, stub, sizeof(stub)), 0);
}

static void test_pv_hypercall_keeps_its_caller(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], fp = blocking_chain(f), sp = fp - 40;
    const uint64_t want[] = { ENTRY_SCHED_OP + 10, H_RET, B_RET, TS_RET };
    const uint64_t old[] = { ENTRY_SCHED_OP + 10, B_RET, TS_RET };

    write_pv_stub(f);
    /* the stub's pushes: r11 at sp, rcx at sp + 8, the return address above */
    put(f, sp, 0x246);
    put(f, sp + 8, 0x1234);
    put(f, sp + 16, H_RET);
    regs_at(f, &r, ENTRY_SCHED_OP + 10, sp, fp);      /* back from syscall */

    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
#endif
    /* without knowing the hypercall page, the caller is lost */
    walk(f, &xu_unwind_fp_ops, NULL, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, old, 3);
}

static void test_pvh_hypercall_pushes_nothing(void **state)
{
    struct fixture *f = *state;
    static const uint8_t stub[9] = { 0xb8, 29, 0, 0, 0, 0x0f, 0x01, 0xc1, 0xc3 };
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], fp = blocking_chain(f), sp = fp - 24;
    const uint64_t want[] = { ENTRY_SCHED_OP + 8, H_RET, B_RET, TS_RET };

    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, ENTRY_SCHED_OP, stub, sizeof(stub)), 0);
    put(f, sp, H_RET);
    regs_at(f, &r, ENTRY_SCHED_OP + 8, sp, fp);       /* back from vmcall */
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
}

static void test_max_depth_one_reads_nothing(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    struct xu_mem_stats st;
    uint64_t pcs[1];

    regs_at(f, &r, ENTRY_SCHED_OP + 10, STACK(1) - 200, blocking_chain(f));
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &r);
    xu_unwind_fp_ops.walk(&f->env, f->m, &r, pcs, 1, &res);
    xu_mem_get_stats(f->m, &st);
    assert_int_equal(res.depth, 1);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(st.walks, 0);
}

/*
 * The interrupted thread on stack thread_id: busy function with frame
 * record R (main's record R2 above it).  Returns R; *isp gets the
 * interrupted stack pointer.
 */
static uint64_t interrupted_thread(struct fixture *f, unsigned int thread_id, uint64_t *isp)
{
    uint64_t r2 = STACK(thread_id + 1) - 64, r = r2 - 48;

    put(f, r2, 0);
    put(f, r2 + 8, START_RET);
    put(f, r, r2);
    put(f, r + 8, MAIN_RET);
    *isp = r - 24;
    return r;
}

/* The handler's frame record at h, called from the entry code with the
 * interrupted fp still in rbp; the vCPU stopped in the handler. */
static void handler_stopped(struct fixture *f, struct xu_vcpu_regs *regs, uint64_t h,
                            uint64_t interrupted_fp)
{
    put(f, h, interrupted_fp);
    put(f, h + 8, CB_RET);
    regs_at(f, regs, HANDLER_PC, h - 16, h);
}

static void put_frame(struct fixture *f, uint64_t at, uint64_t rip, uint64_t rsp)
{
    put(f, at, rip);
    put(f, at + 8, 0xe033);         /* FLAT_KERNEL_CS64 */
    put(f, at + 16, 0x246);
    put(f, at + 24, rsp);
    put(f, at + 32, 0xe02b);
}

static void test_upcall_on_the_same_stack(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), frame, h;
    const uint64_t want[] = { HANDLER_PC, CB_RET, XU_PC_UPCALL, BUSY_PC, MAIN_RET, START_RET };
    const uint64_t lost[] = { HANDLER_PC, CB_RET };
    unsigned int k;

    /* Xen's bounce frame below the interrupted sp: rcx, r11, then the
     * iret frame; the entry code saved 15 registers under it */
    frame = (isp - 40) & ~15ULL;
    put_frame(f, frame, BUSY_PC, isp);
    put(f, frame - 8, 0x11);
    put(f, frame - 16, 0x22);
    for (k = 3; k <= 17; k++)
        put(f, frame - 8 * k, 0x1000 + k);
    h = frame - 8 * 17 - 16;
    handler_stopped(f, &r, h, fp);

    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#endif
    /* no frame where one should be: stop, do not invent a call */
    put(f, frame + 16, 0);          /* RFLAGS without its fixed bit */
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, lost, 2);
}

/*
 * Mini-OS style: the entry saves the registers (the frame 128 bytes in) on
 * the thread's stack, switches to an interrupt stack, pushes the pointer to
 * the saved registers and calls the handler.  Interrupt stack below the
 * thread's stack, and above it.
 */
static void irq_stack_case(struct fixture *f, unsigned int thread_id, unsigned int irq_id)
{
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, thread_id, &isp), regs_at_, irq_top, h;
    const uint64_t want[] = { HANDLER_PC, CB_RET, XU_PC_UPCALL, BUSY_PC, MAIN_RET, START_RET };

    regs_at_ = ((isp - 40) & ~15ULL) - 128;
    put_frame(f, regs_at_ + 128, BUSY_PC, isp);
    irq_top = STACK(irq_id + 1) - 64;
    put(f, irq_top - 8, regs_at_);              /* pushq %rdi */
    h = irq_top - 8 - 16;                       /* the call's return address, then rbp */
    handler_stopped(f, &r, h, fp);

    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#endif
}

static void test_upcall_on_a_lower_interrupt_stack(void **state)
{
    irq_stack_case(*state, 1, 0);
}

static void test_upcall_on_a_higher_interrupt_stack(void **state)
{
    irq_stack_case(*state, 0, 2);
}

/* A downward step anywhere but at a boundary is still refused. */
static void test_downward_chain_is_refused(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], hi = STACK(2) - 64, lo = STACK(1) - 64;
    const uint64_t want[] = { BUSY_PC, MAIN_RET };

    put(f, hi, lo);                 /* the caller's record lies below */
    put(f, hi + 8, MAIN_RET);
    put(f, lo, 0);
    put(f, lo + 8, START_RET);
    regs_at(f, &r, BUSY_PC, hi - 16, hi);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, want, 2);
}

/* A forged chain of handlers, each returning into the entry code above a
 * frame that leads to the next: at most XU_UNWIND_MAX_CROSSINGS crossings,
 * then the walk stops. */
static void test_crossings_are_bounded(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], h[4];
    unsigned int k;

    for (k = 0; k < 4; k++)
        h[k] = STACK(1) + 0x1000 * (k + 1);
    for (k = 0; k < 4; k++) {
        /* record, then the frame right above it, pushed under sp = frame + 40 */
        put(f, h[k], k + 1 < 4 ? h[k + 1] : 0);
        put(f, h[k] + 8, CB_RET);
        put_frame(f, h[k] + 16, HANDLER_PC, h[k] + 56);
    }
    regs_at(f, &r, HANDLER_PC, h[0] - 16, h[0]);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    /* the first pc, then per crossing: a return address, [upcall], a pc */
    assert_int_equal(res.depth, 1 + XU_UNWIND_MAX_CROSSINGS * 3 + 1);
}

/* Stopped inside the entry code itself (before it called the handler):
 * the frame is found from the stack pointer. */
static void test_stopped_in_entry_code(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), frame;
    const uint64_t want[] = { CB_START + 4, XU_PC_UPCALL, BUSY_PC, MAIN_RET, START_RET };

    frame = (isp - 40) & ~15ULL;
    put_frame(f, frame, BUSY_PC, isp);
    regs_at(f, &r, CB_START + 4, frame - 16, fp);     /* pushed rcx, r11 */
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
}

/* An event that interrupted a blocked vCPU in its hypercall: the stub's
 * caller after the interrupted PC. */
static void test_upcall_during_a_hypercall(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], fp = blocking_chain(f), isp = fp - 40, frame, h;
    const uint64_t want[] = { HANDLER_PC, CB_RET, XU_PC_UPCALL, ENTRY_SCHED_OP + 10, H_RET,
                              B_RET, TS_RET };

    write_pv_stub(f);
    put(f, isp, 0x246);             /* the stub's r11, rcx, then its return address */
    put(f, isp + 8, 0x1234);
    put(f, isp + 16, H_RET);
    frame = (isp - 40) & ~15ULL;
    put_frame(f, frame, ENTRY_SCHED_OP + 10, isp);
    h = frame - 8 * 17 - 16;
    handler_stopped(f, &r, h, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 7);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 7);
#endif
}

/* The ELF's code for the frameless steps: push %rbp at each function's
 * start, mov %rsp,%rbp after it, a ret somewhere; int3 elsewhere. */
static const uint8_t *fake_code(const void *ctx, uint64_t addr, size_t len)
{
    static uint8_t buf[16];
    uint64_t a, start = addr - len;
    size_t i;

    (void)ctx;
    if (len > sizeof(buf))
        return NULL;
    for (i = 0; i < len; i++) {
        a = start + i;
        buf[i] = 0xcc;
        if (a == HANDLER_PC - 0x10 || a == BUSY_PC - 0x22)
            buf[i] = 0x55;                          /* push %rbp */
        else if (a >= HANDLER_PC - 0xf && a < HANDLER_PC - 0xc)
            buf[i] = (uint8_t[]){ 0x48, 0x89, 0xe5 }[a - (HANDLER_PC - 0xf)];
        else if (a == BUSY_PC + 0x40)
            buf[i] = 0xc3;                          /* ret */
    }
    return buf;
}

/* The handler stopped on its first instructions, its frame not yet made:
 * the return address into the entry code is on the stack, and the event's
 * frame above it; without the ELF's code the walk would invent a call. */
static void test_handler_stopped_in_its_prologue(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), frame, sp;
    const uint64_t at_push[] = { HANDLER_PC - 0x10, CB_RET, XU_PC_UPCALL, BUSY_PC, MAIN_RET,
                                 START_RET };
    const uint64_t at_mov[] = { HANDLER_PC - 0xf, CB_RET, XU_PC_UPCALL, BUSY_PC, MAIN_RET,
                                START_RET };

    f->env.code = fake_code;
    frame = (isp - 40) & ~15ULL;
    put_frame(f, frame, BUSY_PC, isp);
    sp = frame - 8 * 17 - 8;                /* the call pushed its return address */
    put(f, sp, CB_RET);
    regs_at(f, &r, HANDLER_PC - 0x10, sp, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, at_push, 6);
    /* one instruction on: the old frame pointer pushed, not yet moved */
    put(f, sp - 8, fp);
    regs_at(f, &r, HANDLER_PC - 0xf, sp - 8, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, at_mov, 6);
}

/* A function stopped on its first instruction or its ret keeps its caller. */
static void test_function_entry_and_return(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp);
    const uint64_t entry[] = { BUSY_PC - 0x22, BUSY_PC + 0x100, MAIN_RET, START_RET };
    const uint64_t ret[] = { BUSY_PC + 0x40, BUSY_PC + 0x100, MAIN_RET, START_RET };
    const uint64_t lost[] = { BUSY_PC - 0x22, MAIN_RET, START_RET };

    f->env.code = fake_code;
    put(f, isp - 8, BUSY_PC + 0x100);      /* the call into it, from the function at fp */
    regs_at(f, &r, BUSY_PC - 0x22, isp - 8, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, entry, 4);
    regs_at(f, &r, BUSY_PC + 0x40, isp - 8, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, ret, 4);
    /* without the ELF's code: the caller is skipped, as frame pointers do */
    f->env.code = NULL;
    regs_at(f, &r, BUSY_PC - 0x22, isp - 8, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, lost, 3);
}

/*
 * Functions that make no frame record in a frame-pointer build (leaves,
 * and functions whose only call is inline assembly into the hypercall
 * page: Unikraft's halt), for the frame-pointer walk: their return
 * addresses are on the stack above what their prologues pushed, and the
 * frame pointer still holds their caller's record, whose caller the chain
 * would give instead.
 */
#define LCPU        (TEXT + 0x5000)     /* ukplat_lcpu_halt_irq: framed */
#define LCPU_RET    (LCPU + 0x25)
#define HALT        (TEXT + 0x5100)     /* halt: no frame, calls the stub */
#define HALT_RET    (HALT + 0x10)
#define CLOCK       (TEXT + 0x5200)     /* push %rbx; sub $0x10,%rsp; no frame */
#define CLOCK_RET   (CLOCK + 0x30)
#define NAP         (TEXT + 0x5300)     /* framed */
#define NAP_RET     (NAP + 0x30)
#define NOT_A_RET   (NAP + 0x60)        /* int3 before it: no call */
#define WORKER      (TEXT + 0x5400)     /* framed */

static const uint8_t *frameless_code(const void *ctx, uint64_t addr, size_t len)
{
    static const uint8_t frame[4] = { 0x55, 0x48, 0x89, 0xe5 };
    static const uint8_t clock[5] = { 0x53, 0x48, 0x83, 0xec, 0x10 };
    static const uint8_t call[5] = { 0xe8, 0, 0, 0, 0 };
    static const struct { uint64_t at; const uint8_t *b; size_t n; } put_at[] = {
        { LCPU, frame, 4 }, { NAP, frame, 4 }, { WORKER, frame, 4 }, { CLOCK, clock, 5 },
        { LCPU_RET - 5, call, 5 }, { HALT_RET - 5, call, 5 }, { CLOCK_RET - 5, call, 5 },
        { NAP_RET - 5, call, 5 },
    };
    static uint8_t buf[1024];
    uint64_t start = addr - len;
    size_t i, k;

    (void)ctx;
    if (len > sizeof(buf) || addr < TEXT + 0x5000 || start >= TEXT + 0x5500)
        return NULL;
    memset(buf, 0xcc, len);
    for (k = 0; k < sizeof(put_at) / sizeof(put_at[0]); k++)
        for (i = 0; i < put_at[k].n; i++)
            if (put_at[k].at + i >= start && put_at[k].at + i < addr)
                buf[put_at[k].at + i - start] = put_at[k].b[i];
    return buf;
}

static bool frameless_func_start(const void *ctx, uint64_t pc, uint64_t *start,
                                 bool *thumb)
{
    (void)ctx;
    (void)thumb;
    if (pc < TEXT + 0x5000 || pc >= TEXT + 0x5500)
        return false;
    *start = pc & ~0xffULL;
    return true;
}

static void know_functions(struct fixture *f)
{
    f->env.code = frameless_code;
    f->env.func_start = frameless_func_start;
}

/* Unikraft's idle: the stub's caller halt made no frame, so the record in
 * rbp is ukplat_lcpu_halt_irq's; its return address into
 * ukplat_lcpu_halt_irq is just above the stub's. */
static void test_fp_frameless_caller_of_a_hypercall(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], fp = blocking_chain(f), sp = fp - 32;
    const uint64_t want[] = { ENTRY_SCHED_OP + 10, HALT_RET, LCPU_RET, B_RET, TS_RET };
    const uint64_t skipped[] = { ENTRY_SCHED_OP + 10, HALT_RET, B_RET, TS_RET };

    write_pv_stub(f);
    put(f, sp, 0x246);                  /* r11 */
    put(f, sp + 8, 0x1234);             /* rcx */
    put(f, sp + 16, HALT_RET);
    put(f, sp + 24, LCPU_RET);          /* halt's return address, under LCPU's record */
    regs_at(f, &r, ENTRY_SCHED_OP + 10, sp, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, skipped, 4);
    know_functions(f);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
}

/* A leaf stopped in its body, past a prologue that pushed %rbx and
 * reserved 16 bytes: its return address is 24 bytes above sp. */
static void test_fp_frameless_leaf(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), sp = fp - 8 - 24;
    const uint64_t want[] = { CLOCK + 0x20, NAP_RET, MAIN_RET, START_RET };
    const uint64_t skipped[] = { CLOCK + 0x20, MAIN_RET, START_RET };

    (void)isp;
    know_functions(f);
    put(f, sp + 24, NAP_RET);
    regs_at(f, &r, CLOCK + 0x20, sp, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);
    /* inside the prologue, after the push only: 8 bytes above sp */
    put(f, sp + 8, NAP_RET);
    regs_at(f, &r, CLOCK + 1, sp, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, (const uint64_t[]){ CLOCK + 1, NAP_RET,
                                                                  MAIN_RET, START_RET }, 4);
    /* the word there follows no call: not taken, the walk is today's */
    put(f, sp + 24, NOT_A_RET);
    regs_at(f, &r, CLOCK + 0x20, sp, fp);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, skipped, 3);
}

/* A frameless function in the middle: the record at fp is its callee's,
 * and its return address lies above that record and its own pushes. */
static void test_fp_frameless_in_the_middle(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), g = fp - 8 - 24 - 16;
    const uint64_t want[] = { WORKER + 0x10, CLOCK_RET, NAP_RET, MAIN_RET, START_RET };

    (void)isp;
    know_functions(f);
    put(f, g, fp);                      /* WORKER's record keeps nap's rbp */
    put(f, g + 8, CLOCK_RET);
    put(f, g + 16 + 24, NAP_RET);       /* above clock's three words */
    regs_at(f, &r, WORKER + 0x10, g - 8, g);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
}

/*
 * Upcall entry code on no list (Unikraft's asm_trap_hypervisor_callback):
 * assembly outside every function symbol, recognised by the frame the
 * event left above the stack pointer, not by its name.
 */
static bool entry_is_no_function(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    (void)ctx;
    (void)thumb;
    if (pc >= CB_START && pc < CB_END)
        return false;       /* labels, not functions */
    *start = pc & ~0xffULL;
    return true;
}

static void unlisted_entry(struct fixture *f)
{
    f->env.nr_boundary = 0;
    f->env.func_start = entry_is_no_function;
}

/* Stopped on the stub's first instruction: Xen's bounce frame, rcx and r11
 * over the interrupt frame, is at sp. */
static void test_unlisted_entry_stopped_in_it(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), frame = (isp - 40) & ~15ULL;
    const uint64_t want[] = { CB_START, XU_PC_UPCALL, BUSY_PC, MAIN_RET, START_RET };
    const uint64_t as_a_call[] = { CB_START, MAIN_RET, START_RET };

    put_frame(f, frame, BUSY_PC, isp);
    put(f, frame - 8, 0x11);                /* r11 */
    put(f, frame - 16, 0x22);               /* rcx */
    regs_at(f, &r, CB_START, frame - 16, fp);
    f->env.nr_boundary = 0;
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, as_a_call, 3);
    unlisted_entry(f);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 5);
#endif
    /* no frame there (RFLAGS without its fixed bit): not entry code after
     * all, and nothing is invented */
    put(f, frame + 16, 0);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, as_a_call, 3);
}

/* The handler returns into the unlisted entry code: the frames above were
 * interrupted, not called. */
static void test_unlisted_entry_below_a_handler(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[32], isp, fp = interrupted_thread(f, 0, &isp), frame, h;
    const uint64_t want[] = { HANDLER_PC, CB_RET, XU_PC_UPCALL, BUSY_PC, MAIN_RET, START_RET };
    const uint64_t as_a_call[] = { HANDLER_PC, CB_RET, MAIN_RET, START_RET };
    unsigned int k;

    frame = (isp - 40) & ~15ULL;
    put_frame(f, frame, BUSY_PC, isp);
    for (k = 1; k <= 17; k++)
        put(f, frame - 8 * k, 0x1000 + k);
    h = frame - 8 * 17 - 16;
    handler_stopped(f, &r, h, fp);
    f->env.nr_boundary = 0;
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, as_a_call, 4);
    unlisted_entry(f);
    walk(f, &xu_unwind_fp_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#ifdef HAVE_LIBDW
    walk(f, &xu_unwind_auto_ops, &f->env, &r, pcs, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 6);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pv_hypercall_keeps_its_caller, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pvh_hypercall_pushes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_max_depth_one_reads_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upcall_on_the_same_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upcall_on_a_lower_interrupt_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upcall_on_a_higher_interrupt_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_downward_chain_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crossings_are_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stopped_in_entry_code, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upcall_during_a_hypercall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handler_stopped_in_its_prologue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_function_entry_and_return, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_frameless_caller_of_a_hypercall, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fp_frameless_leaf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_frameless_in_the_middle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unlisted_entry_stopped_in_it, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unlisted_entry_below_a_handler, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
