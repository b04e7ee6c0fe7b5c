/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_record.c - the whole `xen-uniprof DOMAIN` path (xu_record_run) against
 * the simulated guest: a domain directory that knows "web1" and its kernel
 * file, the sim opened by domid as a Xen backend is, a clock that does not
 * wait, and each documented failure producing its documented result.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "mkkallsyms.h"
#include "ratio_kernel.h"
#include "record/record_priv.h"
#include "record/xu_record.h"
#include "sim_guest.h"
#include "target/xu_pause.h"
#include "unwind/xu_ehabi.h"
#include "fake_guardian.h"

#define T SIM_TEXT_BASE
#define DOMID 5


/* ---- the world ---- */

struct capture {
    struct xu_log log;
    unsigned int errors, warnings;
    char first_error[1024];
    char text[8192];            /* every message, one a line, cut when full */
};

static void cap_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;
    size_t n;

    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "log %d: %s\n", (int)level, msg);
    if (level == XU_LOG_ERROR && c->errors++ == 0)
        snprintf(c->first_error, sizeof(c->first_error), "%s", msg);
    if (level == XU_LOG_WARN)
        c->warnings++;
    n = strlen(c->text);
    snprintf(c->text + n, sizeof(c->text) - n, "%s\n", msg);
}

/* A clock that does not wait: sleeping moves it to the deadline. */
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

/* The domain directory: dom0 and web1, and web1's kernel file. */
static char kernel_path[256];

static int dd_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    (void)d;
    out->v = calloc(2, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    out->n = 2;
    out->v[0].domid = 0;
    strcpy(out->v[0].name, "Domain-0");
    out->v[1].domid = DOMID;
    strcpy(out->v[1].name, "web1");
    return 0;
}

static int dd_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    (void)d;
    if (domid != DOMID)
        return -ESRCH;
    *out = strdup(kernel_path);
    return *out ? 0 : -ENOMEM;
}

/* --create: `xl create -p` leaves the new domain with one pause reference. */
static struct xu_sim *created_sim;
static int creates, destroys;

static int dd_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid)
{
    (void)d;
    (void)config;
    creates++;
    assert_int_equal(xu_sim_admin_pause(created_sim), 0);
    *domid = DOMID;
    return 0;
}

static int dd_destroy(struct xu_domdir *d, uint32_t domid)
{
    (void)d;
    assert_int_equal(domid, DOMID);
    destroys++;
    return 0;
}

static void dd_close(struct xu_domdir *d)
{
    (void)d;
}

static const struct xu_domdir_ops dd_ops = {
    .name = "test",
    .list = dd_list,
    .kernel_path = dd_kernel_path,
    .create_paused = dd_create_paused,
    .destroy = dd_destroy,
    .close = dd_close,
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
    struct capture cap;
    struct fake_clock clock_state;
    struct xu_clock clock;
    struct xu_record_env env;
    struct xu_record_config job;
    char dir[64], out[128], stats[128];
};

static void path_in(struct fixture *f, char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", f->dir, name);
}

/* A kernel relocated at boot (KASLR): it runs this far above its link-time
 * addresses, and its vCPU's MSR_LSTAR holds entry_SYSCALL_64 there. */
#define KASLR_SLIDE 0x2a00000ULL
#define ENTRY_SYSCALL (T + 0x800)
static uint64_t guest_slide;

/* One of the ratio kernel's chains, slid by guest_slide. */
static void slid_chain(struct fixture *f, unsigned int stack, const uint64_t *pcs,
                       struct xu_vcpu_regs *regs)
{
    uint64_t slid[RATIO_KERNEL_DEPTH];
    unsigned int i;

    for (i = 0; i < RATIO_KERNEL_DEPTH; i++)
        slid[i] = pcs[i] + guest_slide;
    assert_int_equal(sim_guest_chain(&f->g, stack, slid, RATIO_KERNEL_DEPTH, regs), 0);
    if (guest_slide)
        regs->syscall_entry = ENTRY_SYSCALL + guest_slide;
}

static int setup_guest(void **state, enum xu_guest_type type)
{
    static struct fixture f;
    struct xu_vcpu_regs regs;
    int i;

    memset(&f, 0, sizeof(f));
    strcpy(f.dir, "/tmp/xu-record-XXXXXX");
    assert_non_null(mkdtemp(f.dir));
    path_in(&f, kernel_path, sizeof(kernel_path), "vmlinux");
    assert_int_equal(ratio_kernel_write(kernel_path, NULL, 0), 0);
    path_in(&f, f.out, sizeof(f.out), "web1.folded");
    path_in(&f, f.stats, sizeof(f.stats), "stats.json");

    /* function_1, function_2, function_3 in the ratio 1:3:6 */
    assert_int_equal(sim_guest_init(&f.g, type, 1, 0), 0);
    slid_chain(&f, 0, ratio_kernel_in_f1, &regs);
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    slid_chain(&f, 1, ratio_kernel_in_f2, &regs);
    for (i = 0; i < 3; i++)
        assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    slid_chain(&f, 2, ratio_kernel_in_f3, &regs);
    for (i = 0; i < 6; i++)
        assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    /* always running, a millisecond of CPU per tick */
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNING, 1000000), 0);
    xu_sim_register(f.g.sim, DOMID);
    created_sim = f.g.sim;
    creates = destroys = 0;

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

    /* xen-uniprof web1 -o DIR/web1.folded -F 100 -d 0.1 --stats DIR/stats.json */
    f.job.domain = "web1";
    f.job.frequency = 100;
    f.job.duration = 0.1;
    f.job.max_depth = 64;
    f.job.unwind = XU_UNWIND_AUTO;
    f.job.output = f.out;
    f.job.stats = f.stats;
    *state = &f;
    return 0;
}

static int setup(void **state)
{
    guest_slide = 0;
    return setup_guest(state, XU_GUEST_PV);
}

static int setup_hvm(void **state)
{
    guest_slide = 0;
    return setup_guest(state, XU_GUEST_HVM);
}

static int setup_hvm_kaslr(void **state)
{
    guest_slide = KASLR_SLIDE;
    return setup_guest(state, XU_GUEST_HVM);
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;
    DIR *d;
    struct dirent *de;
    char p[512];

    /* whatever happened, the guest runs and nothing is mapped */
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.maps, c.unmaps);
    assert_int_equal(fake_guardian.starts, fake_guardian.stops);
    xu_sim_register(NULL, 0);
    sim_guest_fini(&f->g);
    d = opendir(f->dir);
    assert_non_null(d);
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(p, sizeof(p), "%s/%s", f->dir, de->d_name);
            unlink(p);
        }
    }
    closedir(d);
    assert_int_equal(rmdir(f->dir), 0);
    return 0;
}

static char *slurp(const char *path)
{
    static char buf[8192];
    FILE *in = fopen(path, "r");
    size_t n;

    if (!in)
        return NULL;
    n = fread(buf, 1, sizeof(buf) - 1, in);
    buf[n] = '\0';
    fclose(in);
    return buf;
}

/* Only the files the run means to leave: no temporary ".name.XXXXXX". */
static unsigned int files_in(struct fixture *f, int *temps)
{
    DIR *d = opendir(f->dir);
    struct dirent *de;
    unsigned int n = 0;

    *temps = 0;
    assert_non_null(d);
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        n++;
        if (de->d_name[0] == '.')
            (*temps)++;
    }
    closedir(d);
    return n;
}

static bool exists(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0;
}

/* ---- the path that works ---- */

/* What the CLI's summary line is made of. */
static char summary_top[128];
static double summary_share;
static uint64_t summary_samples;
static int sampled_calls;

static void on_sampled(void *ctx)
{
    (void)ctx;
    sampled_calls++;
}

static char summary_outermost[128];
static double summary_outermost_share;

static void on_written(void *ctx, const struct xu_record_summary *sum)
{
    (void)ctx;
    snprintf(summary_outermost, sizeof(summary_outermost), "%s",
             sum->outermost ? sum->outermost : "");
    summary_outermost_share = sum->outermost_share;
    snprintf(summary_top, sizeof(summary_top), "%s", sum->top ? sum->top : "");
    summary_share = sum->top_share;
    summary_samples = sum->totals->samples;
}

static const char folded_expected[] =
    "_start;start_kernel;main_loop;function_1 1\n"
    "_start;start_kernel;main_loop;function_2 3\n"
    "_start;start_kernel;main_loop;function_3 6\n";

static void test_record_by_name(void **state)
{
    struct fixture *f = *state;
    char expected[4096];
    int temps;

    f->env.sampled = on_sampled;
    f->env.written = on_written;
    sampled_calls = 0;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    /* the summary: function_3 on top with six samples in ten */
    assert_int_equal(sampled_calls, 1);
    assert_string_equal(summary_top, "function_3");
    assert_true(summary_share > 59.9 && summary_share < 60.1);
    assert_int_equal(summary_samples, 10);
    assert_int_equal(f->cap.warnings, 0);
    /* the guardian watched, and was told "done" with the guest running */
    assert_int_equal(fake_guardian.starts, 1);
    assert_int_equal(fake_guardian.word_at_stop, XU_PAUSE_RUNNING);
    /* the folded output, exactly: ten ticks over the 1:3:6 cycle */
    assert_string_equal(slurp(f->out), folded_expected);
    /* the statistics: the fake clock makes every number deterministic */
    snprintf(expected, sizeof(expected),
             "{\n"
             "  \"domid\": 5,\n"
             "  \"domain\": \"web1\",\n"
             "  \"guest_type\": \"pv\",\n"
             "  \"guest_arch\": \"x86_64\",\n"
             "  \"backend\": \"sim\",\n"
             "  \"elf\": \"%s\",\n"
             "  \"output\": \"%s\",\n"
             "  \"frequency_hz\": 100.000,\n"
             "  \"duration_s\": 0.100000,\n"
             "  \"vcpus\": 1,\n"
             "  \"ticks\": 10,\n"
             "  \"samples\": 10,\n"
             "  \"missed_deadlines\": 0,\n"
             "  \"paused_by_other_ticks\": 0,\n"
             "  \"regs_failures\": 0,\n"
             "  \"tasks_unknown\": 0,\n"
             /* the simulated guest is no hypervisor: no calls counted */
             "  \"hypercalls\": 0,\n"
             "  \"hypercalls_per_tick\": 0.00,\n"
             "  \"batched_ticks\": 0,\n"
             "  \"distinct_stacks\": 3,\n"
             "  \"dropped_samples\": 0,\n"
             "  \"walks\": {\"complete\": 10, \"bad frame\": 0, \"unmapped\": 0, "
             "\"depth limit\": 0, \"not in long mode\": 0, \"cfi root\": 0, \"not a root\": 0, "
             "\"not after a call\": 0},\n"
             "  \"paused_ns\": {\"min\": 0, \"median\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0},\n"
             "  \"late_ns\": {\"min\": 0, \"median\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0},\n"
             /* the first tick has no tick before it: nine ticks' CPU time */
             "  \"samples_by_state\": {\"unknown\": 0, \"running\": 10, \"runnable\": 0, "
             "\"blocked\": 0, \"offline\": 0},\n"
             "  \"cpu_ns_sampled\": 9000000,\n"
             "  \"vcpu_states\": [\n"
             "    {\"vcpu\": 0, \"ticks\": {\"unknown\": 0, \"running\": 10, \"runnable\": 0, "
             "\"blocked\": 0, \"offline\": 0}, \"late_us_mean\": {\"unknown\": 0.0, \"running\": 0.0, "
             "\"runnable\": 0.0, \"blocked\": 0.0, \"offline\": 0.0}, \"paused_s\": {\"unknown\": 0.000000, "
             "\"running\": 0.000000, \"runnable\": 0.000000, \"blocked\": 0.000000, "
             "\"offline\": 0.000000}, \"time_s\": {\"unknown\": 0.000000, "
             "\"running\": 0.100000, \"runnable\": 0.000000, \"blocked\": 0.000000, "
             "\"offline\": 0.000000}, \"cpu_ns\": 9000000}\n"
             "  ],\n"
             "  \"stop_reason\": \"duration elapsed\",\n"
             "  \"exit_code\": 0\n"
             "}\n", kernel_path, f->out);
    assert_string_equal(slurp(f->stats), expected);
    /* written atomically: the kernel, the output, the stats; no temp file */
    assert_int_equal(files_in(f, &temps), 3);
    assert_int_equal(temps, 0);
}

/* A kernel whose entry point is not in its code (the first section is
 * data) and whose first code is called boot_entry, a name on no roots
 * list: every stack ends there at a zero frame pointer, none is complete,
 * and the summary names it for --roots. */
static void test_summary_names_the_missing_root(void **state)
{
    struct fixture *f = *state;
    const struct mkelf_section secs[] = {
        { ".data", T - 0x1000, 0x100, true },
        { ".text", T, 0x1000, false },
    };
    struct mkelf_sym moved[RATIO_KERNEL_NSYMS];
    size_t i;

    for (i = 0; i < RATIO_KERNEL_NSYMS; i++) {
        moved[i] = ratio_kernel_syms[i];
        moved[i].section = 1;
    }
    moved[0].name = "boot_entry";
    assert_int_equal(mkelf_write_patched(kernel_path, secs, 2, ratio_kernel_calls,
                                         RATIO_KERNEL_NCALLS, moved,
                                         sizeof(moved) / sizeof(moved[0]), 0), 0);
    f->env.written = on_written;
    summary_outermost[0] = '\0';
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_string_equal(summary_outermost, "boot_entry");
    assert_true(summary_outermost_share > 99.9);
}

static void test_summary_hints(void **state)
{
    struct xu_profile_totals t;
    struct xu_record_summary sum;
    char buf[320];

    (void)state;
    memset(&t, 0, sizeof(t));
    memset(&sum, 0, sizeof(sum));
    sum.totals = &t;
    t.samples = 100;
    t.by_end[XU_WALK_COMPLETE] = 100;
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_string_equal(buf, "");
    /* a stray broken walk in a thousand gets no advice */
    t.samples = 1000;
    t.by_end[XU_WALK_COMPLETE] = 999;
    t.by_end[XU_WALK_NOT_CALL] = 1;
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_string_equal(buf, "");
    t.samples = 100;
    t.by_end[XU_WALK_NOT_CALL] = 0;
    t.by_end[XU_WALK_COMPLETE] = 10;
    t.by_end[XU_WALK_NOT_ROOT] = 80;
    t.by_end[XU_WALK_BAD_FRAME] = 10;
    sum.outermost = "nofsgsbase";
    sum.outermost_share = 100;
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_non_null(strstr(buf, "end in nofsgsbase"));
    assert_non_null(strstr(buf, "--roots=+nofsgsbase"));
    sum.outermost = "hypercall_page";
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_non_null(strstr(buf, "hypercall page"));
    assert_null(strstr(buf, "--roots"));
    t.by_end[XU_WALK_NOT_CALL] = 85;
    sum.unwinder = "fp";
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_non_null(strstr(buf, "--unwind=cfi"));
    /* no advice about frame pointers where tables were followed */
    sum.unwinder = "orc";
    xu_record_incomplete_hint(&sum, buf, sizeof(buf));
    assert_string_equal(buf, "");
    /* the top: idle time in the hypercall page says where the view is */
    sum.top = "hypercall_page";
    assert_non_null(strstr(xu_record_top_note(&sum), "--state=split"));
    sum.top = "function_3";
    assert_string_equal(xu_record_top_note(&sum), "");
    /* a guest blocked in a tenth of the samples or more, at a strict period:
     * the ticks' spacing; not below that share, not with jitter */
    t.by_state[XU_VSTATE_BLOCKED] = 9;
    xu_record_jitter_hint(&sum, buf, sizeof(buf));
    assert_string_equal(buf, "");
    t.by_state[XU_VSTATE_BLOCKED] = 44;
    xu_record_jitter_hint(&sum, buf, sizeof(buf));
    assert_non_null(strstr(buf, "44% of the samples found the guest blocked"));
    assert_non_null(strstr(buf, "--jitter=0.5"));
    sum.jitter = 0.5;
    xu_record_jitter_hint(&sum, buf, sizeof(buf));
    assert_string_equal(buf, "");
}

static void test_record_by_domid_with_the_real_guardian(void **state)
{
    struct fixture *f = *state;

    /* the guardian is forked and attaches to its own copy of the sim */
    f->env.guardian_start = NULL;
    f->env.guardian_stop = NULL;
    f->job.domain = "5";
    f->job.stats = NULL;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_string_equal(slurp(f->out), folded_expected);
}

static void test_summary_and_stop_flag(void **state)
{
    struct fixture *f = *state;
    volatile sig_atomic_t stop = SIGINT;

    /* stopped before the first tick: nothing sampled, nothing written */
    f->env.stop = &stop;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_FAILURE);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "no samples were taken (interrupted)"));
    assert_false(exists(f->out));
    assert_false(exists(f->stats));
}

/* ---- each documented failure ---- */

static void test_no_such_domain(void **state)
{
    struct fixture *f = *state;

    f->job.domain = "web2";
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_NO_DOMAIN);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "web2"));
    assert_int_equal(fake_guardian.starts, 0);
    assert_false(exists(f->out));
    assert_false(exists(f->stats));
}

static void test_stripped_kernel(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(ratio_kernel_write(kernel_path, NULL, MKELF_STRIPPED), 0);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_SYMBOLS);
    assert_true(f->cap.errors >= 1);
    /* found before the guest was touched */
    assert_int_equal(fake_guardian.starts, 0);
    assert_false(exists(f->out));
}

static void test_not_privileged(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_open(f->g.sim, -EACCES);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_PRIVILEGE);
    xu_sim_fail_open(f->g.sim, -EPERM);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_PRIVILEGE);
    assert_false(exists(f->out));
}

static void test_not_privileged_for_the_guardian(void **state)
{
    struct fixture *f = *state;

    /* the real guardian opens first, and says so */
    f->env.guardian_start = NULL;
    f->env.guardian_stop = NULL;
    xu_sim_fail_open(f->g.sim, -EACCES);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_PRIVILEGE);
    assert_int_equal(f->cap.errors, 1);
    assert_false(exists(f->out));
}

static void test_domain_dies_mid_run(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;
    const char *text;

    /* destroyed at the sixth pause: the ELF check and four ticks before */
    xu_sim_end_after(f->g.sim, 5, 1);
    f->job.duration = 10;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_DOMAIN_ENDED);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 1);
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pauses, 5);
    /* the samples taken are written, and the stats say why it ended */
    text = slurp(f->out);
    assert_non_null(text);
    assert_string_equal(text, "_start;start_kernel;main_loop;function_2 3\n"
                              "_start;start_kernel;main_loop;function_3 1\n");
    assert_non_null(strstr(slurp(f->stats), "\"stop_reason\": \"domain destroyed\",\n"
                                            "  \"exit_code\": 6\n"));
}

/*
 * Paused by its admin for the whole run: nothing sampled (a frozen stack is
 * no time), one error saying why, no output, exit 1; the admin's pause is
 * left as it was.
 */
static void test_paused_by_admin_throughout(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    /* after the ELF check's pause, the vCPU reads as not running */
    assert_int_equal(xu_sim_push_vstate(f->g.sim, 0, XU_VSTATE_RUNNABLE, 0), 0);
    assert_int_equal(xu_sim_admin_pause(f->g.sim), 0);
    f->job.duration = 0.05;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_FAILURE);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "paused by someone else"));
    assert_false(exists(f->out));
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 1);         /* the admin's, kept */
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
}

static void test_xen_version_mismatch(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_open(f->g.sim, -EPROTO);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_XEN_MISMATCH);
    /* one line, the backend's, naming the mismatch */
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "Xen version mismatch"));
    assert_false(exists(f->out));
}

static void test_left_paused_is_a_failure(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_unpause(f->g.sim, -EIO, XU_SIM_ALWAYS);
    f->job.elf = kernel_path;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_FAILURE);
    /* one error, naming the fix; the guardian was handed PAUSED */
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "xl unpause 5"));
    assert_int_equal(fake_guardian.word_at_stop, XU_PAUSE_PAUSED);
    /* what the guardian (or the admin) then does */
    xu_sim_fail_unpause(f->g.sim, 0, 0);
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
}

static void test_failed_write_leaves_no_file(void **state)
{
    struct fixture *f = *state;
    struct rlimit old, small;
    int temps;

    /* the output cannot be written whole (the file-size limit hits it
     * half-way): no output, no temporary file, a failure */
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 16;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    f->job.stats = NULL;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_FAILURE);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, SIG_DFL);
    assert_true(f->cap.errors >= 1);
    assert_false(exists(f->out));
    assert_int_equal(files_in(f, &temps), 1);      /* the kernel alone */
    assert_int_equal(temps, 0);
}

static void test_create_adopts_the_creation_pause(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    f->job.domain = NULL;
    f->job.create = "web1.cfg";
    f->job.destroy = true;
    f->job.stats = NULL;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(creates, 1);
    assert_int_equal(destroys, 1);
    /* the creation's reference was given back once, by us; every tick took
     * and gave back its own; the ELF check ran inside the creation pause */
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.pauses, 10);
    assert_int_equal(c.unpauses, 11);
    assert_int_equal(fake_guardian.word_at_stop, XU_PAUSE_RUNNING);
    assert_string_equal(slurp(f->out), folded_expected);
}

static void test_create_then_attach_fails(void **state)
{
    struct fixture *f = *state;
    struct xu_target t;

    /* created, but our own open is refused: the creation pause stays for
     * the guardian, which is handed PAUSED */
    f->job.domain = NULL;
    f->job.create = "web1.cfg";
    xu_sim_fail_open(f->g.sim, -EACCES);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_PRIVILEGE);
    assert_int_equal(fake_guardian.word_at_stop, XU_PAUSE_PAUSED);
    /* what the guardian does with it */
    xu_sim_fail_open(f->g.sim, 0);
    assert_int_equal(xu_target_open(&t, &xu_sim_ops, DOMID, &f->cap.log), 0);
    assert_int_equal(xu_pause_recover(&t, fake_guardian.word_at_stop, &f->cap.log), 0);
    xu_target_close(&t);
    assert_int_equal(f->cap.warnings, 1);
}

/* ---- is the ELF the running kernel? ---- */

#define TEXT_LEN 0x1000

/* What lies at the ELF's text before the kernel is there: an HVM guest's
 * firmware (hvmloader sits where such kernels link), here bytes the
 * kernel's code does not hold. */
static void put_firmware(struct fixture *f)
{
    uint8_t fw[TEXT_LEN];
    size_t i;

    for (i = 0; i < sizeof(fw); i++)
        fw[i] = (uint8_t)(i * 7 + 1);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, T, TEXT_LEN), 0);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, T, fw, sizeof(fw)), 0);
}

/* The firmware loads the kernel: the ELF's own text, between two ticks,
 * with the guest running. */
static void load_kernel(void *ctx, const struct xu_sampler_stats *st)
{
    struct fixture *f = ctx;
    uint8_t text[TEXT_LEN];
    size_t i;

    (void)st;
    memset(text, 0xcc, sizeof(text));       /* int3, as mkelf fills text */
    for (i = 0; i < RATIO_KERNEL_NCALLS; i++)
        memcpy(text + (ratio_kernel_calls[i].addr - T), ratio_kernel_calls[i].bytes, ratio_kernel_calls[i].len);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, T, text, sizeof(text)), 0);
}

static void test_hvm_kernel_loaded_after_creation(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    /* xen-uniprof --create web1.cfg --destroy: the firmware still occupies
     * the kernel's addresses when the first check runs, and the kernel is
     * there by the end: no warning, the second check says it matches */
    put_firmware(f);
    f->job.domain = NULL;
    f->job.create = "web1.cfg";
    f->job.destroy = true;
    f->job.stats = NULL;
    f->env.progress = load_kernel;
    f->env.progress_interval_s = 0.02;
    f->env.ui_ctx = f;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 0);
    assert_non_null(strstr(f->cap.text, "checking again after sampling"));
    assert_non_null(strstr(f->cap.text, "matches the running kernel"));
    /* the second check took one pause of its own, and gave it back */
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.pauses, 11);
    assert_int_equal(c.unpauses, 12);
    assert_string_equal(slurp(f->out), folded_expected);
}

static void test_hvm_wrong_kernel_warns_after_sampling(void **state)
{
    struct fixture *f = *state;

    /* what the first check saw is still there at the end: a wrong ELF */
    put_firmware(f);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 3);
    assert_non_null(strstr(f->cap.text, "checking again after sampling"));
    assert_non_null(strstr(f->cap.text, "does NOT match the kernel running in domain 5"));
    assert_string_equal(slurp(f->out), folded_expected);
}

static void test_pv_wrong_kernel_warns_at_once(void **state)
{
    struct fixture *f = *state;

    /* a PV kernel is in place before the domain first runs: the first
     * answer is final */
    put_firmware(f);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.warnings, 3);
    assert_null(strstr(f->cap.text, "checking again"));
    assert_non_null(strstr(f->cap.text, "does NOT match the kernel running in domain 5"));
}

static void test_hvm_domain_ends_before_the_second_check(void **state)
{
    struct fixture *f = *state;

    /* nothing to look at once the domain is gone: no second check, and no
     * warning made from the firmware's bytes */
    put_firmware(f);
    xu_sim_end_after(f->g.sim, 5, 1);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_DOMAIN_ENDED);
    assert_null(strstr(f->cap.text, "does NOT match"));
}

/*
 * The ratio kernel with ORC tables, as objtool would write them for it in
 * the 4.14 layout: _start begins the stack (END), the functions after it
 * keep frame records (CFA rbp + 16, rbp saved below the return address),
 * a terminator at the end of the text.
 */
static void write_orc_kernel(const char *path)
{
    static const uint16_t flags[3] = { 0x400, 0x14, 0 };
    static const int16_t sp_off[3] = { 0, 16, 0 }, bp_off[3] = { 0, -16, 0 };
    const uint64_t at[3] = { SIM_TEXT_BASE, SIM_TEXT_BASE + 0x100, SIM_TEXT_BASE + 0x1000 };
    const uint64_t ip_sec = SIM_TEXT_BASE + 0x1000, orc_sec = SIM_TEXT_BASE + 0x1100;
    const struct mkelf_section secs[] = {
        { ".text", SIM_TEXT_BASE, 0x1000, false },
        { ".orc_unwind_ip", ip_sec, 12, true },
        { ".orc_unwind", orc_sec, 18, true },
    };
    struct mkelf_patch patches[RATIO_KERNEL_NCALLS + 2];
    uint8_t ip[12], orc[18];
    int i;

    for (i = 0; i < 3; i++) {
        int32_t rel = (int32_t)(at[i] - (ip_sec + 4 * (uint64_t)i));

        memcpy(ip + 4 * i, &rel, 4);
        memcpy(orc + 6 * i, &sp_off[i], 2);
        memcpy(orc + 6 * i + 2, &bp_off[i], 2);
        memcpy(orc + 6 * i + 4, &flags[i], 2);
    }
    memcpy(patches, ratio_kernel_calls, sizeof(ratio_kernel_calls));
    patches[RATIO_KERNEL_NCALLS] = (struct mkelf_patch){ ip_sec, ip, sizeof(ip) };
    patches[RATIO_KERNEL_NCALLS + 1] = (struct mkelf_patch){ orc_sec, orc, sizeof(orc) };
    assert_int_equal(mkelf_write_patched(path, secs, 3, patches, RATIO_KERNEL_NCALLS + 2,
                                         ratio_kernel_syms, RATIO_KERNEL_NSYMS, 0), 0);
}

/* auto takes the ORC tables of a kernel that has them, and its stacks
 * come out as the frame records say: the same profile, all complete. */
static void test_orc_kernel(void **state)
{
    struct fixture *f = *state;

    write_orc_kernel(kernel_path);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_non_null(strstr(f->cap.text, "unwinding with the kernel's ORC tables (3 entries, "
                                        "layout 4.14-6.2"));
    assert_string_equal(slurp(f->out), folded_expected);
    assert_non_null(strstr(slurp(f->stats), "\"walks\": {\"complete\": 10,"));
}

/*
 * The ORC kernel of test_orc_kernel with code bytes of its own (a uniform
 * text says nothing to the ELF check) and the syscall entry a slide is
 * read against; text gets the .text as the file holds it (seed 0), or
 * another build's bytes (seed 1).
 */
static void write_kaslr_kernel(const char *path, uint8_t *text, unsigned int seed)
{
    static const uint16_t flags[3] = { 0x400, 0x14, 0 };
    static const int16_t sp_off[3] = { 0, 16, 0 }, bp_off[3] = { 0, -16, 0 };
    const uint64_t at[3] = { T, T + 0x100, T + 0x1000 };
    const uint64_t ip_sec = T + 0x1000, orc_sec = T + 0x1100;
    const struct mkelf_section secs[] = {
        { ".text", T, TEXT_LEN, false },
        { ".orc_unwind_ip", ip_sec, 12, true },
        { ".orc_unwind", orc_sec, 18, true },
    };
    struct mkelf_sym sy[RATIO_KERNEL_NSYMS + 1];
    struct mkelf_patch patches[3];
    uint8_t ip[12], orc[18], file[TEXT_LEN];
    size_t i;

    for (i = 0; i < TEXT_LEN; i++) {
        file[i] = (uint8_t)((i * 2654435761u) >> 13);
        text[i] = (uint8_t)(file[i] ^ (seed ? 0x5a : 0));
    }
    for (i = 0; i < RATIO_KERNEL_NCALLS; i++) {
        memcpy(file + (ratio_kernel_calls[i].addr - T), ratio_kernel_calls[i].bytes,
               ratio_kernel_calls[i].len);
        if (!seed)
            memcpy(text + (ratio_kernel_calls[i].addr - T), ratio_kernel_calls[i].bytes,
                   ratio_kernel_calls[i].len);
    }
    for (i = 0; i < 3; i++) {
        int32_t rel = (int32_t)(at[i] - (ip_sec + 4 * (uint64_t)i));

        memcpy(ip + 4 * i, &rel, 4);
        memcpy(orc + 6 * i, &sp_off[i], 2);
        memcpy(orc + 6 * i + 2, &bp_off[i], 2);
        memcpy(orc + 6 * i + 4, &flags[i], 2);
    }
    patches[0] = (struct mkelf_patch){ T, file, sizeof(file) };
    patches[1] = (struct mkelf_patch){ ip_sec, ip, sizeof(ip) };
    patches[2] = (struct mkelf_patch){ orc_sec, orc, sizeof(orc) };
    memcpy(sy, ratio_kernel_syms, sizeof(ratio_kernel_syms));
    sy[RATIO_KERNEL_NSYMS] = (struct mkelf_sym){ "entry_SYSCALL_64", ENTRY_SYSCALL, 0x100,
                                                  STT_FUNC, STB_GLOBAL, 0 };
    assert_int_equal(mkelf_write_patched(path, secs, 3, patches, 3, sy, RATIO_KERNEL_NSYMS + 1,
                                         0), 0);
}

/* The kernel's text in the guest, slid: at T + KASLR_SLIDE. */
static void put_slid_text(struct fixture *f, const uint8_t *text)
{
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, T + KASLR_SLIDE, TEXT_LEN), 0);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, T + KASLR_SLIDE, text, TEXT_LEN), 0);
}

/* An HVM guest whose kernel moved at boot: the slide read from MSR_LSTAR,
 * confirmed by the text there and said; the symbols, the ORC tables and
 * the code moved with it, so the profile is the one an unmoved kernel
 * gives: every frame named, every stack complete. */
static void test_kaslr_kernel(void **state)
{
    struct fixture *f = *state;
    uint8_t text[TEXT_LEN];

    write_kaslr_kernel(kernel_path, text, 0);
    put_slid_text(f, text);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 0);
    assert_non_null(strstr(f->cap.text, "KASLR: "));
    assert_non_null(strstr(f->cap.text, "runs 0x2a00000 bytes above its link-time addresses "
                                        "(slide from MSR_LSTAR (entry_SYSCALL_64) = "
                                        "0xffffffff82a00800), confirmed against guest memory"));
    assert_null(strstr(f->cap.text, "checking again"));
    assert_string_equal(slurp(f->out), folded_expected);
    assert_non_null(strstr(slurp(f->stats), "\"walks\": {\"complete\": 10,"));
}

/* The slide the register points at, but another build's bytes there: the
 * ELF check's warning, nothing moved, nothing named. */
static void test_kaslr_kernel_not_confirmed(void **state)
{
    struct fixture *f = *state;
    uint8_t text[TEXT_LEN];
    const char *out;

    write_kaslr_kernel(kernel_path, text, 1);
    put_slid_text(f, text);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_non_null(strstr(f->cap.text, "KASLR: no slide of"));
    assert_non_null(strstr(f->cap.text, "does NOT match the kernel running in domain 5"));
    out = slurp(f->out);
    assert_null(strstr(out, "function_"));
    assert_non_null(strstr(out, "0xffffffff82a00"));
}

/* The running kernel's kallsyms in the guest, slid: the ratio kernel's symbols, its
 * syscall entry and the linker's marks, in a .rodata 2 MiB above its text. */
static void put_slid_kallsyms(struct fixture *f)
{
    const uint64_t text = T + KASLR_SLIDE, ro = text + 0x200000;
    struct mkks_sym s[RATIO_KERNEL_NSYMS + 5];
    size_t i, n = 0, len = 0;
    uint8_t *blob;

    /* _text after _start at the same address, as a kernel's build orders names of one
     * rank: the first names the address */
    for (i = 0; i < RATIO_KERNEL_NSYMS; i++) {
        s[n++] = (struct mkks_sym){ ratio_kernel_syms[i].name,
                                    ratio_kernel_syms[i].addr + KASLR_SLIDE, 'T' };
        if (i == 0)
            s[n++] = (struct mkks_sym){ "_text", text, 'T' };
    }
    s[n++] = (struct mkks_sym){ "entry_SYSCALL_64", ENTRY_SYSCALL + KASLR_SLIDE, 'T' };
    s[n++] = (struct mkks_sym){ "_etext", text + TEXT_LEN, 'T' };
    s[n++] = (struct mkks_sym){ "__start_rodata", ro, 'D' };
    s[n++] = (struct mkks_sym){ "__end_rodata", ro, 'D' };
    blob = mkkallsyms_ending(s, n, MKKS_SEQS, n - 1, ro + 0x100, 1, &len);
    assert_non_null(blob);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, ro, 0x100 + len), 0);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, ro + 0x100, blob, len), 0);
    free(blob);
}

/* A domain whose kernel file is gone (pygrub's copy, deleted once the domain was
 * built): its symbols come from the kernel in its memory, at the addresses it runs
 * at, and the profile is the one the file gives: every frame named, every stack
 * complete. */
static void test_kernel_from_memory(void **state)
{
    struct fixture *f = *state;
    uint8_t text[TEXT_LEN];

    write_kaslr_kernel(kernel_path, text, 0);
    put_slid_text(f, text);
    put_slid_kallsyms(f);
    assert_int_equal(unlink(kernel_path), 0);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_OK);
    assert_int_equal(f->cap.errors, 0);
    assert_int_equal(f->cap.warnings, 0);
    assert_non_null(strstr(f->cap.text, "vmlinux is gone (a bootloader's copy"));
    assert_non_null(strstr(f->cap.text, "symbols: the kernel in domain 5's memory: 11 kallsyms "
                                        "symbols"));
    assert_non_null(strstr(f->cap.text, "text 0xffffffff82a00000-0xffffffff82a01000"));
    assert_string_equal(slurp(f->out), folded_expected);
    assert_non_null(strstr(slurp(f->stats), "\"walks\": {\"complete\": 10,"));
}

/* ... and one whose memory holds no kernel where an x86-64 kernel runs: one error
 * that says so, nothing written, the guest left running. */
static void test_kernel_from_memory_none(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(unlink(kernel_path), 0);
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_SYMBOLS);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "cannot read domain 5's kernel from its memory: "
                                               "the guest maps nothing where an x86-64 kernel "
                                               "runs"));
    assert_false(exists(f->out));
}

/* --unwind=orc insists on ORC tables: an ELF without them fails before
 * the guest is touched, naming what is missing. */
static void test_orc_without_tables(void **state)
{
    struct fixture *f = *state;

    f->job.unwind = XU_UNWIND_ORC;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_SYMBOLS);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "--unwind=orc"));
    assert_non_null(strstr(f->cap.first_error, "no ORC tables"));
    assert_int_equal(fake_guardian.starts, 0);
    assert_false(exists(f->out));
}

/* --unwind=ehabi insists on ARM EHABI tables, as orc on ORC's. */
static void test_ehabi_without_tables(void **state)
{
    struct fixture *f = *state;

    f->job.unwind = XU_UNWIND_EHABI;
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_SYMBOLS);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.first_error, "--unwind=ehabi"));
    assert_non_null(strstr(f->cap.first_error, "no usable ARM EHABI tables"));
    assert_int_equal(fake_guardian.starts, 0);
    assert_false(exists(f->out));
}

/* The one table of --unwind names every command parses with. */
static void test_unwind_names(void **state)
{
    static const struct {
        const char *name;
        enum xu_unwind_choice choice;
    } known[] = {
        { "auto", XU_UNWIND_AUTO }, { "fp", XU_UNWIND_FP }, { "cfi", XU_UNWIND_CFI },
        { "orc", XU_UNWIND_ORC }, { "ehabi", XU_UNWIND_EHABI },
    };
    enum xu_unwind_choice c;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        c = XU_UNWIND_FP;
        assert_int_equal(xu_record_unwind_parse(known[i].name, &c), 0);
        assert_int_equal(c, known[i].choice);
        assert_non_null(strstr(XU_RECORD_UNWIND_NAMES, known[i].name));
    }
    c = XU_UNWIND_ORC;
    assert_int_equal(xu_record_unwind_parse("dwarf", &c), -1);
    assert_int_equal(xu_record_unwind_parse("", &c), -1);
    assert_int_equal(xu_record_unwind_parse("EHABI", &c), -1);
    assert_int_equal(c, XU_UNWIND_ORC);
}

/* An ARM ELF with .ARM.exidx and no DWARF CFI: auto and ehabi take its
 * EHABI tables into the walk's env; fp reads none. */
static void test_auto_takes_ehabi(void **state)
{
    struct fixture *f = *state;
    static const enum xu_unwind_choice asks[] = { XU_UNWIND_AUTO, XU_UNWIND_EHABI };
    struct xu_record_config job = f->job;
    struct xu_elf_choice elf;
    struct xu_sampler_config cfg;
    struct xu_unwind_env env;
    void *table;
    size_t i;

    xu_elf_choice_init(&elf);
    elf.path = XU_TEST_SRCDIR "/tests/unit/unwind/ehabi_fixture.elf";
    for (i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
        memset(&cfg, 0, sizeof(cfg));
        memset(&env, 0, sizeof(env));
        job.unwind = asks[i];
        assert_int_equal(xu_record_choose_unwinder(&job, &elf, &cfg, &table, &f->cap.log),
                         XU_RECORD_OK);
        assert_ptr_equal(cfg.unwinder, &xu_unwind_ehabi_ops);
        xu_record_apply_unwind_table(table, &env);
        assert_non_null(env.ehabi);
        assert_null(env.orc);
        xu_record_free_unwind_table(table);
    }
    assert_non_null(strstr(f->cap.text, "unwinding with the ARM EHABI tables"));
    assert_int_equal(f->cap.errors, 0);

    job.unwind = XU_UNWIND_FP;
    assert_int_equal(xu_record_choose_unwinder(&job, &elf, &cfg, &table, &f->cap.log),
                     XU_RECORD_OK);
    assert_ptr_equal(cfg.unwinder, &xu_unwind_fp_ops);
    xu_record_apply_unwind_table(table, &env);
    assert_null(env.ehabi);
    xu_record_free_unwind_table(table);
}

static void test_unknown_format_is_usage(void **state)
{
    struct fixture *f = *state;

    f->job.format = "gif";
    assert_int_equal(xu_record_run(&f->job, &f->env), XU_RECORD_USAGE);
    assert_int_equal(f->cap.errors, 1);
    assert_false(exists(f->out));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_record_by_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ehabi_without_tables, setup, teardown),
        cmocka_unit_test(test_unwind_names),
        cmocka_unit_test_setup_teardown(test_auto_takes_ehabi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_summary_names_the_missing_root, setup, teardown),
        cmocka_unit_test_setup_teardown(test_summary_hints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_record_by_domid_with_the_real_guardian, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_summary_and_stop_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_such_domain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stripped_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_privileged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_privileged_for_the_guardian, setup, teardown),
        cmocka_unit_test_setup_teardown(test_domain_dies_mid_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paused_by_admin_throughout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xen_version_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_left_paused_is_a_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_write_leaves_no_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_format_is_usage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_orc_without_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_orc_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kaslr_kernel, setup_hvm_kaslr, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_from_memory, setup_hvm_kaslr, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_from_memory_none, setup_hvm, teardown),
        cmocka_unit_test_setup_teardown(test_kaslr_kernel_not_confirmed, setup_hvm_kaslr,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_create_adopts_the_creation_pause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_then_attach_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hvm_kernel_loaded_after_creation, setup_hvm,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_hvm_wrong_kernel_warns_after_sampling, setup_hvm,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pv_wrong_kernel_warns_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hvm_domain_ends_before_the_second_check,
                                        setup_hvm, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
