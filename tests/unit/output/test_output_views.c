/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output_views.c - --weight and --state on a profile the sampler took
 * from the simulated guest with scripted vCPU states and CPU times: the
 * weights and root frames each writer shows, exactly.
 *
 * The script: vCPU 0 runs chain A through a cycle running (3000 ns),
 * running (3000 ns), blocked (1000 ns), runnable (0 ns); vCPU 1 sits
 * blocked in chain B using 700 ns a tick.  Eight ticks: vCPU 0 is sampled
 * running 4 times (9000 ns: its first tick has no tick before it), blocked
 * twice (2000 ns), runnable twice (0 ns); vCPU 1 blocked 8 times (4900 ns).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output_text.h"
#include "sim_guest.h"
#include "output/xu_output.h"
#include "sample/xu_sampler.h"

#define A "0xffffffff80000010;0xffffffff80002020;0xffffffff80001010"
#define B "0xffffffff80000010;0xffffffff80002040;0xffffffff80003030"

static const uint64_t chain_a[] = { 0xffffffff80001010ULL, 0xffffffff80002020ULL,
                                    0xffffffff80000010ULL };
static const uint64_t chain_b[] = { 0xffffffff80003030ULL, 0xffffffff80002040ULL,
                                    0xffffffff80000010ULL };

struct fixture {
    struct sim_guest g;
    struct xu_profile *p;
    struct xu_output_meta meta;
    struct xu_output_options oo;
    struct xu_output_ctx ctx;
};

static int setup(void **state)
{
    static struct fixture f;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_vcpu_regs regs;
    struct xu_sampler_config cfg = { .frequency_hz = 1000, .max_depth = 32, .no_sleep = 1,
                                     .max_ticks = 8 };
    struct xu_sampler_stats *st = malloc(sizeof(*st));
    struct xu_sim_counters c;

    memset(&f, 0, sizeof(f));
    assert_non_null(st);
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 2, 0), 0);
    assert_int_equal(sim_guest_chain(&f.g, 0, chain_a, 3, &regs), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    assert_int_equal(sim_guest_chain(&f.g, 1, chain_b, 3, &regs), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 1, &regs), 0);
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNING, 3000), 0);
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNING, 3000), 0);
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_BLOCKED, 1000), 0);
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNABLE, 0), 0);
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 1, XU_VSTATE_BLOCKED, 700), 0);

    xu_sim_target_open(f.g.sim, &t, NULL);
    m = xu_mem_new(&t, NULL);
    f.p = xu_profile_new(0);
    assert_non_null(m);
    assert_non_null(f.p);
    assert_int_equal(xu_sampler_run(&t, m, f.p, &cfg, st), 0);
    assert_int_equal(st->samples, 16);
    xu_mem_free(m);
    xu_target_close(&t);
    xu_sim_get_counters(f.g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    free(st);

    f.meta.domid = 1;
    f.meta.backend = "sim";
    f.meta.frequency_hz = 1000;
    f.ctx.profile = f.p;
    f.ctx.meta = &f.meta;
    f.ctx.opts = &f.oo;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_profile_free(f->p);
    sim_guest_fini(&f->g);
    return 0;
}

static char *render(const struct xu_output_ops *ops, const struct fixture *f)
{
    return output_text(ops, &f->ctx, NULL);
}

static void folded_is(struct fixture *f, enum xu_weight w, enum xu_state_view v,
                      const char *expected)
{
    char *text;

    f->oo.weight = w;
    f->oo.states = v;
    text = render(&xu_output_folded, f);
    assert_string_equal(text, expected);
    free(text);
}

static void test_folded_views(void **state)
{
    struct fixture *f = *state;

    folded_is(f, XU_WEIGHT_SAMPLES, XU_STATES_ALL, A " 8\n" B " 8\n");
    folded_is(f, XU_WEIGHT_SAMPLES, XU_STATES_ONCPU, A " 4\n");
    folded_is(f, XU_WEIGHT_SAMPLES, XU_STATES_OFFCPU, A " 4\n" B " 8\n");
    folded_is(f, XU_WEIGHT_SAMPLES, XU_STATES_SPLIT,
              "[blocked];" A " 2\n[blocked];" B " 8\n[runnable];" A " 2\n[running];" A " 4\n");
    /* microseconds, each stack's sum rounded: 9000, 2000, 0 and 4900 ns */
    folded_is(f, XU_WEIGHT_CPU, XU_STATES_ALL, A " 11\n" B " 5\n");
    folded_is(f, XU_WEIGHT_CPU, XU_STATES_ONCPU, A " 9\n");
    folded_is(f, XU_WEIGHT_CPU, XU_STATES_OFFCPU, A " 2\n" B " 5\n");
    /* a state that weighs nothing draws nothing */
    folded_is(f, XU_WEIGHT_CPU, XU_STATES_SPLIT,
              "[blocked];" A " 2\n[blocked];" B " 5\n[running];" A " 9\n");
    f->oo.per_vcpu = true;
    folded_is(f, XU_WEIGHT_SAMPLES, XU_STATES_SPLIT,
              "vcpu0;[blocked];" A " 2\nvcpu0;[runnable];" A " 2\nvcpu0;[running];" A " 4\n"
              "vcpu1;[blocked];" B " 8\n");
}

static void test_report_views(void **state)
{
    struct fixture *f = *state;
    char *text;

    text = render(&xu_output_report, f);
    /* the state table, whatever the view */
    assert_non_null(strstr(text, "\n  vCPU   running  runnable   blocked   unknown  CPU time (ms)\n"
                                 "     0         4         2         2         0          0.011\n"
                                 "     1         0         0         8         0          0.005\n"));
    free(text);
    f->oo.weight = XU_WEIGHT_CPU;
    f->oo.states = XU_STATES_SPLIT;
    text = render(&xu_output_report, f);
    assert_non_null(strstr(text, "Weight: CPU time each vCPU consumed since its previous tick"));
    assert_non_null(strstr(text, "\n[running]: 9 \xc2\xb5s of CPU time\n"));
    assert_non_null(strstr(text, "\n[blocked]: 7 \xc2\xb5s of CPU time\n"));
    assert_non_null(strstr(text, "\n[runnable]: 0 \xc2\xb5s of CPU time\n"));
    assert_non_null(strstr(text, "Top functions by self CPU time (\xc2\xb5s) ([running])\n"));
    free(text);
}

static void test_speedscope_views(void **state)
{
    struct fixture *f = *state;
    char *text;

    f->oo.weight = XU_WEIGHT_CPU;
    text = render(&xu_output_speedscope, f);
    /* nanoseconds, in the order the stacks were first seen, the one that
     * weighs nothing left out */
    assert_non_null(strstr(text, "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":15900,"));
    assert_non_null(strstr(text, "\"weights\":[9000,4900,2000]}"));
    free(text);
    f->oo.weight = XU_WEIGHT_SAMPLES;
    f->oo.states = XU_STATES_SPLIT;
    text = render(&xu_output_speedscope, f);
    assert_non_null(strstr(text, "\"unit\":\"none\",\"startValue\":0,\"endValue\":16,"));
    assert_non_null(strstr(text, "{\"name\":\"[running]\"}"));
    assert_non_null(strstr(text, "{\"name\":\"[blocked]\"}"));
    free(text);
}

/* The red part of the fill of the frame titled name ("name (..."). */
static int fill_red(const char *svg, const char *name)
{
    char key[128];
    const char *p;
    int r = -1;

    snprintf(key, sizeof(key), "<title>%s (", name);
    p = strstr(svg, key);
    assert_non_null(p);
    p = strstr(p, "fill=\"rgb(");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "fill=\"rgb(%d,", &r), 1);
    return r;
}

static void test_svg_views(void **state)
{
    struct fixture *f = *state;
    char *text;

    /* on-CPU frames warm (red from 205 up), off-CPU ones cold */
    f->oo.states = XU_STATES_SPLIT;
    text = render(&xu_output_svg, f);
    assert_true(fill_red(text, "[blocked]") < 100);
    assert_true(fill_red(text, "0xffffffff80003030") < 100);
    assert_non_null(strstr(text, "split by vCPU state"));
    free(text);
    f->oo.states = XU_STATES_ONCPU;
    text = render(&xu_output_svg, f);
    assert_true(fill_red(text, "0xffffffff80001010") >= 205);
    assert_null(strstr(text, "0xffffffff80003030"));
    assert_non_null(strstr(text, "on-CPU samples only"));
    free(text);
    f->oo.states = XU_STATES_OFFCPU;
    f->oo.weight = XU_WEIGHT_CPU;
    text = render(&xu_output_svg, f);
    assert_true(fill_red(text, "0xffffffff80001010") < 100);
    assert_non_null(strstr(text, "off-CPU samples only (runnable, blocked); "
                                 "width: CPU time (0.007 ms)"));
    assert_non_null(strstr(text, "0xffffffff80003030 (5 \xc2\xb5s of CPU time, 71.43%"));
    assert_non_null(strstr(text, "data-unit=\"\xc2\xb5s of CPU time\""));
    free(text);
}

/* The raw trace keeps every sample whatever the view. */
static void test_raw_ignores_views(void **state)
{
    struct fixture *f = *state;
    char *all, *text;

    all = render(&xu_output_raw, f);
    f->oo.states = XU_STATES_ONCPU;
    f->oo.weight = XU_WEIGHT_CPU;
    text = render(&xu_output_raw, f);
    assert_string_equal(text, all);
    assert_non_null(strstr(text, "#[runnable]+vcpu=0,cpu_ns=0\n"));
    assert_non_null(strstr(text, "#[blocked]+vcpu=1,cpu_ns=613\n"));   /* 4900 ns / 8 */
    free(text);
    free(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_folded_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_speedscope_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_ignores_views, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
