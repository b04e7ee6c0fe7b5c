/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output_report.c - the exact text of the report format: self and
 * total counts (recursion counted once), ties broken by name, long names
 * cut to fit 80 columns, per-vCPU sections, and hex for unresolved frames.
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

#include "output/xu_output.h"
#include "profile/xu_profile.h"

enum { MAIN, WORK, LEAF, LONG, REC };

static const char *const names[] = {
    [MAIN] = "main",
    [WORK] = "work",
    [LEAF] = "leaf",
    [LONG] = "a_function_with_a_very_long_name_that_does_not_fit_in_the_column_at_all",
    [REC] = "rec",
};

static const struct xu_frame_names frame_names = { names, 5 };

struct fixture {
    struct xu_profile *p;
    struct xu_output_options opts;
    struct xu_output_ctx ctx;
    char *text;
    size_t len;
};

static int setup(void **state)
{
    static const uint64_t s1[] = { LEAF, WORK, MAIN }, s2[] = { WORK, MAIN };
    static const uint64_t s3[] = { REC, REC, MAIN }, s4[] = { LONG, MAIN };
    struct fixture *fx = calloc(1, sizeof(*fx));

    assert_non_null(fx);
    fx->p = xu_profile_new(0);
    assert_non_null(fx->p);
    assert_int_equal(xu_profile_add(fx->p, 0, s1, 3, XU_WALK_COMPLETE, 6), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s2, 2, XU_WALK_COMPLETE, 2), 0);
    assert_int_equal(xu_profile_add(fx->p, 1, s3, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(fx->p, 1, s4, 2, XU_WALK_BAD_FRAME, 1), 0);
    fx->ctx.profile = fx->p;
    fx->ctx.names = &frame_names;
    fx->ctx.opts = &fx->opts;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    xu_profile_free(fx->p);
    free(fx->text);
    free(fx);
    return 0;
}

static const char *write_report(struct fixture *fx)
{
    FILE *f;

    free(fx->text);
    fx->text = NULL;
    f = open_memstream(&fx->text, &fx->len);
    assert_non_null(f);
    assert_int_equal(xu_output_report.write(f, &fx->ctx), 0);
    fclose(f);
    return fx->text;
}

static void assert_fits_80(const char *text)
{
    const char *line = text, *nl;

    for (; (nl = strchr(line, '\n')); line = nl + 1)
        assert_true(nl - line < 80);
}

static void test_report_all(void **state)
{
    struct fixture *fx = *state;
    static const char expected[] =
        "xen-uniprof report\n"
        "Samples: 10 in 4 distinct stacks, 1 incomplete walks (10.00%)\n"
        "\n"
        "Top functions by self samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        6  60.00%         6  60.00%  leaf\n"
        "        2  20.00%         8  80.00%  work\n"
        "        1  10.00%         1  10.00%  a_function_with_a_very_long_name_that_d...\n"
        "        1  10.00%         1  10.00%  rec\n"
        "\n"
        "Top functions by total samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        0   0.00%        10 100.00%  main\n"
        "        2  20.00%         8  80.00%  work\n"
        "        6  60.00%         6  60.00%  leaf\n"
        "        1  10.00%         1  10.00%  a_function_with_a_very_long_name_that_d...\n"
        "        1  10.00%         1  10.00%  rec\n";
    const char *text = write_report(fx);

    assert_string_equal(text, expected);
    assert_fits_80(text);
    /* Deterministic: the same text every time. */
    assert_string_equal(write_report(fx), expected);
}

static void test_report_per_vcpu(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_meta meta = { .domid = 5, .domain_name = "web1", .backend = "sim",
                                   .frequency_hz = 99, .duration_s = 2 };
    static const char expected[] =
        "xen-uniprof report: domain 5 (web1)\n"
        "Duration: 2.00 s at 99 Hz\n"
        "Samples: 10 in 4 distinct stacks, 1 incomplete walks (10.00%)\n"
        "\n"
        "vCPU 0: 8 samples\n"
        "\n"
        "Top functions by self samples (vCPU 0)\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        6  75.00%         6  75.00%  leaf\n"
        "        2  25.00%         8 100.00%  work\n"
        "\n"
        "Top functions by total samples (vCPU 0)\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        0   0.00%         8 100.00%  main\n"
        "        2  25.00%         8 100.00%  work\n"
        "        6  75.00%         6  75.00%  leaf\n"
        "\n"
        "vCPU 1: 2 samples, 1 incomplete walks (50.00%)\n"
        "\n"
        "Top functions by self samples (vCPU 1)\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        1  50.00%         1  50.00%  a_function_with_a_very_long_name_that_d...\n"
        "        1  50.00%         1  50.00%  rec\n"
        "\n"
        "Top functions by total samples (vCPU 1)\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        0   0.00%         2 100.00%  main\n"
        "        1  50.00%         1  50.00%  a_function_with_a_very_long_name_that_d...\n"
        "        1  50.00%         1  50.00%  rec\n";

    fx->opts.per_vcpu = true;
    fx->ctx.meta = &meta;
    assert_string_equal(write_report(fx), expected);
    assert_fits_80(fx->text);
}

/* Without names or symbols every frame is its PC in hex. */
static void test_report_unresolved(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t pcs[] = { 0xffffffff81000010ULL, 0x401000 };
    static const char expected[] =
        "xen-uniprof report\n"
        "Samples: 3 in 1 distinct stacks\n"
        "\n"
        "Top functions by self samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        3 100.00%         3 100.00%  0xffffffff81000010\n"
        "\n"
        "Top functions by total samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        0   0.00%         3 100.00%  0x401000\n"
        "        3 100.00%         3 100.00%  0xffffffff81000010\n";
    struct xu_profile *p = xu_profile_new(0);

    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, pcs, 2, XU_WALK_COMPLETE, 3), 0);
    fx->ctx.profile = p;
    fx->ctx.names = NULL;
    assert_string_equal(write_report(fx), expected);
    xu_profile_free(p);
}

/* More functions than the table shows: only the top 20 are listed. */
static void test_report_top_limit(void **state)
{
    struct fixture *fx = *state;
    static char name_buf[30][8];
    const char *many[30];
    struct xu_frame_names fn = { many, 30 };
    struct xu_profile *p = xu_profile_new(0);
    uint64_t i;
    const char *text, *line;
    int rows = 0;

    assert_non_null(p);
    for (i = 0; i < 30; i++) {
        snprintf(name_buf[i], sizeof(name_buf[i]), "f%02u", (unsigned int)i);
        many[i] = name_buf[i];
        assert_int_equal(xu_profile_add(p, 0, &i, 1, XU_WALK_COMPLETE, i + 1), 0);
    }
    fx->ctx.profile = p;
    fx->ctx.names = &fn;
    text = write_report(fx);
    for (line = text; (line = strstr(line, "  f")); line++)
        rows++;
    assert_int_equal(rows, 40);
    assert_non_null(strstr(text, "       30   6.45%        30   6.45%  f29\n"));
    assert_null(strstr(text, "  f09\n"));       /* 10 samples: 21st place */
    xu_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_report_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_per_vcpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_unresolved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_top_limit, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
