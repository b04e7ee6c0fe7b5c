/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcall: ratio's busy functions, plus a blocking hypercall through Xen's
 * hypercall page and a periodic event upcall that interrupts whatever runs.
 *
 * Call graph (function_N as in ratio.c: a leaf with WORK(1)):
 *     main -> function_1   x1 per round
 *     main -> function_2   x3 per round
 *     main -> function_3   x6 per round
 *     main -> block_for    every BLOCK_EVERY rounds, before a random one of the
 *                          round's ten calls, BLOCK_NS of wall time:
 *                 block_for -> now_ns -> hypercall_page      (HVMOP_get_time)
 *                 block_for -> HYPERVISOR_set_timer_op -> hypercall_page
 *                 block_for -> HYPERVISOR_sched_op     -> hypercall_page
 *                                  (SCHEDOP_block: the vCPU sits here;
 *                                   timer and block repeat until the deadline)
 *     [event upcall, every UPCALL_PERIOD_NS of wall time, at any point]
 *         hypervisor_callback (asm, pv/upcall.S, pvh/upcall.S)
 *             -> do_hypervisor_callback   (~UPCALL_ITERS iterations)
 *                 (only during block_for: -> now_ns -> hypercall_page,
 *                                         -> HYPERVISOR_set_timer_op -> hypercall_page)
 *
 * Expected stacks, root first:
 *     _start;start_kernel;main;function_N
 *     _start;start_kernel;main;block_for;HYPERVISOR_sched_op;hypercall_page
 *     _start;start_kernel;main;function_N;<boundary>;hypervisor_callback;do_hypervisor_callback
 * where <boundary> is the profiler's marker of an interrupt frame and the
 * frames below it are whatever the upcall interrupted (a busy function, or
 * block_for;HYPERVISOR_sched_op;hypercall_page when the timer woke the
 * blocked vCPU).
 *
 * Expected: function_1/2/3 get 10/30/60 % of the samples whose leaf is a busy
 * function (the upcall's timer is wall-clock, so it interrupts the busy
 * functions in proportion to their time and takes nothing from one more than
 * from another).  The blocked and upcall shares depend on how much CPU the
 * guest gets; they are measured (21-28 % and 2-5 % in the lab), not predicted.
 * ratio and nested are left without events so their judges stay as they were.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/sched.h>
#include <xen/hvm/hvm_op.h>

#include "guest.h"
#include "truth.h"

/* Wall time between upcalls: Xen's minimum periodic timer is 1 ms; 2 ms gives
 * several hundred upcalls a second without the upcall dominating. */
#define UPCALL_PERIOD_NS 2000000UL
/* Work per upcall, on average: a quarter of a unit, about 25 us under TCG, so
 * the upcall takes a few % of the guest's CPU. */
#define UPCALL_ITERS (WORK_ITERS / 4)
/* Blocking: every BLOCK_EVERY rounds (80 units, ~8 ms of guest CPU) block for
 * BLOCK_NS of Xen system time: 21-28 % of the samples in the lab. */
#define BLOCK_EVERY 8
#define BLOCK_NS 3000000UL
/* Wakes before the deadline (each periodic tick wakes the blocked vCPU) are
 * bounded: 3 ms at 2 ms ticks needs a handful, never 64. */
#define BLOCK_MAX_WAKES 64

/* The deadline of the block_for in progress, 0 outside: the upcall re-arms
 * the one-shot timer while it is set (see block_for). */
static volatile uint64_t block_deadline;
/* How soon the upcall re-arms it: the longest a lost wakeup can cost. */
#define REARM_NS 1000000UL

volatile unsigned long progress;
volatile unsigned long upcalls;     /* do_hypervisor_callback runs */
volatile unsigned long blocks;      /* block_for calls completed */
unsigned long work_seed = WORK_SEED_INIT;

/* Set by events_init before it enables delivery: the first upcall may come
 * before events_init returns. */
struct shared_info *shinfo;

NOINLINE void function_1(void) { TIMED_WORK(1, 1); }
NOINLINE void function_2(void) { TIMED_WORK(2, 1); }
NOINLINE void function_3(void) { TIMED_WORK(3, 1); }

/*
 * The hypercall wrappers call their entry of the hypercall page directly, as
 * Mini-OS's and Linux's do, so a vCPU blocked in Xen has the page's entry
 * below it and this wrapper's frame below that.  Real functions with a frame
 * (NOINLINE, and the call is followed by the epilogue, so the return address
 * symbolizes as the wrapper).
 */
NOINLINE long HYPERVISOR_sched_op(int cmd, void *arg)
{
    /* A stack slot: GCC gives a leaf (the call is hidden in asm) no frame
     * otherwise, even with -mno-omit-leaf-frame-pointer. */
    volatile int framed = 0;
    register unsigned long rdi __asm__("rdi") = (unsigned long)cmd;
    register unsigned long rsi __asm__("rsi") = (unsigned long)arg;
    long ret;

    (void)framed;
    __asm__ volatile("call hypercall_page + %c[off]"
                     : "=a"(ret), "+r"(rdi), "+r"(rsi)
                     : [off] "i"(__HYPERVISOR_sched_op * 32)
                     : "memory", "rcx", "rdx", "r11", "r10", "r8", "r9");
    KEEP_FRAME();
    return ret;
}

NOINLINE long HYPERVISOR_set_timer_op(uint64_t timeout)
{
    /* A stack slot: GCC gives a leaf (the call is hidden in asm) no frame
     * otherwise, even with -mno-omit-leaf-frame-pointer. */
    volatile int framed = 0;
    register unsigned long rdi __asm__("rdi") = timeout;
    long ret;

    (void)framed;
    __asm__ volatile("call hypercall_page + %c[off]"
                     : "=a"(ret), "+r"(rdi)
                     : [off] "i"(__HYPERVISOR_set_timer_op * 32)
                     : "memory", "rcx", "rdx", "rsi", "r11", "r10", "r8", "r9");
    KEEP_FRAME();
    return ret;
}

/*
 * Xen's system time (NOW(), ns since boot), asked of Xen: HVMOP_get_time,
 * which any guest may call, PV included (hvm_op is in every hypercall table,
 * and this op does not look at the caller's type).  The guest's own pvclock
 * (vcpu_time_info + TSC) was measured up to a second off Xen's NOW() under
 * QEMU TCG, in both directions: a one-shot armed from it fired at once or
 * long after the deadline.  The pvclock stays as the fallback.
 */
NOINLINE uint64_t now_ns(void)
{
    struct xen_hvm_get_time gt = { 0 };

    if (guest_hypercall3(__HYPERVISOR_hvm_op, HVMOP_get_time, (unsigned long)&gt, 0) == 0)
        return gt.now;

    volatile struct vcpu_time_info *t = &shinfo->vcpu_info[0].time;
    uint32_t ver, mul;
    uint64_t ts, sys, tsc;
    int8_t shift;
    int tries = 0;

    do {
        ver = t->version;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        ts = t->tsc_timestamp;
        sys = t->system_time;
        mul = t->tsc_to_system_mul;
        shift = t->tsc_shift;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    } while (((ver & 1) || ver != t->version) && ++tries < 1000);

    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    tsc = ((uint64_t)hi << 32) | lo;
    uint64_t delta = tsc - ts;
    if (shift < 0)
        delta >>= -shift;
    else
        delta <<= shift;
    return sys + (uint64_t)(((unsigned __int128)delta * mul) >> 32);
}

/*
 * Block this vCPU for ns of Xen system time: arm the one-shot timer, then
 * SCHEDOP_block (Xen enables event delivery on block) until the deadline.
 *
 * Xen stops a vCPU's periodic timer while it is descheduled
 * (xen/common/sched/core.c), so a blocked vCPU wakes only for the one-shot.
 * If that fires between the deadline check and the block (the host may
 * preempt us there), the upcall takes it and the block would wait for
 * nothing, for ever.  PV could
 * close that window by masking events (SCHEDOP_block unmasks them
 * atomically), PVH could not (its block needs RFLAGS.IF set, and an
 * interrupt can come between `sti` and the hypercall page), so both do the
 * same: while block_deadline is set, every upcall re-arms the one-shot
 * REARM_NS ahead, and a lost wakeup costs at most that.
 */
NOINLINE void block_for(unsigned long ns)
{
    uint64_t deadline = now_ns() + ns;

    block_deadline = deadline;
    for (int i = 0; i < BLOCK_MAX_WAKES && now_ns() < deadline; i++) {
        struct truth_mark mark;

        HYPERVISOR_set_timer_op(deadline);
        /* The wall time of the block itself, what a profile should show as blocked
         * (truth.h): from the call to the return, wake-up latency included. */
        truth_begin(&mark);
        HYPERVISOR_sched_op(SCHEDOP_block, 0);
        truth_end(&mark, TRUTH_SLOT_BLOCK);
    }
    block_deadline = 0;
    blocks++;
}

/*
 * The C half of the upcall (called by hypervisor_callback with events masked:
 * PV by Xen's bounce, PVH by the interrupt gate).  Acknowledge every pending
 * port of the 2-level ABI (only VIRQ_TIMER is bound), then a small, known
 * amount of work so upcall samples exist.
 */
NOINLINE void do_hypervisor_callback(void)
{
    struct vcpu_info *vi = &shinfo->vcpu_info[0];

    vi->evtchn_upcall_pending = 0;
    unsigned long sel = __atomic_exchange_n(&vi->evtchn_pending_sel, 0, __ATOMIC_SEQ_CST);
    for (int n = 0; sel && n < 64; n++) {
        unsigned int w = (unsigned int)__builtin_ctzl(sel);

        sel &= sel - 1;
        unsigned long bits = shinfo->evtchn_pending[w] & ~shinfo->evtchn_mask[w];

        __atomic_and_fetch(&shinfo->evtchn_pending[w], ~bits, __ATOMIC_SEQ_CST);
    }
    upcalls++;
    unsigned long n = UPCALL_ITERS / 2 + work_random() % UPCALL_ITERS;
    /* Timed, so the judge can set the share of samples in upcalls against
     * the time the guest spent in them (truth.h; vCPU 0 is the only one). */
    struct truth_mark mark;

    truth_begin(&mark);
    for (volatile unsigned long i = 0; i < n; i++)
        ;
    truth_end(&mark, TRUTH_SLOT_UPCALL);
    if (block_deadline)
        HYPERVISOR_set_timer_op(now_ns() + REARM_NS);
}

void main(void)
{
    long err = 0;

    if (!events_init(UPCALL_PERIOD_NS, &err)) {
        shinfo = 0;
        console_puts("hcall: events FAILED rc=");
        console_hex((unsigned long)err);
        console_puts("\n");
    } else {
        console_puts("hcall: events on\n");
    }
    if (shinfo) {
        /* Self-test on the console: periodic upcalls arrive while busy, Xen
         * time moves, and one short block returns. */
        uint64_t t0 = now_ns();
        for (int i = 0; i < 200 && upcalls < 5; i++)
            function_1();
        uint64_t t1 = now_ns();
        console_puts("hcall: selftest upcalls=");
        console_hex(upcalls);
        console_puts(" busy_ns=");
        console_hex(t1 - t0);
        console_puts(" now=");
        console_hex(t1);
        console_puts(" system_time=");
        console_hex(shinfo->vcpu_info[0].time.system_time);
        console_puts("\n");
        unsigned long u0 = upcalls;
        t0 = now_ns();
        block_for(1000000);
        t1 = now_ns();
        console_puts("hcall: selftest block_for(1 ms) took_ns=");
        console_hex(t1 - t0);
        console_puts(" upcalls during it=");
        console_hex(upcalls - u0);
        console_puts("\n");
    }
    console_puts("hcall: GUEST_RUNNING\n");
    for (;;) {
        /* Every BLOCK_EVERY rounds, block before one of the round's ten calls,
         * chosen at random: whatever runs first after a wake (when samplers
         * may land more often) is then function_1/2/3 in their own 1:3:6. */
        int at = (progress + 1) % BLOCK_EVERY == 0 && shinfo ? (int)(work_random() % 10) : -1;
        int k = 0;

        if (at == k++)
            block_for(BLOCK_NS);
        function_1();
        for (int i = 0; i < 3; i++) {
            if (at == k++)
                block_for(BLOCK_NS);
            function_2();
        }
        for (int i = 0; i < 6; i++) {
            if (at == k++)
                block_for(BLOCK_NS);
            function_3();
        }
        if ((++progress % PRINT_EVERY(10)) == 0) {
            console_puts("hcall: alive progress=");
            console_hex(progress);
            console_puts(" upcalls=");
            console_hex(upcalls);
            console_puts(" blocks=");
            console_hex(blocks);
            console_puts("\n");
        }
    }
}

/* Single-vCPU guest: never started. */
void secondary_main(void)
{
    for (;;)
        KEEP_FRAME();
}
