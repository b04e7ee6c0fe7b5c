/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_stack.c - `xen-uniprof stack` as a library call (lib/record/stack.c)
 * on the simulated guest, live and from a core the tests make of it
 * (tests/helpers/mkcore.c): the printed frames, one pause per snapshot,
 * the guest never left paused, the results for a missing domain and a file
 * that is not a core.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkcore.h"
#include "mkkallsyms.h"
#include "ratio_kernel.h"
#include "record/xu_stack.h"
#include "sim_guest.h"
#include "target/xu_pause.h"
#include "fake_guardian.h"

#define DOMID 5


struct capture {
    struct xu_log log;
    unsigned int errors, warnings;
    char first_error[512], first_warning[512];
    char symbols[512];          /* the line that says where the symbols came from */
};

static void cap_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    if (level == XU_LOG_ERROR && c->errors++ == 0)
        snprintf(c->first_error, sizeof(c->first_error), "%s", msg);
    if (level == XU_LOG_WARN && c->warnings++ == 0)
        snprintf(c->first_warning, sizeof(c->first_warning), "%s", msg);
    if (strncmp(msg, "symbols: ", 9) == 0)
        snprintf(c->symbols, sizeof(c->symbols), "%s", msg);
}

struct fake_clock {
    uint64_t now;
};

static uint64_t fc_now(void *ctx)
{
    return ((struct fake_clock *)ctx)->now;
}

static void fc_sleep_until(void *ctx, uint64_t deadline)
{
    struct fake_clock *c = ctx;

    if (deadline > c->now)
        c->now = deadline;
}

static int dd_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    (void)d;
    out->v = calloc(1, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    out->n = 1;
    out->v[0].domid = DOMID;
    strcpy(out->v[0].name, "web1");
    return 0;
}

static int dd_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    (void)d;
    (void)domid;
    (void)out;
    return -ENOENT;
}

static void dd_close(struct xu_domdir *d)
{
    (void)d;
}

static const struct xu_domdir_ops dd_ops = {
    .name = "test", .list = dd_list, .kernel_path = dd_kernel_path, .close = dd_close,
};

static int dd_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    struct xu_domdir *d = calloc(1, sizeof(*d));

    (void)flags;
    if (!d)
        return -ENOMEM;
    d->ops = &dd_ops;
    d->log = log;
    *out = d;
    return 0;
}

struct fixture {
    struct sim_guest g;
    struct xu_vcpu_regs first[2];   /* what each vCPU shows at the first pause */
    struct capture cap;
    struct fake_clock clock_state;
    struct xu_clock clock;
    struct xu_record_env env;
    struct xu_stack_config job;
    char kernel[64], core[64];
    char *text;
    size_t len;
};

/* vCPU 0 in function_1 (twice), then function_2, and again; vCPU 1 offline. */
static int setup(void **state)
{
    static struct fixture f;
    struct xu_vcpu_regs r2;
    int fd;

    memset(&f, 0, sizeof(f));
    strcpy(f.kernel, "/tmp/xu-stack-elf-XXXXXX");
    fd = mkstemp(f.kernel);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ratio_kernel_write(f.kernel, NULL, 0), 0);
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PV, 2, 0), 0);
    assert_int_equal(sim_guest_chain(&f.g, 0, ratio_kernel_in_f1, RATIO_KERNEL_DEPTH, &f.first[0]), 0);
    assert_int_equal(sim_guest_chain(&f.g, 1, ratio_kernel_in_f2, RATIO_KERNEL_DEPTH, &r2), 0);
    f.first[0].kernel_mode = r2.kernel_mode = true;
    /* the first pause is the ELF check's (is it the running kernel, at which
     * slide?), before any snapshot */
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &f.first[0]), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &f.first[0]), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &r2), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 1, &f.first[1]), 0);    /* offline */
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNING, 1000), 0);
    xu_sim_register(f.g.sim, DOMID);

    f.cap.log.emit = cap_emit;
    f.cap.log.ctx = &f.cap;
    f.cap.log.min_level = XU_LOG_DEBUG;
    f.clock_state.now = 1000000000ULL;
    f.clock.now_ns = fc_now;
    f.clock.sleep_until_ns = fc_sleep_until;
    f.clock.ctx = &f.clock_state;
    f.env.log = &f.cap.log;
    f.env.backend = &xu_sim_ops;
    f.env.domdir_open = dd_open;
    f.env.clock = &f.clock;
    f.env.guardian_start = fake_guardian_start;
    f.env.guardian_stop = fake_guardian_stop;
    fake_guardian_reset();
    f.job.domain = "web1";
    f.job.elf = f.kernel;
    f.job.max_depth = 64;
    f.job.snapshots = 1;
    f.job.interval = 0.5;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.maps, c.unmaps);
    assert_int_equal(fake_guardian.starts, fake_guardian.stops);
    xu_sim_register(NULL, 0);
    sim_guest_fini(&f->g);
    unlink(f->kernel);
    if (f->core[0])
        unlink(f->core);
    free(f->text);
    return 0;
}

static enum xu_record_result run(struct fixture *f)
{
    FILE *out;
    enum xu_record_result r;

    free(f->text);
    f->text = NULL;
    out = open_memstream(&f->text, &f->len);
    assert_non_null(out);
    r = xu_stack_run(&f->job, &f->env, out);
    fclose(out);
    return r;
}

static unsigned int count(const char *hay, const char *needle)
{
    unsigned int n = 0;

    while ((hay = strstr(hay, needle))) {
        n++;
        hay += strlen(needle);
    }
    return n;
}

static void test_live_text(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    assert_int_equal(run(f), XU_RECORD_OK);
    assert_non_null(strstr(f->text, "domain 5 (web1): pv, 2 vCPUs, snapshot 1 of 1"));
    assert_non_null(strstr(f->text, "vCPU 0: running, kernel mode, 64-bit"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000310 function_1+0x10\n"));
    assert_non_null(strstr(f->text, "#1  0xffffffff80000220 main_loop+0x20\n"));
    assert_non_null(strstr(f->text, "#2  0xffffffff80000130 start_kernel+0x30\n"));
    assert_non_null(strstr(f->text, "#3  0xffffffff80000010 _start+0x10\n"));
    assert_non_null(strstr(f->text, "walk ended: reached the root (complete)"));
    assert_non_null(strstr(f->text, "vCPU 1: offline"));
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pauses, 2);     /* the ELF check's and the snapshot's */
    assert_int_equal(fake_guardian.starts, 1);
}

/* The ratio kernel as it runs, in the guest: its code at SIM_TEXT_BASE and its
 * kallsyms (with the linker's marks) in a .rodata 2 MiB above. */
static void put_kernel_in_memory(struct fixture *f)
{
    const uint64_t text = SIM_TEXT_BASE, ro = text + 0x200000;
    struct mkks_sym s[RATIO_KERNEL_NSYMS + 4];
    size_t i, n = 0, len = 0;
    uint8_t *blob;

    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, text, 0x1000), 0);
    for (i = 0; i < RATIO_KERNEL_NCALLS; i++)
        assert_int_equal(xu_sim_write(f->g.sim, f->g.root, ratio_kernel_calls[i].addr,
                                      ratio_kernel_calls[i].bytes, ratio_kernel_calls[i].len),
                         0);
    /* _text after _start at the same address, as a kernel's build orders names of one
     * rank: the first names the address */
    for (i = 0; i < RATIO_KERNEL_NSYMS; i++) {
        s[n++] = (struct mkks_sym){ ratio_kernel_syms[i].name, ratio_kernel_syms[i].addr, 'T' };
        if (i == 0)
            s[n++] = (struct mkks_sym){ "_text", text, 'T' };
    }
    s[n++] = (struct mkks_sym){ "_etext", text + 0x1000, 'T' };
    s[n++] = (struct mkks_sym){ "__start_rodata", ro, 'D' };
    s[n++] = (struct mkks_sym){ "__end_rodata", ro, 'D' };
    blob = mkkallsyms_ending(s, n, MKKS_SEQS, n - 1, ro, 1, &len);
    assert_non_null(blob);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, ro, len), 0);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, ro, blob, len), 0);
    free(blob);
}

/* A domain dom0 has no kernel file for and no --elf: its vCPUs named from the
 * kernel in its memory (a PV vCPU in kernel mode says where its text is), each
 * walk complete, where without it they would be addresses. */
static void test_live_from_memory(void **state)
{
    struct fixture *f = *state;

    f->job.elf = NULL;
    put_kernel_in_memory(f);
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 0);
    assert_non_null(strstr(f->cap.symbols, "symbols: the kernel in domain 5's memory: 10 "
                                           "kallsyms symbols"));
    /* the read's pause took the first state, the ELF check's the second */
    assert_non_null(strstr(f->text, "symbols: the kernel in domain 5's memory\n"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000410 function_2+0x10\n"));
    assert_non_null(strstr(f->text, "#1  0xffffffff80000228 main_loop+0x28\n"));
    assert_non_null(strstr(f->text, "#3  0xffffffff80000010 _start+0x10\n"));
    assert_non_null(strstr(f->text, "walk ended: reached the root (complete)"));
}

/* Nothing there: a warning, and the frames stay addresses. */
static void test_live_nothing_in_memory(void **state)
{
    struct fixture *f = *state;

    f->job.elf = NULL;
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 1);
    assert_non_null(strstr(f->cap.first_warning, "cannot read domain 5's kernel from its memory"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000310 ??\n"));
}

/* -n 3: three pauses after the check's, each snapshot what the guest showed
 * at its pause. */
static void test_snapshots(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    f->job.snapshots = 3;
    assert_int_equal(run(f), XU_RECORD_OK);
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pauses, 4);
    assert_int_equal(count(f->text, "snapshot "), 3);
    assert_int_equal(count(f->text, " function_1+0x10"), 2);
    assert_int_equal(count(f->text, " function_2+0x10"), 1);
    assert_int_equal(f->clock_state.now, 1000000000ULL + 1000000000ULL);  /* 2 x 0.5 s */
}

static void test_live_json(void **state)
{
    struct fixture *f = *state;

    f->job.json = true;
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_non_null(strstr(f->text, "{\"schema\": \"xen-uniprof-stack/1\", \"source\": \"live\""));
    assert_non_null(strstr(f->text, "\"function\": \"function_1\", \"offset\": 16"));
    assert_non_null(strstr(f->text, "\"end\": \"complete\", \"complete\": true"));
    assert_non_null(strstr(f->text, "{\"vcpu\": 1, \"online\": false"));
    assert_int_equal(count(f->text, "{"), count(f->text, "}"));
    assert_int_equal(count(f->text, "["), count(f->text, "]"));
}

static void test_no_domain(void **state)
{
    struct fixture *f = *state;

    f->job.domain = "nosuch";
    assert_int_equal(run(f), XU_RECORD_NO_DOMAIN);
    assert_int_equal(fake_guardian.starts, 0);
}

/* The same guest as a core: the same frames, no pause, no guardian. */
/* The simulated guest as an xl dump-core file, which the job then reads. */
static void write_core(struct fixture *f)
{
    struct mkcore mc = { .sim = f->g.sim, .nr_frames = 2304, .regs = f->first,
                         .nr_vcpus = 2 };
    int fd;

    strcpy(f->core, "/tmp/xu-stack-core-XXXXXX");
    fd = mkstemp(f->core);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkcore_write(&mc, f->core), 0);
    f->job.domain = NULL;
    f->job.core = f->core;
}

static void test_core(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    write_core(f);
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_non_null(strstr(f->text, "PV guest, 2 vCPU contexts"));
    assert_non_null(strstr(f->text, "vCPU 0: kernel mode, 64-bit"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000310 function_1+0x10\n"));
    assert_non_null(strstr(f->text, "#3  0xffffffff80000010 _start+0x10\n"));
    assert_non_null(strstr(f->text, "walk ended: reached the root (complete)"));
    assert_non_null(strstr(f->text, "vCPU 1: offline"));
    assert_int_equal(f->cap.warnings, 0);
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pauses, 0);
    assert_int_equal(fake_guardian.starts, 0);

    /* the kernel given as the core: refused in one line */
    f->job.core = f->kernel;
    assert_int_equal(run(f), XU_RECORD_BAD_CORE);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "not an xl dump-core file"));
}

/* A core of a guest dom0 has no kernel file for, read with no -e: the kernel named
 * from its image in the core's own pages, each walk complete. */
static void test_core_kernel_from_memory(void **state)
{
    struct fixture *f = *state;

    put_kernel_in_memory(f);
    write_core(f);
    f->job.elf = NULL;
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 0);
    assert_non_null(strstr(f->cap.symbols, "'s memory: 10 kallsyms symbols"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000310 function_1+0x10\n"));
    assert_non_null(strstr(f->text, "#3  0xffffffff80000010 _start+0x10\n"));
    assert_non_null(strstr(f->text, "walk ended: reached the root (complete)"));
}

/* A core with no page dumped (what Xen's arm toolstack writes): said once,
 * then each vCPU's registers and innermost frame, the walk ending at the
 * first read. */
static void test_core_no_pages(void **state)
{
    struct fixture *f = *state;
    enum { FRAMES = 2304 };
    static uint64_t all[FRAMES];
    struct mkcore mc = { .sim = f->g.sim, .nr_frames = FRAMES, .missing = all,
                         .nr_missing = FRAMES, .regs = f->first, .nr_vcpus = 2 };
    int fd;
    uint64_t i;

    for (i = 0; i < FRAMES; i++)
        all[i] = i;
    strcpy(f->core, "/tmp/xu-stack-core-XXXXXX");
    fd = mkstemp(f->core);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkcore_write(&mc, f->core), 0);
    f->job.domain = NULL;
    f->job.core = f->core;
    assert_int_equal(run(f), XU_RECORD_OK);
    assert_int_equal(f->cap.warnings, 1);
    assert_non_null(strstr(f->cap.first_warning, "holds none of the guest's memory (2304 pages"));
    assert_non_null(strstr(f->text, "#0  0xffffffff80000310 function_1+0x10\n"));
    assert_null(strstr(f->text, "#1 "));
    assert_non_null(strstr(f->text, "walk ended: unreadable memory"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_live_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_live_from_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_live_nothing_in_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_snapshots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_live_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_domain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_kernel_from_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_no_pages, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
