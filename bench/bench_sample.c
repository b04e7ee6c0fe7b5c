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
 * Usage: bench_sample [ticks-per-depth]   (default 200000)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sim_guest.h"
#include "xu_sampler.h"

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

int main(int argc, char **argv)
{
    static const unsigned int depths[] = { 10, 30, 100 };
    uint64_t ticks = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    struct bench b;
    double s, s1k, s100k;
    long rss1k, rss100k;
    uint64_t done;
    unsigned int i;

    printf("software part of a sample (simulated backend, warm caches, %llu samples each)\n",
           (unsigned long long)ticks);
    printf("%8s %14s %14s\n", "depth", "ns/sample", "ns/frame");
    for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
        memset(&b, 0, sizeof(b));
        if (bench_init(&b, depths[i], 16) < 0)
            return 1;
        run_ticks(&b, depths[i], 1000);     /* warm up */
        s = run_ticks(&b, depths[i], ticks);
        printf("%8u %14.1f %14.2f\n", depths[i], s * 1e9 / (double)ticks,
               s * 1e9 / (double)ticks / depths[i]);
        bench_fini(&b);
    }

    /* Flatness: 1,000 distinct 30-deep stacks, windows of 1,000 samples. */
    memset(&b, 0, sizeof(b));
    if (bench_init(&b, 30, 1000) < 0)
        return 1;
    run_ticks(&b, 30, 1000);
    s1k = run_ticks(&b, 30, 1000);
    rss1k = peak_rss_kib();
    for (done = 2000; done < 100000; done += 1000)
        run_ticks(&b, 30, 1000);
    s100k = run_ticks(&b, 30, 1000);
    rss100k = peak_rss_kib();
    printf("\nflatness (1,000 distinct 30-deep stacks):\n");
    printf("  ns/sample over samples 1,001-2,000:     %8.1f   peak RSS %ld KiB\n",
           s1k * 1e9 / 1000, rss1k);
    printf("  ns/sample over samples 100,001-101,000: %8.1f   peak RSS %ld KiB\n",
           s100k * 1e9 / 1000, rss100k);
    printf("  ratio late/early: %.2f\n", s100k / s1k);
    bench_fini(&b);
    return 0;
}
