/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest.h - what the shared ground-truth programs (ratio.c, nested.c, smp.c)
 * get from the per-type boot code (pv/, pvh/, arm64/).
 *
 * The shared code is the measured program: its call graph and the work done
 * in each function are the ground truth the lab compares profiles with.  The
 * boot code only brings the CPU into 64-bit C, gives a console and starts a
 * second vCPU; it runs once, so it never shows up in a profile.
 *
 * Every guest's chains end in an asm entry that zeroes the frame pointer (RBP;
 * x29 and x30 on arm64) before its first call, so a frame-pointer walk ends
 * cleanly at:
 *     vCPU 0:  _start;start_kernel;main;...
 *     vCPU 1:  _start_ap;secondary_main;...
 */
#ifndef GUEST_H
#define GUEST_H

#include <stdint.h>

/* Console: PV console ring (PV), Xen's debug port 0xe9 (PVH) or the emulated
 * SBSA UART (arm64).  Slow: the
 * programs print only every few hundred rounds so the hot loops dominate. */
void console_puts(const char *s);
void console_hex(unsigned long v);

/* Bring up vCPU id (VCPUOP_initialise + VCPUOP_up; arm64: PSCI CPU_ON) running secondary_main()
 * on its own stack.  Returns 0 or the (negative) hypercall error. */
long start_secondary_vcpu(unsigned int id);

/* VCPUOP_* (Xen's vcpu_op hypercall) for vCPU vcpu; returns Xen's result. */
long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg);

/* The cycle counter: the TSC on x86, the virtual counter on ARM.  Only
 * its differences are used, never its rate (see truth.h).  64 bits on every
 * width: a 32-bit guest's TSC would wrap in seconds. */
static inline __attribute__((always_inline)) uint64_t guest_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    unsigned long v;

    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
#elif defined(__arm__)
    uint64_t v;

    /* CNTVCT, the AArch32 view of the same virtual counter */
    __asm__ volatile("isb; mrrc p15, 1, %Q0, %R0, c14" : "=r"(v) : : "memory");
    return v;
#else
#error "guest_cycles: unknown architecture"
#endif
}

/*
 * Events, for the hcall program only (pv/events.c, pvh/events.c): map the
 * shared info page, bind VIRQ_TIMER, route event upcalls to the asm entry
 * hypervisor_callback (PV: CALLBACKTYPE_event; PVH: the vector callback and
 * an IDT gate), start Xen's periodic timer at period_ns and enable event
 * delivery.  Returns the shared info page (struct shared_info *), or NULL with
 * *err set to the failing hypercall's error.
 */
void *events_init(unsigned long period_ns, long *err);

/* The C half of the upcall, called by hypervisor_callback (hcall.c). */
void do_hypervisor_callback(void);

/* A hypercall through the hypercall page (page + nr * 32); the boot code's own
 * copies stay static so the other programs do not change. */
extern char hypercall_page[];
#if defined(__x86_64__)
static inline long guest_hypercall3(unsigned int nr, unsigned long a1,
                                    unsigned long a2, unsigned long a3)
{
    register unsigned long rdi __asm__("rdi") = a1;
    register unsigned long rsi __asm__("rsi") = a2;
    register unsigned long rdx __asm__("rdx") = a3;
    long ret;

    __asm__ volatile("call *%[fn]"
                     : "=a"(ret), "+r"(rdi), "+r"(rsi), "+r"(rdx)
                     : [fn] "r"(hypercall_page + nr * 32)
                     : "memory", "rcx", "r11", "r10", "r8", "r9");
    return ret;
}
#endif

/* Provided by the shared program. */
void main(void);
void secondary_main(void);

/* Rounds of the main loop completed: the guest's heartbeat.  Exported so a
 * debugger, xenctx or a test can see the guest make progress. */
extern volatile unsigned long progress;

/*
 * One unit of work: on average WORK_ITERS iterations of a loop on a volatile
 * local.  Expanded inline, so the time is the calling function's own
 * ("self") time.
 *
 * The local lives in the stack frame, which matters: GCC 12 gives a leaf
 * function that needs no stack no frame at all, even with
 * -mno-omit-leaf-frame-pointer, and a frame-pointer walk from such a leaf
 * skips its caller.
 *
 * The length of each call is drawn uniformly from [1/2, 3/2) of the mean, so
 * the loop has no period a sampler's own period could alias with (a strictly
 * periodic guest sampled at a near-commensurate rate sees the same few points
 * of its loop over and over, and the shares come out several points off).
 * Over the thousands of calls in a run the work per call still averages out
 * equal.  WORK_ITERS makes a unit about 0.1 ms under QEMU TCG: call and loop
 * overhead is noise (a few dozen instructions per unit), and even a guest left
 * 10 % of the CPU by a busy profiler runs hundreds of rounds per second.
 */
#ifndef WORK_ITERS
#define WORK_ITERS 10000UL
#endif

/* xorshift64, or xorshift32 where a long has 32 bits (its shifts are
 * Marsaglia's for that width): racy when both vCPUs of smp use it, which only
 * scrambles it more.  Each program defines the seed as
 * unsigned long work_seed = WORK_SEED_INIT; */
#define WORK_SEED_INIT ((unsigned long)0x9e3779b97f4a7c15ULL)
extern unsigned long work_seed;
static inline __attribute__((always_inline)) unsigned long work_random(void)
{
    unsigned long x = work_seed;

#if __SIZEOF_LONG__ == 8
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
#else
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
#endif
    work_seed = x;
    return x;
}

/* The loop count of one call's work: units times a draw from [1/2, 3/2) of
 * WORK_ITERS (the one place the length is drawn; truth.h's TIMED_WORK too). */
#define WORK_LENGTH(units) ((units) * (WORK_ITERS / 2 + work_random() % WORK_ITERS))

#define WORK(units)                                                     \
    do {                                                                \
        unsigned long w_n_ = WORK_LENGTH(units);                        \
        for (volatile unsigned long w_i_ = 0; w_i_ < w_n_; w_i_++)      \
            ;                                                           \
    } while (0)

/* After a call that must not be the function's last instruction (else the
 * return address would symbolize as the next function). */
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

/* Rounds between "alive" lines, for a program doing UNITS units per round:
 * about every 15 s of the guest's own time.  Printing is slow (each PVH byte
 * is a trip through Xen), so it must stay far below 0.1 % of the samples. */
#define PRINT_EVERY(units) (160000UL / (units))

#define NOINLINE __attribute__((noinline, used))

#endif
