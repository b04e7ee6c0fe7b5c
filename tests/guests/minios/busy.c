/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * busy.c: one thread of our own inside Xen's Mini-OS, for the lab's minios set.
 * Why: Mini-OS idle only ever shows one stack; this gives it known work, sleeps and timer
 * upcalls, so the profiler's shares, idle stacks and upcall frames can all be judged.
 *
 * Not part of Mini-OS: tests/guests/minios/build copies it into an unpacked Mini-OS tree
 * (outside this repository) and adds it to Mini-OS's sources through MINIOS_CONFIG.  The
 * hook is Mini-OS's own: kernel.c's app_main() is weak, and this file's app_main()
 * replaces it to start the thread.
 *
 * The thread, "busy", loops over rounds: busy_function_1 once, busy_function_2 three
 * times, busy_function_3 six times, each call doing the same work on average (a random
 * length, uniform in [1/2, 3/2) of the mean, so the loop has no period for the sampler's
 * period to alias with).  Of the busy thread's working samples, the expected shares are
 * 10/30/60 %.  After every BUSY_ROUNDS_PER_SLEEP rounds it sleeps BUSY_SLEEP_MS with
 * msleep(): Mini-OS then has no runnable thread and blocks in
 * schedule() -> block_domain() -> HYPERVISOR_sched_op() -> hypercall_page.  Mini-OS's
 * timer handler re-arms a 1 ms timer each time it runs, so while the thread works, event
 * upcalls (hypervisor_callback) interrupt it about every millisecond.
 */
#include <mini-os/os.h>
#include <mini-os/sched.h>
#include <mini-os/time.h>
#include <mini-os/console.h>

/* About 0.1 ms per 10,000 iterations under QEMU TCG (tests/guests/guest.h). */
#define BUSY_ITERS 20000UL
#define BUSY_ROUNDS_PER_SLEEP 8
#define BUSY_SLEEP_MS 3

volatile unsigned long busy_progress;
static unsigned long busy_seed = (unsigned long)0x9e3779b97f4a7c15ULL;

static unsigned long busy_random(void)
{
    /* xorshift64, or xorshift32 in Mini-OS's x86_32 build: cheap, and enough to break
     * any period. */
    unsigned long x = busy_seed;

#if __SIZEOF_LONG__ == 8
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
#else
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
#endif
    busy_seed = x;
    return x;
}

/*
 * The three workers run the same loop, instruction for instruction: under QEMU's TCG the
 * cost of a loop is its instruction count, and a loop that differed per worker (a step
 * of 1, 2 or 3) skewed the measured 10/30/60 to 8/26/66.  Each counts its calls in a
 * counter of its own after the loop, so that no compiler folds them into one (identical
 * code folding would merge their names); the volatile loop variable keeps a frame in
 * each; noinline and noclone keep them out of busy_thread at -O3.
 */
#define BUSY_WORK()                                                           \
    do {                                                                      \
        volatile unsigned long i_;                                            \
        unsigned long n_ = BUSY_ITERS / 2 + busy_random() % BUSY_ITERS;       \
        for (i_ = 0; i_ < n_; i_++)                                           \
            ;                                                                 \
    } while (0)

volatile unsigned long busy_calls_1, busy_calls_2, busy_calls_3;
__attribute__((noinline, noclone)) void busy_function_1(void) { BUSY_WORK(); busy_calls_1++; }
__attribute__((noinline, noclone)) void busy_function_2(void) { BUSY_WORK(); busy_calls_2++; }
__attribute__((noinline, noclone)) void busy_function_3(void) { BUSY_WORK(); busy_calls_3++; }

__attribute__((noinline, noclone)) static void busy_thread(void *unused)
{
    int i, round = 0;

    printk("busy: GUEST_RUNNING\n");
    for (;;) {
        busy_function_1();
        for (i = 0; i < 3; i++)
            busy_function_2();
        for (i = 0; i < 6; i++)
            busy_function_3();
        busy_progress++;
        if (++round == BUSY_ROUNDS_PER_SLEEP) {
            round = 0;
            msleep(BUSY_SLEEP_MS);
        }
        /* Not a tail position: no call above is this loop's last instruction. */
        barrier();
    }
}

int app_main(void *p)
{
    create_thread("busy", busy_thread, p);
    return 0;
}
