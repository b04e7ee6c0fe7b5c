/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_raw_format.c - the raw trace's format versions: what the writer
 * puts in (format 2: a state line per sample), what the reader takes back
 * (state, vCPU and CPU time, exactly in sum), format 1 read as "unknown",
 * and a later or garbled format number refused with a message that says so.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input/xu_input.h"
#include "output/xu_output.h"
#include "output_text.h"

/* Errors the reader logs, kept for the tests to read. */
static char logged[4096];

static void keep_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    size_t len = strlen(logged);

    (void)ctx;
    (void)level;
    snprintf(logged + len, sizeof(logged) - len, "%s\n", msg);
}

static struct xu_log keep_log = { .emit = keep_emit, .min_level = XU_LOG_DEBUG };

static struct xu_input *read_text(const char *text, int expect_rc)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct xu_input *in = NULL;

    logged[0] = '\0';
    assert_non_null(f);
    assert_int_equal(xu_input_read(f, XU_INPUT_RAW, NULL, &keep_log, &in), expect_rc);
    fclose(f);
    if (expect_rc == 0)
        assert_non_null(in);
    return in;
}

/* The profile as raw text, as `xen-uniprof -f raw` writes it. */
static char *write_raw(const struct xu_profile *p)
{
    struct xu_output_meta meta = { .domid = 3, .backend = "sim", .start_time = 0 };
    struct xu_output_options oo = { 0 };
    struct xu_output_ctx ctx = { .profile = p, .meta = &meta, .opts = &oo, .log = &keep_log };

    return output_text(&xu_output_raw, &ctx, NULL);
}

/* The stack of in with this state and vCPU (there is one in these tests). */
static const struct xu_stack *find(const struct xu_input *in, enum xu_vstate st, uint32_t vcpu)
{
    size_t k;

    for (k = 0; k < xu_profile_nr_stacks(in->profile); k++) {
        const struct xu_stack *s = xu_profile_stack(in->profile, k);

        if (s->state == st && s->vcpu == vcpu)
            return s;
    }
    fail_msg("no stack in state %s on vCPU %u", xu_vstate_name(st), vcpu);
    return NULL;
}

static void test_round_trip(void **state)
{
    static const uint64_t a[] = { 0x1084, 0x1050, 0x1010 };
    static const uint64_t b[] = { 0x2000 };
    struct xu_profile *p = xu_profile_new(0);
    struct xu_input *in;
    const struct xu_stack *s;
    char *text;

    (void)state;
    assert_non_null(p);
    /* three samples worth 1000 ns in all: blocks of 334, 333 and 333 */
    assert_int_equal(xu_profile_add_state(p, 0, XU_VSTATE_RUNNING, a, 3, XU_WALK_COMPLETE,
                                          3, 1000), 0);
    assert_int_equal(xu_profile_add_state(p, 2, XU_VSTATE_BLOCKED, b, 1, XU_WALK_UNMAPPED,
                                          1, 7), 0);
    assert_int_equal(xu_profile_add_state(p, 1, XU_VSTATE_RUNNABLE, a, 3, XU_WALK_COMPLETE,
                                          2, 0), 0);
    text = write_raw(p);
    assert_non_null(strstr(text, "(xen-uniprof raw format 2)\n#tracing domid 3 on "));
    assert_non_null(strstr(text, "0x1010\n#[running]+vcpu=0,cpu_ns=334\n1\n\n"
                                 "0x1084\n0x1050\n0x1010\n#[running]+vcpu=0,cpu_ns=333\n1\n\n"));
    assert_non_null(strstr(text, "0x2000\n#[blocked]+vcpu=2,cpu_ns=7\n0\n\n"));

    in = read_text(text, 0);
    assert_int_equal(in->stats.bad_lines, 0);
    assert_int_equal(xu_profile_nr_stacks(in->profile), 3);
    s = find(in, XU_VSTATE_RUNNING, 0);
    assert_int_equal(s->count, 3);
    assert_int_equal(s->cpu_ns, 1000);
    assert_int_equal(s->depth, 3);
    assert_int_equal(s->pcs[0], 0x1084);
    s = find(in, XU_VSTATE_BLOCKED, 2);
    assert_int_equal(s->count, 1);
    assert_int_equal(s->cpu_ns, 7);
    assert_false(xu_walk_complete(s->end));
    s = find(in, XU_VSTATE_RUNNABLE, 1);
    assert_int_equal(s->count, 2);
    assert_int_equal(s->cpu_ns, 0);
    xu_input_free(in);
    free(text);
    xu_profile_free(p);
}

/* Format 1, every trace before the mark (and the original uniprof's). */
static void test_format_1(void **state)
{
    static const char v1[] =
        "#unikernel stack tracer using xencall hypercall interface\n"
        "#tracing domid 7 on 2021-05-01 12:00:00 UTC (+0000)\n"
        "\n"
        "0x1084\n0x1010\n1\n\n"
        "0x1084\n0x1010\n1\n\n"
        /* a state line means nothing in format 1: a stray comment */
        "0x1044\n#[running]+vcpu=1,cpu_ns=5\n1\n\n";
    struct xu_input *in = read_text(v1, 0);
    const struct xu_stack *s;

    (void)state;
    assert_int_equal(xu_profile_nr_stacks(in->profile), 2);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->count, 2);
    assert_int_equal(s->state, XU_VSTATE_UNKNOWN);
    assert_int_equal(s->cpu_ns, 0);
    assert_int_equal(s->vcpu, 0);
    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->state, XU_VSTATE_UNKNOWN);
    assert_int_equal(s->depth, 1);
    assert_int_equal(in->stats.bad_lines, 1);
    assert_non_null(strstr(logged, "comment inside the trace"));
    xu_input_free(in);
}

static void test_later_format_refused(void **state)
{
    static const char v3[] =
        "#unikernel stack tracer using xencall hypercall interface (xen-uniprof raw format 3)\n"
        "#tracing domid 7 on 2031-05-01 12:00:00 UTC (+0000)\n"
        "\n"
        "0x1084\n#[running]+vcpu=0,cpu_ns=5\n1\n\n";
    static const char garbled[] =
        "#unikernel stack tracer using xencall hypercall interface "
        "(xen-uniprof raw format 18446744073709551617)\n"
        "\n"
        "0x1084\n1\n\n";
    static const char zero[] =
        "#unikernel stack tracer using xc hypercall interface (xen-uniprof raw format 0)\n"
        "\n0x1084\n1\n\n";

    (void)state;
    assert_null(read_text(v3, -EPROTO));
    assert_non_null(strstr(logged, "raw trace format 3 is not one this xen-uniprof reads "
                                   "(formats 1 to 2)"));
    assert_null(read_text(garbled, -EPROTO));
    /* a hostile number is quoted cut short, not in full */
    assert_non_null(strstr(logged, "raw trace format 184467440 is not one"));
    assert_null(read_text(zero, -EPROTO));
    assert_non_null(strstr(logged, "raw trace format 0 is not one"));
}

/* State lines a hostile file may hold: skipped and counted, the sample
 * kept with its state unknown. */
static void test_hostile_state_lines(void **state)
{
    static const char text[] =
        "#unikernel stack tracer using sim hypercall interface (xen-uniprof raw format 2)\n"
        "#tracing domid 7 on 2031-05-01 12:00:00 UTC (+0000)\n"
        "\n"
        "0x1000\n#[sleeping]+vcpu=0,cpu_ns=5\n1\n\n"                /* no such state */
        "0x1000\n#[running]+vcpu=4096,cpu_ns=5\n1\n\n"              /* vCPU past the bound */
        "0x1000\n#[running]+vcpu=0,cpu_ns=99999999999999999999\n1\n\n"  /* past 2^64 */
        "0x1000\n#[running]+vcpu=0,cpu_ns=4611686018427387905\n1\n\n"   /* past 2^62 */
        "0x1000\n#[running]+vcpu=0,cpu_ns=12x\n1\n\n"
        "0x1000\n#[running\n1\n\n"
        "0x1000\n#[running]+vcpu=1,cpu_ns=12\n1\n\n";
    struct xu_input *in = read_text(text, 0);
    const struct xu_stack *s;

    (void)state;
    assert_int_equal(in->stats.bad_lines, 6);
    assert_int_equal(xu_profile_nr_stacks(in->profile), 2);
    s = find(in, XU_VSTATE_UNKNOWN, 0);
    assert_int_equal(s->count, 6);
    assert_int_equal(s->cpu_ns, 0);
    s = find(in, XU_VSTATE_RUNNING, 1);
    assert_int_equal(s->count, 1);
    assert_int_equal(s->cpu_ns, 12);
    xu_input_free(in);
}

/* CPU time in all is bounded like the sample count: a file past it is
 * refused, not wrapped. */
static void test_cpu_time_bounded(void **state)
{
    char text[4096];
    size_t len;
    int i;

    (void)state;
    len = (size_t)snprintf(text, sizeof(text), "#x (xen-uniprof raw format 2)\n\n");
    /* four samples of 2^62 ns: the second passes the bound */
    for (i = 0; i < 4; i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len,
                                "0x1000\n#[running]+vcpu=0,cpu_ns=4611686018427387904\n1\n\n");
    assert_null(read_text(text, -EOVERFLOW));
    assert_non_null(strstr(logged, "ns of CPU time"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_format_1),
        cmocka_unit_test(test_later_format_refused),
        cmocka_unit_test(test_hostile_state_lines),
        cmocka_unit_test(test_cpu_time_bounded),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
