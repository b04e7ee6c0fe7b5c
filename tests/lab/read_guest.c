/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_guest.c - read a ground-truth guest's variables from dom0: its
 * progress counter, for the lab bench's guest-overhead measurement
 * (bench/lab-bench), and its self-timing totals (tests/guests/truth.h), for
 * the lab's judges (tests/lab/run).
 *
 * The address is given (taken from the guest's `nm -n` map: lib/'s symbol
 * tables keep functions only, and these are data objects); it is read through
 * the guest's own page tables with lib/'s page walk, exactly as the profiler
 * reads stacks.
 *
 * With SECONDS, the counter is read twice, SECONDS apart, in one process, so
 * the rate is not blurred by starting programs in a slow emulated dom0.
 * Each read pauses the domain for a few hypercalls (registers for the page
 * tables' root, then unpause): two tiny windows per measurement.
 *
 * Output, one line per read: "<CLOCK_MONOTONIC ns> <counter>"; with SECONDS
 * also "rate <counter increments per second>".
 *
 * Usage: read_guest [--backend NAME] DOMID ADDRESS [SECONDS]
 *
 * With --dump, LEN bytes (at most DUMP_MAX) at ADDRESS in one read, printed
 * as "<CLOCK_MONOTONIC ns> <hex bytes>":
 *        read_guest [--backend NAME] --dump DOMID ADDRESS LEN
 *
 * Controls for the overhead measurement, to tell what a profiler's mere
 * presence costs the guest in the lab from what sampling costs:
 *        read_guest [--backend NAME] --ticker DOMID HZ SECONDS sleep|pause
 * wakes at HZ on absolute deadlines for SECONDS and does nothing (sleep), or
 * pauses and unpauses the domain (pause: the hypercall floor without even
 * the registers).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/xu_log.h"
#include "mem/xu_mem.h"
#include "target/xu_pause.h"
#include "target/xu_target.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void emit(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    fprintf(stderr, "read_guest: %s\n", msg);
}

#define DUMP_MAX 4096

/* One read: pause, vCPU 0's page-table root, len bytes, unpause.  Paused, so
 * that a structure the guest updates as it runs is read as one snapshot. */
static int read_once(struct xu_target *t, struct xu_pause *pause, struct xu_mem *m,
                     uint64_t va, uint64_t *ns, void *buf, size_t len)
{
    struct xu_vcpu_regs regs;
    int rc, urc;

    rc = xu_pause_take(pause);
    if (rc < 0)
        return rc;
    xu_mem_begin(m);
    rc = xu_target_vcpu_regs(t, 0, &regs);
    if (rc == 0 && !regs.online)
        rc = -ENODEV;
    if (rc == 0) {
        xu_mem_set_context(m, &regs);
        /* a page-walk fault (-enum xu_mem_fault) is not an errno */
        if (xu_mem_read(m, va, buf, len) < 0)
            rc = -EFAULT;
    }
    *ns = now_ns();
    urc = xu_pause_release(pause);
    return rc < 0 ? rc : urc;
}

static int ticker(struct xu_pause *pause, double hz, double seconds, int do_pause)
{
    uint64_t period = hz > 0 ? (uint64_t)(1e9 / hz) : 1, next = now_ns();
    uint64_t end = next + (uint64_t)(seconds > 0 ? seconds * 1e9 : 0), ticks = 0;
    int rc = 0;

    if (!(hz > 0 && hz <= 1e6))
        return -EINVAL;
    while (next < end) {
        struct timespec ts = { .tv_sec = (time_t)(next / 1000000000ULL),
                               .tv_nsec = (long)(next % 1000000000ULL) };

        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        if (do_pause) {
            rc = xu_pause_take(pause);
            if (rc < 0)
                break;
            rc = xu_pause_release(pause);
            if (rc < 0)
                break;
        }
        ticks++;
        next += period;
    }
    printf("ticks %" PRIu64 "\n", ticks);
    return rc;
}

int main(int argc, char **argv)
{
    struct xu_log log = { .emit = emit, .min_level = XU_LOG_WARN };
    const struct xu_target_ops *ops;
    const char *backend = NULL;
    struct xu_target t = { 0 };
    struct xu_mem *m = NULL;
    uint64_t va, ns0, ns1, v0, v1;
    char *end;
    double seconds = 0;
    unsigned long dump = 0;
    int argi = 1, opened = 0, rc, ret = 1;
    unsigned long domid;
    struct xu_pause *pause = NULL;

    if (argc > 2 && strcmp(argv[1], "--backend") == 0) {
        backend = argv[2];
        argi = 3;
    }
    if (argc - argi == 5 && strcmp(argv[argi], "--ticker") == 0) {
        ops = xu_target_backend(backend);
        if (!ops || xu_target_open(&t, ops, (uint32_t)strtoul(argv[argi + 1], NULL, 10), &log) < 0)
            return 1;
        if (xu_pause_new(&pause, &t, NULL, &log) < 0) {
            xu_target_close(&t);
            return 1;
        }
        rc = ticker(pause, strtod(argv[argi + 2], NULL), strtod(argv[argi + 3], NULL),
                    strcmp(argv[argi + 4], "pause") == 0);
        xu_pause_free(pause);
        xu_target_close(&t);
        return rc < 0 ? 1 : 0;
    }
    if (argc - argi == 4 && strcmp(argv[argi], "--dump") == 0) {
        dump = strtoul(argv[argi + 3], &end, 0);
        if (*end || dump == 0 || dump > DUMP_MAX) {
            fprintf(stderr, "read_guest: LEN must be 1 to %d\n", DUMP_MAX);
            return 2;
        }
        argi++;
    } else if (argc - argi < 2 || argc - argi > 3) {
        fprintf(stderr, "usage: read_guest [--backend NAME] DOMID ADDRESS [SECONDS]\n"
                        "       read_guest [--backend NAME] --dump DOMID ADDRESS LEN\n");
        return 2;
    }
    domid = strtoul(argv[argi], NULL, 10);
    va = strtoull(argv[argi + 1], &end, 16);
    if (*end || end == argv[argi + 1]) {
        fprintf(stderr, "read_guest: bad address %s\n", argv[argi + 1]);
        return 2;
    }
    if (argc - argi > 2 && !dump)
        seconds = strtod(argv[argi + 2], NULL);
    ops = xu_target_backend(backend);
    if (!ops) {
        fprintf(stderr, "read_guest: no backend %s (built: %s)\n", backend ? backend : "",
                xu_target_backend_names());
        goto out;
    }
    rc = xu_target_open(&t, ops, (uint32_t)domid, &log);
    if (rc < 0)
        goto out;
    opened = 1;
    m = xu_mem_new(&t, NULL);
    if (!m || xu_pause_new(&pause, &t, NULL, &log) < 0)
        goto out;

    if (dump) {
        unsigned char buf[DUMP_MAX];

        rc = read_once(&t, pause, m, va, &ns0, buf, dump);
        if (rc < 0) {
            fprintf(stderr, "read_guest: reading %#" PRIx64 ": %s\n", va, strerror(-rc));
            goto out;
        }
        printf("%" PRIu64 " ", ns0);
        for (size_t i = 0; i < dump; i++)
            printf("%02x", buf[i]);
        printf("\n");
        ret = 0;
        goto out;
    }
    rc = read_once(&t, pause, m, va, &ns0, &v0, sizeof(v0));
    if (rc < 0) {
        fprintf(stderr, "read_guest: reading %#" PRIx64 ": %s\n", va, strerror(-rc));
        goto out;
    }
    printf("%" PRIu64 " %" PRIu64 "\n", ns0, v0);
    if (seconds > 0) {
        struct timespec ts = { .tv_sec = (time_t)seconds,
                               .tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9) };

        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
            ;
        rc = read_once(&t, pause, m, va, &ns1, &v1, sizeof(v1));
        if (rc < 0) {
            fprintf(stderr, "read_guest: reading %#" PRIx64 ": %s\n", va, strerror(-rc));
            goto out;
        }
        printf("%" PRIu64 " %" PRIu64 "\nrate %.3f\n", ns1, v1,
               (double)(v1 - v0) * 1e9 / (double)(ns1 - ns0));
    }
    ret = 0;
out:
    xu_pause_free(pause);
    xu_mem_free(m);
    if (opened)
        xu_target_close(&t);
    return ret;
}
