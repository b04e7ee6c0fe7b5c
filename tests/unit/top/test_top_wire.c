/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_wire.c - the window format between `top --all`'s children and
 * its parent (lib/top/wire.c): what the writer writes reads back, across
 * any split of the stream, and the parser refuses every malformed or
 * oversized input, for good.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "top/xu_top_wire.h"

struct got {
    unsigned int windows;
    struct xu_top_wire_window last;
};

static void take(void *ctx, struct xu_top_wire_window *w)
{
    struct got *g = ctx;

    g->windows++;
    xu_top_wire_window_move(&g->last, w);
}

/* Feed all of text; the first error, or 0. */
static int feed(struct xu_top_wire_reader *r, const char *text, size_t len, struct got *g)
{
    return xu_top_wire_feed(r, text, len, take, g);
}

static char *written(const struct xu_top_snapshot *s, const char *why, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);

    assert_non_null(f);
    assert_int_equal(xu_top_wire_write(f, s, why), 0);
    fclose(f);
    return text;
}

static void test_round_trip_any_split(void **state)
{
    struct xu_top_row rows[] = {
        { "function_3", 60, 60, 0 }, { "with\nnewline", 30, 30, 0 }, { "_start", 0, 100, 0 },
    };
    struct xu_top_table t = { .rows = rows, .n = 3, .samples = 100 };
    struct xu_top_snapshot s = { .domid = 5, .vcpus = 2, .frequency = 99, .rate = 98.5,
                                 .complete = 90, .symbols = false, .table = &t };
    size_t len, step;
    char *text = written(&s, "cannot read\tthe kernel", &len);

    (void)state;
    for (step = 1; step <= len; step++) {
        struct xu_top_wire_reader r = { 0 };
        struct got g = { 0 };
        size_t off;

        for (off = 0; off < len; off += step)
            assert_int_equal(feed(&r, text + off, len - off < step ? len - off : step, &g), 0);
        assert_int_equal(g.windows, 1);
        assert_int_equal(g.last.domid, 5);
        assert_int_equal(g.last.vcpus, 2);
        assert_true(g.last.rate > 98.4 && g.last.rate < 98.6);
        assert_int_equal(g.last.samples, 100);
        assert_int_equal(g.last.complete, 90);
        assert_false(g.last.symbols);
        assert_string_equal(g.last.why, "cannot read?the kernel");
        assert_int_equal(g.last.n, 3);
        assert_string_equal(g.last.rows[0].name, "function_3");
        /* a name's control characters never split a line */
        assert_string_equal(g.last.rows[1].name, "with?newline");
        assert_int_equal(g.last.rows[2].self, 0);
        assert_int_equal(g.last.rows[2].total, 100);
        xu_top_wire_window_dispose(&g.last);
        xu_top_wire_reader_dispose(&r);
    }
    free(text);
}

static void test_rows_cut_to_the_bound(void **state)
{
    size_t n = XU_TOP_WIRE_ROWS_MAX + 5, i, len;
    struct xu_top_row *rows = calloc(n, sizeof(*rows));
    struct xu_top_table t = { .rows = rows, .n = n, .samples = n };
    struct xu_top_snapshot s = { .domid = 1, .vcpus = 1, .symbols = true, .table = &t };
    struct xu_top_wire_reader r = { 0 };
    struct got g = { 0 };
    char *text;

    (void)state;
    assert_non_null(rows);
    for (i = 0; i < n; i++)
        rows[i] = (struct xu_top_row){ "f", 1, 1, 0 };
    text = written(&s, NULL, &len);
    assert_int_equal(feed(&r, text, len, &g), 0);
    assert_int_equal(g.windows, 1);
    assert_int_equal(g.last.n, XU_TOP_WIRE_ROWS_MAX);
    xu_top_wire_window_dispose(&g.last);
    xu_top_wire_reader_dispose(&r);
    free(text);
    free(rows);
}

/* Each input is refused, no window handed over, and the reader stays shut. */
static void test_malformed_refused(void **state)
{
    static const char *const bad[] = {
        "W2 5 1 99.0 99.0 10 10 1 0\n.\n",              /* another version */
        "W1 5 1 99.0 99.0 10 10 1 0 7\n.\n",            /* a field too many */
        "W1 5 1 99.0 99.0 10 10 1\n.\n",                /* a field missing */
        "W1 5 1 99.0 99.0 10 11 1 0\n.\n",              /* complete > samples */
        "W1 5 1 99.0 99.0 10 10 2 0\n.\n",              /* symbols not 0/1 */
        "W1 5 1 99.0 99.0 10 10 1 1001\n.\n",           /* rows over the bound */
        "W1 5 1 -1 99.0 10 10 1 0\n.\n",                /* a negative rate */
        "W1 5 1 nan 99.0 10 10 1 0\n.\n",               /* not a number */
        "W1 5 1 1e300 99.0 10 10 1 0\n.\n",             /* not plain decimal */
        "W1 5 1 99999999999 99.0 10 10 1 0\n.\n",       /* over the rate bound */
        "W1 4294967296 1 99 99 10 10 1 0\n.\n",         /* not a domid */
        "W1 5 1 99 99 99999999999999999999999 0 1 0\n.\n",  /* overflows */
        "W1 5 1 99 99 10 10 1 1\nR 11 11 f\n.\n",       /* a row over the samples */
        "W1 5 1 99 99 10 10 1 1\nR 5 4 f\n.\n",         /* self > total */
        "W1 5 1 99 99 10 10 1 1\nR 1 1 \n.\n",          /* an empty name */
        "W1 5 1 99 99 10 10 1 2\nR 1 1 f\n.\n",         /* a row short */
        "W1 5 1 99 99 10 10 1 0\nR 1 1 f\n.\n",         /* a row too many */
        "W1 5 1 99 99 10 10 1 0\nN why\n.\n",           /* a reason with symbols */
        "W1 5 1 99 99 10 10 0 0\nN a\nN b\n.\n",        /* two reasons */
        "W1 5 1 99 99 10 10 1 0\nx\n",                  /* not the end */
        "W1 5 1 99 99 10 10 1 0\n.\n.\n",               /* an end with no window */
        "garbage\n",
        "\n",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct xu_top_wire_reader r = { 0 };
        struct got g = { 0 };
        const char *good = "W1 5 1 99 99 10 10 1 0\n.\n";
        int rc = feed(&r, bad[i], strlen(bad[i]), &g);

        if (rc == 0 && g.windows == 1) {
            /* the last case's first window is fine: its second line is not */
            fail_msg("input %zu accepted", i);
        }
        assert_int_equal(rc, -EPROTO);
        /* shut for good, even for a good window */
        assert_int_equal(feed(&r, good, strlen(good), &g), -EPROTO);
        xu_top_wire_window_dispose(&g.last);
        xu_top_wire_reader_dispose(&r);
    }
}

static void test_oversized_and_nul_refused(void **state)
{
    char line[XU_TOP_WIRE_LINE_MAX + 16];
    struct xu_top_wire_reader r = { 0 };
    struct got g = { 0 };
    static const char nul[] = "W1 5 1 99 99 10 10 1 0\0\n";

    (void)state;
    /* a line longer than the bound, fed a byte at a time: no newline needed */
    memset(line, 'R', sizeof(line));
    assert_int_equal(feed(&r, line, XU_TOP_WIRE_LINE_MAX - 1, &g), 0);
    assert_int_equal(feed(&r, line, 1, &g), -EPROTO);
    xu_top_wire_reader_dispose(&r);
    /* a name at the text bound */
    memset(&r, 0, sizeof(r));
    memcpy(line, "W1 5 1 99 99 10 10 1 1\nR 1 1 ", 29);
    memset(line + 29, 'a', XU_TOP_WIRE_TEXT_MAX);
    line[29 + XU_TOP_WIRE_TEXT_MAX] = '\n';
    assert_int_equal(feed(&r, line, 30 + XU_TOP_WIRE_TEXT_MAX, &g), -EPROTO);
    xu_top_wire_reader_dispose(&r);
    memset(&r, 0, sizeof(r));
    assert_int_equal(feed(&r, nul, sizeof(nul) - 1, &g), -EPROTO);
    assert_int_equal(g.windows, 0);
    xu_top_wire_reader_dispose(&r);
}

static void test_windows_in_a_row(void **state)
{
    static const char two[] = "W1 5 1 99 99 2 1 1 1\nR 1 2 a\n.\n"
                              "W1 5 1 99 99 0 0 0 0\nN no ELF\n.\n";
    struct xu_top_wire_reader r = { 0 };
    struct got g = { 0 };

    (void)state;
    assert_int_equal(feed(&r, two, sizeof(two) - 1, &g), 0);
    assert_int_equal(g.windows, 2);
    assert_int_equal(g.last.n, 0);
    assert_string_equal(g.last.why, "no ELF");
    xu_top_wire_window_dispose(&g.last);
    xu_top_wire_reader_dispose(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_any_split),
        cmocka_unit_test(test_rows_cut_to_the_bound),
        cmocka_unit_test(test_malformed_refused),
        cmocka_unit_test(test_oversized_and_nul_refused),
        cmocka_unit_test(test_windows_in_a_row),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
