/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_unwind.c - the software cost of a CFI walk against a frame-pointer
 * walk of the same depth, on the simulated guest (warm caches).
 *
 * Per sample, as the sampler does it: xu_mem_begin, set the context, walk.
 * Times are this thread's CPU time, best of five interleaved runs.
 * Three walks over 10-, 30- and 100-deep stacks:
 *   fp          frame-pointer chain, xu_unwind_fp
 *   cfi/fp      the same stack walked by CFI that describes frame-pointer
 *               functions (CFA = rbp + 16): the same two reads per frame
 *               plus a binary search each
 *   cfi/nofp    a -fomit-frame-pointer stack (CFA = rsp + N): one read per
 *               frame plus the search
 * The table has 262,144 rows (65,536 functions of four rows each), about
 * what the CFI of a 10 MB binary compiles to, and the stacks' functions are
 * spread over it, so the searches are not artificially short.
 *
 * Then the same three as whole samples through the real sampler (pause,
 * registers, walk, unpause, intern into the profile), which is what the
 * 2x bound the CFI unwinder is held to.
 *
 * Usage: bench_unwind [ELF...]   each ELF's CFI table is also built and its
 *                                build time and size reported.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sim_guest.h"
#include "unwind/xu_cfi.h"
#include "mem/xu_mem.h"
#include "profile/xu_profile.h"
#include "sample/xu_sampler.h"
#include "unwind/xu_unwind.h"

#define NFUNCS      65536u
#define FUNC_BYTES  64u
#define NOFP_STACK  0xffffc90200000000ULL
#define NOFP_BYTES  0x10000ULL
#define REPEATS     5

/* CPU time of this thread: on a shared machine, time spent descheduled
 * would otherwise land on whichever walk was running. */
static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t func_addr(unsigned int i)
{
    return SIM_TEXT_BASE + (uint64_t)i * FUNC_BYTES;
}

/* Function i's frame size in the frameless variant: 16..136 bytes, 8-aligned. */
static int32_t nofp_frame(unsigned int i)
{
    return (int32_t)(16 + 8 * (i % 16));
}

/* Even functions keep frame pointers, odd ones are frameless; four rows
 * each, like a compiled function: entry, prologue, body, epilogue. */
static struct xu_cfi_table *make_table(void)
{
    struct xu_cfi_row *rows = calloc((size_t)NFUNCS * 4, sizeof(*rows));
    struct xu_cfi_table *t = NULL;
    unsigned int i, k;

    if (!rows)
        return NULL;
    for (i = 0; i < NFUNCS; i++) {
        struct xu_cfi_row *r = &rows[4 * i];
        uint64_t a = func_addr(i);

        for (k = 0; k < 4; k++) {
            r[k].kind = XU_CFI_RULE;
            r[k].cfa_reg = XU_CFI_REG_SP;
            r[k].cfa_off = 8;
            r[k].ra_off = -8;
        }
        r[0].start = a;      r[0].end = a + 1;
        r[1].start = a + 1;  r[1].end = a + 4;
        r[2].start = a + 4;  r[2].end = a + 60;
        r[3].start = a + 60; r[3].end = a + FUNC_BYTES;
        r[1].cfa_off = 16;
        if (i % 2 == 0) {   /* push %rbp; mov %rsp,%rbp */
            r[1].fp = XU_CFI_FP_AT_CFA;
            r[1].fp_off = -16;
            r[2].cfa_reg = XU_CFI_REG_FP;
            r[2].cfa_off = 16;
            r[2].fp = XU_CFI_FP_AT_CFA;
            r[2].fp_off = -16;
        } else {            /* sub $N,%rsp */
            r[2].cfa_off = nofp_frame(i);
        }
    }
    if (xu_cfi_from_rows(rows, (size_t)NFUNCS * 4, NULL, &t) < 0)
        t = NULL;
    free(rows);
    return t;
}

/* pcs[k] in the body of a function of the given parity, spread over the text. */
static void make_chain(uint64_t *pcs, unsigned int depth, unsigned int parity)
{
    unsigned int k;

    for (k = 0; k < depth; k++) {
        unsigned int f = ((k * 2654435761u) % (NFUNCS / 2)) * 2 + parity;

        pcs[k] = func_addr(f) + 0x20;
    }
}

/* The frameless stack: function of pcs[k] has nofp_frame bytes below its
 * return address; the outermost one's return address is 0. */
static int make_nofp_stack(struct sim_guest *g, const uint64_t *pcs, unsigned int depth,
                           struct xu_vcpu_regs *regs)
{
    uint64_t sp = NOFP_STACK + NOFP_BYTES - 64;
    int k;

    for (k = (int)depth - 1; k >= 0; k--) {
        unsigned int f = (unsigned int)((pcs[k] - SIM_TEXT_BASE) / FUNC_BYTES);

        sp -= 8;    /* the return address into pcs[k]'s caller */
        if (xu_sim_write_u64(g->sim, g->root, sp, k + 1 < (int)depth ? pcs[k + 1] : 0) < 0)
            return -1;
        sp -= (uint64_t)nofp_frame(f) - 8;
    }
    memset(regs, 0, sizeof(*regs));
    regs->online = true;
    regs->kernel_mode = true;
    regs->mmu.paging = XU_PAGING_LONG4;
    regs->mmu.root = g->root;
    regs->ip = pcs[0];
    regs->sp = sp;
    regs->fp = 0x1234;      /* rbp is an ordinary register here */
    return 0;
}

/* Check that the walk gives want, or exit. */
static void check_walk(struct xu_mem *m, const struct xu_unwinder_ops *ops, const void *ctx,
                       const struct xu_vcpu_regs *regs, unsigned int depth, const uint64_t *want)
{
    uint64_t pcs[XU_MAX_DEPTH_LIMIT];
    struct xu_unwind_result res;

    xu_mem_begin(m);
    xu_mem_set_context(m, regs);
    ops->walk(ctx, m, regs, pcs, XU_MAX_DEPTH_LIMIT, &res);
    if (res.depth != depth || res.end != XU_WALK_COMPLETE ||
        memcmp(pcs, want, depth * sizeof(*pcs)) != 0) {
        fprintf(stderr, "bench_unwind: %s walk of depth %u went wrong: depth %u, %s\n",
                ops->name, depth, res.depth, xu_walk_end_name(res.end));
        exit(1);
    }
}

/* ns per sample over iters samples. */
static double time_walk(struct xu_mem *m, const struct xu_unwinder_ops *ops, const void *ctx,
                        const struct xu_vcpu_regs *regs, uint64_t iters)
{
    uint64_t pcs[XU_MAX_DEPTH_LIMIT];
    struct xu_unwind_result res;
    double t0 = now_s();
    uint64_t i;

    for (i = 0; i < iters; i++) {
        xu_mem_begin(m);
        xu_mem_set_context(m, regs);
        ops->walk(ctx, m, regs, pcs, XU_MAX_DEPTH_LIMIT, &res);
    }
    return (now_s() - t0) / (double)iters * 1e9;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

/* ns per sample of n sampler ticks on a fresh guest whose vCPU is stopped in
 * regs (its stack copied from the bench's guest). */
static double sample_ns(struct sim_guest *src, const struct xu_vcpu_regs *regs,
                        const struct xu_unwinder_ops *ops, const void *ctx, unsigned int depth,
                        uint64_t n)
{
    struct xu_sampler_config cfg = { .frequency_hz = 1e6, .max_depth = depth + 1,
                                     .no_sleep = 1, .unwinder = ops, .unwinder_ctx = ctx };
    struct xu_sampler_stats st;
    struct xu_mem *m = NULL;
    struct xu_profile *p = NULL;
    struct xu_target t;
    double best = -1;
    unsigned int rep;

    /* the sampler pauses the guest for each tick: give it the bench's guest */
    if (xu_sim_push_state(src->sim, 0, regs) < 0 || xu_sim_target_open(src->sim, &t, NULL) < 0)
        return -1;
    m = xu_mem_new(&t, NULL);
    p = xu_profile_new(0);
    if (!m || !p)
        goto out;
    for (rep = 0; rep <= REPEATS; rep++) {
        double t0 = now_s(), dt;

        cfg.max_ticks = rep ? n : 1000;     /* the first run warms up */
        if (xu_sampler_run(&t, m, p, &cfg, &st) < 0 || st.samples != cfg.max_ticks) {
            best = -1;
            goto out;
        }
        dt = (now_s() - t0) / (double)cfg.max_ticks * 1e9;
        if (rep && (best < 0 || dt < best))
            best = dt;
    }
out:
    xu_profile_free(p);
    xu_mem_free(m);
    xu_target_close(&t);
    return best;
}

static void report_elf(const char *path)
{
    struct xu_cfi_table *t = NULL;
    struct xu_cfi_stats st;
    struct stat sb;
    int rc = xu_cfi_open(path, NULL, NULL, &t);

    if (rc < 0) {
        printf("%s: no table (%s)\n", path, strerror(-rc));
        return;
    }
    xu_cfi_get_stats(t, &st);
    printf("%s (%.1f MB): %zu FDEs, %zu rows (%zu unknown), %zu rules, table %.1f KiB, "
           "built in %.3f s%s\n", path, stat(path, &sb) == 0 ? (double)sb.st_size / 1e6 : 0.0,
           st.fdes, st.rows, st.unknown_rows, st.rules, (double)st.bytes / 1024.0,
           st.build_seconds, st.truncated ? " (truncated)" : "");
    xu_cfi_free(t);
}

int main(int argc, char **argv)
{
    static const unsigned int depths[] = { 10, 30, 100 };
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m = NULL;
    struct xu_cfi_table *cfi = NULL;
    struct xu_unwind_env env = { 0 };
    struct xu_cfi_stats st;
    double t0;
    unsigned int d, rep;
    int i, rc = 1;

    for (i = 1; i < argc; i++)
        report_elf(argv[i]);

    if (sim_guest_init(&g, XU_GUEST_PV, 1, 0) < 0 ||
        xu_sim_map_range(g.sim, g.root, NOFP_STACK, NOFP_BYTES) < 0 ||
        xu_sim_target_open(g.sim, &t, NULL) < 0) {
        fprintf(stderr, "bench_unwind: cannot set up the simulated guest\n");
        return 1;
    }
    m = xu_mem_new(&t, NULL);
    t0 = now_s();
    cfi = make_table();
    if (!m || !cfi) {
        fprintf(stderr, "bench_unwind: out of memory\n");
        goto out;
    }
    env.cfi = cfi;
    xu_cfi_get_stats(cfi, &st);
    printf("synthetic table: %zu rows, %zu rules, %.1f KiB, built in %.3f s\n",
           st.rows, st.rules, (double)st.bytes / 1024.0, now_s() - t0);
    printf("%6s %12s %12s %12s %10s %10s\n", "depth", "fp ns", "cfi/fp ns", "cfi/nofp ns",
           "cfi/fp:fp", "nofp:fp");
    for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        unsigned int depth = depths[d];
        uint64_t fp_pcs[128], nofp_pcs[128], iters = 3000000 / depth;
        struct xu_vcpu_regs fp_regs, nofp_regs;
        double fp, cfi_fp, cfi_nofp;

        make_chain(fp_pcs, depth, 0);
        make_chain(nofp_pcs, depth, 1);
        /* the frame-pointer chain ends in entry code without CFI (rbp = 0) */
        fp_pcs[depth - 1] = func_addr(NFUNCS) + 0x15;
        if (sim_guest_chain(&g, 0, fp_pcs, depth, &fp_regs) < 0 ||
            make_nofp_stack(&g, nofp_pcs, depth, &nofp_regs) < 0) {
            fprintf(stderr, "bench_unwind: cannot build the stacks\n");
            goto out;
        }
        check_walk(m, &xu_unwind_fp_ops, NULL, &fp_regs, depth, fp_pcs);
        check_walk(m, &xu_unwind_cfi_ops, &env, &fp_regs, depth, fp_pcs);
        check_walk(m, &xu_unwind_cfi_ops, &env, &nofp_regs, depth, nofp_pcs);
        /* interleaved, best of REPEATS: a busy machine slows all three alike */
        fp = cfi_fp = cfi_nofp = 1e30;
        for (rep = 0; rep < REPEATS; rep++) {
            fp = min2(fp, time_walk(m, &xu_unwind_fp_ops, NULL, &fp_regs, iters));
            cfi_fp = min2(cfi_fp, time_walk(m, &xu_unwind_cfi_ops, &env, &fp_regs, iters));
            cfi_nofp = min2(cfi_nofp, time_walk(m, &xu_unwind_cfi_ops, &env, &nofp_regs, iters));
        }
        printf("%6u %12.1f %12.1f %12.1f %10.2f %10.2f\n", depth, fp, cfi_fp, cfi_nofp,
               cfi_fp / fp, cfi_nofp / fp);
    }

    /* whole samples: one guest per variant, so each has a single vCPU state */
    printf("\nwhole samples through the sampler (pause, registers, walk, unpause, intern):\n");
    printf("%6s %12s %12s %12s %10s %10s\n", "depth", "fp ns", "cfi/fp ns", "cfi/nofp ns",
           "cfi/fp:fp", "nofp:fp");
    for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        unsigned int depth = depths[d], v;
        uint64_t fp_pcs[128], nofp_pcs[128], iters = 1000000 / depth;
        double ns[3];

        make_chain(fp_pcs, depth, 0);
        make_chain(nofp_pcs, depth, 1);
        fp_pcs[depth - 1] = func_addr(NFUNCS) + 0x15;
        for (v = 0; v < 3; v++) {
            struct sim_guest g2;
            struct xu_vcpu_regs regs;

            if (sim_guest_init(&g2, XU_GUEST_PV, 1, 0) < 0 ||
                xu_sim_map_range(g2.sim, g2.root, NOFP_STACK, NOFP_BYTES) < 0 ||
                (v < 2 ? sim_guest_chain(&g2, 0, fp_pcs, depth, &regs)
                       : make_nofp_stack(&g2, nofp_pcs, depth, &regs)) < 0) {
                fprintf(stderr, "bench_unwind: cannot build the stacks\n");
                goto out;
            }
            ns[v] = sample_ns(&g2, &regs, v ? &xu_unwind_cfi_ops : &xu_unwind_fp_ops,
                              v ? &env : NULL, depth, iters);
            sim_guest_fini(&g2);
            if (ns[v] < 0) {
                fprintf(stderr, "bench_unwind: the sampler failed\n");
                goto out;
            }
        }
        printf("%6u %12.1f %12.1f %12.1f %10.2f %10.2f\n", depth, ns[0], ns[1], ns[2],
               ns[1] / ns[0], ns[2] / ns[0]);
    }
    rc = 0;
out:
    xu_cfi_free(cfi);
    xu_mem_free(m);
    xu_target_close(&t);
    sim_guest_fini(&g);
    return rc;
}
