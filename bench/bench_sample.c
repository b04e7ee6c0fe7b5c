/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_sample.c - the software part of a sample, on the simulated guest.
 *
 * What it measures: one tick of the real sampler (pause, registers, frame
 * walk through the page-table walker and frame cache, unpause, intern) with
 * the simulated backend, whose hypercalls cost nothing: i.e. everything
 * xen-uniprof adds on top of the hypercalls.  Warm caches.
 *
 *   1. ns per sample and per frame for 10-, 30- and 100-deep stacks;
 *   2. flatness: ns per sample and peak RSS after 1,000 and after 100,000
 *      samples of a guest with 1,000 distinct stacks.
 *
 * Usage: bench_sample [ticks-per-depth [depth]]   (default 200000, all)
 *
 * With a depth, only that depth is run (no flatness part): for counting
 * instructions with callgrind, where wall time is too noisy on a shared
 * machine.  The difference between two runs of N and 2N ticks, divided by
 * N, is the instructions of one sample:
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null bench_sample N 30
 * prints the total in its summary ("Collected : ...").
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sim_guest.h"
#include "sample/xu_sampler.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long peak_rss_kib(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

struct bench {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_profile *p;
};

/* nstates register states, each a distinct chain of the given depth. */
static int bench_init(struct bench *b, unsigned int depth, unsigned int nstates)
{
    uint64_t *chain = calloc(depth, sizeof(*chain));
    struct xu_vcpu_regs regs;
    unsigned int s, k;

    if (!chain || sim_guest_init(&b->g, XU_GUEST_PV, 1,
                                 (size_t)(nstates < 64 ? nstates : 64) * (SIM_STACK_SPAN >> 12) + 1024) < 0)
        return -1;
    xu_sim_target_open(b->g.sim, &b->t, NULL);
    for (s = 0; s < nstates; s++) {
        for (k = 0; k < depth; k++)
            chain[k] = SIM_TEXT_BASE + 0x1000 + ((uint64_t)(s * 7 + k) % 4096) * 16 + k;
        /* at most 64 stacks in memory; states beyond share them, still distinct */
        if (sim_guest_chain(&b->g, s % 64, chain, depth, &regs) < 0)
            return -1;
        regs.ip += s;   /* distinct stacks even where memory is shared */
        if (xu_sim_push_state(b->g.sim, 0, &regs) < 0)
            return -1;
    }
    free(chain);
    b->m = xu_mem_new(&b->t, NULL);
    b->p = xu_profile_new(0);
    return b->m && b->p ? 0 : -1;
}

static void bench_fini(struct bench *b)
{
    xu_profile_free(b->p);
    xu_mem_free(b->m);
    xu_target_close(&b->t);
    sim_guest_fini(&b->g);
}

/* Run n ticks back to back; returns seconds. */
static double run_ticks(struct bench *b, unsigned int depth, uint64_t n)
{
    struct xu_sampler_config cfg = { .frequency_hz = 1e6, .max_depth = depth + 1,
                                     .max_ticks = n, .no_sleep = 1 };
    struct xu_sampler_stats st;
    double t0 = now_s();

    if (xu_sampler_run(&b->t, b->m, b->p, &cfg, &st) < 0 || st.samples != n) {
        fprintf(stderr, "bench_sample: sampler failed\n");
        exit(1);
    }
    return now_s() - t0;
}

/*
 * The machine is shared: a preemption inside a timed window would be taken
 * for cost.  So a window is timed REPEATS times and the fastest one counts.
 */
#define REPEATS 5

static double best_of(struct bench *b, unsigned int depth, uint64_t n)
{
    double best = 0, s;
    int r;

    for (r = 0; r < REPEATS; r++) {
        s = run_ticks(b, depth, n / REPEATS ? n / REPEATS : 1);
        if (r == 0 || s < best)
            best = s;
    }
    return best * (double)REPEATS;
}

int main(int argc, char **argv)
{
    static const unsigned int depths[] = { 10, 30, 100 };
    uint64_t ticks = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    unsigned int only = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 0;
    struct bench b;
    double s, s1k, s100k;
    long rss1k, rss100k;
    uint64_t done;
    unsigned int i;

    printf("software part of a sample (simulated backend, warm caches, %llu samples each,\n"
           "fastest fifth counted)\n",
           (unsigned long long)ticks);
    printf("%8s %14s %14s\n", "depth", "ns/sample", "ns/frame");
    if (only > 1000)
        return 2;
    for (i = 0; i < (only ? 1 : sizeof(depths) / sizeof(depths[0])); i++) {
        unsigned int depth = only ? only : depths[i];

        memset(&b, 0, sizeof(b));
        if (bench_init(&b, depth, 16) < 0)
            return 1;
        run_ticks(&b, depth, 1000);     /* warm up */
        s = best_of(&b, depth, ticks);
        printf("%8u %14.1f %14.2f\n", depth, s * 1e9 / (double)ticks,
               s * 1e9 / (double)ticks / depth);
        bench_fini(&b);
    }
    if (only)
        return 0;

    /* Flatness: 1,000 distinct 30-deep stacks; the fastest of five windows
     * of 1,000 samples right after the first 1,000, and after 100,000. */
    memset(&b, 0, sizeof(b));
    if (bench_init(&b, 30, 1000) < 0)
        return 1;
    run_ticks(&b, 30, 1000);
    s1k = best_of(&b, 30, 5000) / 5;
    rss1k = peak_rss_kib();
    for (done = 6000; done < 100000; done += 1000)
        run_ticks(&b, 30, 1000);
    s100k = best_of(&b, 30, 5000) / 5;
    rss100k = peak_rss_kib();
    printf("\nflatness (1,000 distinct 30-deep stacks, best of 5 windows of 1,000 samples):\n");
    printf("  ns/sample over samples 1,001-6,000:       %8.1f   peak RSS %ld KiB\n",
           s1k * 1e9 / 1000, rss1k);
    printf("  ns/sample over samples 100,001-105,000:   %8.1f   peak RSS %ld KiB\n",
           s100k * 1e9 / 1000, rss100k);
    printf("  ratio late/early: %.2f\n", s100k / s1k);
    bench_fini(&b);
    return 0;
}
