/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_input_raw.c - reading raw traces (ours and the original uniprof's)
 * and folded stacks back into a profile, exactly; and hostile input.
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
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "input/xu_input.h"

static void quiet_emit(void *ctx, enum xu_log_level level, const char *msg)
{
}

static struct xu_log quiet_log = { .emit = quiet_emit, .min_level = XU_LOG_DEBUG };

static struct xu_input *read_text(const char *text, enum xu_input_format fmt,
                                  const struct xu_input_options *o, int expect_rc)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct xu_input *in = NULL;

    assert_non_null(f);
    assert_int_equal(xu_input_read(f, fmt, o, &quiet_log, &in), expect_rc);
    fclose(f);
    if (expect_rc == 0)
        assert_non_null(in);
    return in;
}

/* The name of frame i of stack k of a names-mode input. */
static const char *frame(const struct xu_input *in, size_t k, uint32_t i)
{
    const struct xu_stack *s = xu_profile_stack(in->profile, k);

    assert_true(in->has_names);
    assert_true(i < s->depth);
    assert_true(s->pcs[i] < in->names.count);
    return in->names.names[s->pcs[i]];
}

/* A trace of the original uniprof, addresses only, with both terminators. */
static const char original_hex[] =
    "#unikernel stack tracer using xencall hypercall interface\n"
    "#tracing domid 7 on 2021-05-01 12:00:00 UTC (+0000)\n"
    "\n"
    "0x1084\n"
    "0x1050\n"
    "0x1010\n"
    "1\n"
    "\n"
    "0x1090\n"
    "0x1050\n"
    "0\n"           /* a failed walk: its own sample, never merged into the next */
    "\n"
    "0x1084\n"
    "0x1050\n"
    "0x1010\n"
    "1\n"
    "\n"
    "0x1044\n"
    "0x1010\n"
    "1\n"
    "\n";

static void test_original_hex(void **state)
{
    struct xu_input *in = read_text(original_hex, XU_INPUT_AUTO, NULL, 0);
    const struct xu_stack *s;

    assert_int_equal(in->format, XU_INPUT_RAW);
    assert_false(in->has_names);
    assert_true(in->has_domid);
    assert_int_equal(in->domid, 7);
    assert_int_equal(in->stats.samples, 4);
    assert_int_equal(in->stats.incomplete, 1);
    assert_int_equal(in->stats.bad_lines, 0);
    assert_int_equal(xu_profile_nr_stacks(in->profile), 3);

    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->count, 2);
    assert_int_equal(s->end, XU_WALK_COMPLETE);
    assert_int_equal(s->depth, 3);
    assert_int_equal(s->pcs[0], 0x1084);
    assert_int_equal(s->pcs[1], 0x1050);
    assert_int_equal(s->pcs[2], 0x1010);

    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->count, 1);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    assert_int_equal(s->depth, 2);      /* not 2 + the next sample's 3 */
    assert_int_equal(s->pcs[0], 0x1090);
    assert_int_equal(s->pcs[1], 0x1050);

    s = xu_profile_stack(in->profile, 2);
    assert_int_equal(s->depth, 2);
    assert_int_equal(s->pcs[0], 0x1044);
    assert_int_equal(s->end, XU_WALK_COMPLETE);
    xu_input_free(in);
}

/* Symbolised by uniprof itself or its symbolize step: names, offsets, and
 * hex for what it could not resolve. */
static const char original_syms[] =
    "#unikernel stack tracer using xencall hypercall interface\n"
    "#tracing domid 3 on 2021-05-01 12:00:00 UTC (+0000)\n"
    "\n"
    "hypercall_page+0x40a\n"
    "notify_remote_via_evtchn+0x22\n"
    "main+0x44\n"
    "1\n"
    "\n"
    "function_3+0x2d\n"
    "0\n"
    "\n"
    "hypercall_page\n"
    "notify_remote_via_evtchn+0x22\n"
    "main+0x44\n"
    "1\n"
    "\n"
    "0xdeadbeef\n"
    "main+0x44\n"
    "1\n"
    "\n";

static void test_original_symbolised(void **state)
{
    struct xu_input *in = read_text(original_syms, XU_INPUT_AUTO, NULL, 0);
    const struct xu_stack *s;

    assert_int_equal(in->format, XU_INPUT_RAW);
    assert_true(in->has_names);
    assert_int_equal(in->domid, 3);
    /* "hypercall_page+0x40a" and "hypercall_page" are one function. */
    assert_int_equal(xu_profile_nr_stacks(in->profile), 3);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->count, 2);
    assert_int_equal(s->depth, 3);
    assert_string_equal(frame(in, 0, 0), "hypercall_page");
    assert_string_equal(frame(in, 0, 1), "notify_remote_via_evtchn");
    assert_string_equal(frame(in, 0, 2), "main");
    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->depth, 1);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    assert_string_equal(frame(in, 1, 0), "function_3");
    assert_string_equal(frame(in, 2, 0), "0xdeadbeef");
    assert_string_equal(frame(in, 2, 1), "main");
    xu_input_free(in);
}

/* With an ELF that knows every name, symbolised frames become addresses
 * again (symbol + offset), so a writer can symbolise and pprof has them. */
static void test_symbolised_to_addresses(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const char trace[] = "work+0x4\nmain+0x10\n1\n\nwork\n0\n\n";
    char path[] = "/tmp/test_input_raw.XXXXXX";
    int fd = mkstemp(path);
    struct xu_input_options o = { 0 };
    struct xu_symtab *st = NULL;
    struct xu_input *in;
    const struct xu_stack *s;

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, 0x1000, 0x100, syms, 2, 0), 0);
    assert_int_equal(xu_symtab_open(path, &quiet_log, &st), 0);
    o.symtab = st;
    in = read_text(trace, XU_INPUT_RAW, &o, 0);
    assert_false(in->has_names);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->depth, 2);
    assert_int_equal(s->pcs[0], 0x1044);
    assert_int_equal(s->pcs[1], 0x1010);
    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->pcs[0], 0x1040);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    xu_input_free(in);

    /* A name the ELF does not know: names for all, hex resolved by the ELF
     * (a return address is looked up at pc - 1: 0x1040 is in main). */
    in = read_text("nosuch+0x1\n0x1040\n1\n\n0x1040\n1\n\n", XU_INPUT_RAW, &o, 0);
    assert_true(in->has_names);
    assert_string_equal(frame(in, 0, 0), "nosuch");
    assert_string_equal(frame(in, 0, 1), "main");
    assert_string_equal(frame(in, 1, 0), "work");
    xu_input_free(in);

    /* A Linux guest's trace: its task and user-mode frames come as names,
     * the kernel's frames as addresses the ELF names. */
    in = read_text("0x1044\n0x1010\n[task] busy/42\n1\n\n[user]\n[task] busy/42\n1\n\n",
                   XU_INPUT_RAW, &o, 0);
    assert_true(in->has_names);
    assert_string_equal(frame(in, 0, 0), "work");
    assert_string_equal(frame(in, 0, 1), "main");
    assert_string_equal(frame(in, 0, 2), "[task] busy/42");
    assert_string_equal(frame(in, 1, 0), "[user]");
    assert_string_equal(frame(in, 1, 1), "[task] busy/42");
    xu_input_free(in);

    /* Folded names have no offsets: they stay names even when the ELF knows
     * them (as addresses, a caller's start - 1 would be another function). */
    in = read_text("main;work 3\n", XU_INPUT_FOLDED, &o, 0);
    assert_true(in->has_names);
    assert_string_equal(frame(in, 0, 0), "work");
    assert_string_equal(frame(in, 0, 1), "main");
    xu_input_free(in);
    /* Hex folded frames (written without symbols) are addresses again. */
    in = read_text("0x1010;0x1044 3\n", XU_INPUT_FOLDED, &o, 0);
    assert_false(in->has_names);
    assert_int_equal(xu_profile_stack(in->profile, 0)->pcs[0], 0x1044);
    xu_input_free(in);
    xu_symtab_free(st);
    unlink(path);
}

static void test_raw_garbage(void **state)
{
    char *text = malloc(3 * XU_INPUT_MAX_RAW_LINE + 200);
    struct xu_input *in;
    const struct xu_stack *s;
    size_t len;

    assert_non_null(text);
    /* A line too long, a number that is no terminator, a comment inside the
     * trace, control characters: skipped and counted.  A block without a
     * terminator before the blank line is an incomplete walk. */
    strcpy(text, "0x10\n");
    len = strlen(text);
    memset(text + len, 'a', 2 * XU_INPUT_MAX_RAW_LINE);
    len += 2 * XU_INPUT_MAX_RAW_LINE;
    strcpy(text + len, "\n0x20\n42\n# comment\nbad\x01name\n1\n\n0x30\n0x40\n\n0x50");
    in = read_text(text, XU_INPUT_RAW, NULL, 0);
    assert_int_equal(in->stats.bad_lines, 4);
    assert_int_equal(xu_profile_nr_stacks(in->profile), 3);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->depth, 2);
    assert_int_equal(s->pcs[0], 0x10);
    assert_int_equal(s->pcs[1], 0x20);
    assert_int_equal(s->end, XU_WALK_COMPLETE);
    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->depth, 2);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    s = xu_profile_stack(in->profile, 2);       /* cut off by the end of the file */
    assert_int_equal(s->depth, 1);
    assert_int_equal(s->pcs[0], 0x50);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    xu_input_free(in);
    free(text);

    /* Nothing but a header: no samples is an error, not an empty profile. */
    read_text("#unikernel stack tracer\n#tracing domid 1 on x\n\n", XU_INPUT_RAW, NULL,
              -ENODATA);
    /* Empty walks ("1" alone) are counted, not stored. */
    in = read_text("1\n\n1\n\n0x1\n1\n\n", XU_INPUT_RAW, NULL, 0);
    assert_int_equal(in->stats.empty, 2);
    assert_int_equal(in->stats.samples, 3);
    xu_input_free(in);
}

static void test_raw_depth_bound(void **state)
{
    struct xu_input_options o = { .max_depth = 4 };
    struct xu_input *in;
    const struct xu_stack *s;

    in = read_text("0x1\n0x2\n0x3\n0x4\n0x5\n0x6\n1\n\n", XU_INPUT_RAW, &o, 0);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->depth, 4);      /* innermost kept */
    assert_int_equal(s->pcs[0], 1);
    assert_int_equal(s->pcs[3], 4);
    assert_int_equal(s->end, XU_WALK_DEPTH);
    assert_int_equal(in->stats.truncated, 1);
    xu_input_free(in);
}

static void test_folded(void **state)
{
    static const char text[] =
        "main;work;leaf 10\n"
        "main;work 3\n"
        "# a comment\n"
        "\n"
        "[incomplete];work;leaf 2\n"
        "vcpu1;main;leaf 4\n"
        "vcpu1;[incomplete];leaf 1\n"
        "no count here\n"
        "main;;leaf 5\n"
        "main;leaf 0\n"
        "main;work;leaf 7\n";
    struct xu_input *in = read_text(text, XU_INPUT_AUTO, NULL, 0);
    const struct xu_stack *s;

    assert_int_equal(in->format, XU_INPUT_FOLDED);
    assert_true(in->has_names);
    assert_int_equal(in->stats.bad_lines, 2);
    assert_int_equal(in->stats.samples, 10 + 3 + 2 + 4 + 1 + 7);
    assert_int_equal(xu_profile_nr_stacks(in->profile), 5);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->count, 17);
    assert_int_equal(s->depth, 3);
    assert_string_equal(frame(in, 0, 0), "leaf");       /* innermost first */
    assert_string_equal(frame(in, 0, 2), "main");
    s = xu_profile_stack(in->profile, 2);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    assert_int_equal(s->depth, 2);
    assert_string_equal(frame(in, 2, 1), "work");
    s = xu_profile_stack(in->profile, 3);
    assert_int_equal(s->vcpu, 1);
    assert_int_equal(s->depth, 2);
    assert_string_equal(frame(in, 3, 1), "main");
    s = xu_profile_stack(in->profile, 4);
    assert_int_equal(s->vcpu, 1);
    assert_int_not_equal(s->end, XU_WALK_COMPLETE);
    assert_int_equal(s->depth, 1);
    xu_input_free(in);
}

static void test_folded_hostile(void **state)
{
    size_t n = 3000, i, len = 0;
    char *text = malloc(n * 4 + 64);
    struct xu_input *in;
    const struct xu_stack *s;

    assert_non_null(text);
    /* 3000 frames deep: the innermost XU_MAX_DEPTH_LIMIT are kept. */
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "%s%c", i ? ";" : "", (char)('a' + i % 26));
    strcpy(text + len, " 9\n");
    in = read_text(text, XU_INPUT_FOLDED, NULL, 0);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->depth, XU_MAX_DEPTH_LIMIT);
    assert_int_equal(s->end, XU_WALK_DEPTH);
    {
        char leaf[2] = { (char)('a' + (n - 1) % 26), '\0' };

        assert_string_equal(frame(in, 0, 0), leaf);
    }
    xu_input_free(in);
    free(text);

    /* Counts that overflow, negative, or not numbers. */
    in = read_text("a;b 99999999999999999999999\na;b -1\na;b 1x\na;b 2\n", XU_INPUT_FOLDED,
                   NULL, 0);
    assert_int_equal(in->stats.bad_lines, 3);
    assert_int_equal(in->stats.samples, 2);
    xu_input_free(in);
}

static void test_read_path(void **state)
{
    struct xu_input *in = (struct xu_input *)1;

    assert_int_equal(xu_input_read_path("/nonexistent/trace", XU_INPUT_AUTO, NULL,
                                        &quiet_log, &in), -ENOENT);
    assert_null(in);
}

/* Counts that would wrap: refused with an error, not summed modulo 2^64. */
static void test_counts_bounded(void **state)
{
    char *text;
    size_t i, n = 65537, len = 0;

    (void)state;
    /* one line over the bound */
    read_text("a;b 281474976710657\n", XU_INPUT_FOLDED, NULL, -ENODATA);
    /* each line at the bound, the sum over it */
    text = malloc(n * 32 + 1);
    assert_non_null(text);
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "a;b 281474976710656\n");
    read_text(text, XU_INPUT_FOLDED, NULL, -EOVERFLOW);
    /* the same with walks that have no frame: only counted, still bounded */
    len = 0;
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "[incomplete] 281474976710656\n");
    read_text(text, XU_INPUT_FOLDED, NULL, -EOVERFLOW);
    free(text);
}

/*
 * Hex frame lines are read straight from the read buffer when they can be
 * (builder.c); every other way of writing one goes the general way, and
 * both must read the same trace the same.
 */
static void test_raw_hex_lines(void **state)
{
    struct xu_input *in;
    const struct xu_stack *s;

    (void)state;
    /* upper case, a CRLF, blanks around, the most digits an address has */
    in = read_text("#h\n\n0X1A\n0x1\r\n0x2 \n\t0x3\n0xffffffffffffffff\n0xAbC\n1\n\n",
                   XU_INPUT_RAW, NULL, 0);
    assert_false(in->has_names);
    assert_int_equal(in->stats.bad_lines, 0);
    assert_int_equal(in->stats.lines, 10);
    s = xu_profile_stack(in->profile, 0);
    assert_int_equal(s->depth, 6);
    assert_int_equal(s->pcs[0], 0x1a);
    assert_int_equal(s->pcs[1], 0x1);
    assert_int_equal(s->pcs[2], 0x2);
    assert_int_equal(s->pcs[3], 0x3);
    assert_true(s->pcs[4] == UINT64_MAX);
    assert_int_equal(s->pcs[5], 0xabc);
    xu_input_free(in);
    /* a control character after the digits: not a frame */
    in = read_text("0x1\r\r\n0x2\n1\n\n", XU_INPUT_RAW, NULL, 0);
    assert_int_equal(in->stats.bad_lines, 1);
    assert_int_equal(xu_profile_stack(in->profile, 0)->depth, 1);
    xu_input_free(in);
    /* a NUL inside: the line is skipped, not cut at the NUL */
    {
        static const char nul[] = "0x1\0" "2\n0x3\n1\n\n";
        FILE *f = fmemopen((void *)nul, sizeof(nul) - 1, "r");

        assert_non_null(f);
        assert_int_equal(xu_input_read(f, XU_INPUT_RAW, NULL, &quiet_log, &in), 0);
        fclose(f);
        assert_int_equal(in->stats.bad_lines, 1);
        s = xu_profile_stack(in->profile, 0);
        assert_int_equal(s->depth, 1);
        assert_int_equal(s->pcs[0], 0x3);
        xu_input_free(in);
    }
    /* 17 digits, or none, are no address: the frames become names */
    in = read_text("0x00000000000000001\n0x\n0x5\n1\n\n", XU_INPUT_RAW, NULL, 0);
    assert_true(in->has_names);
    assert_string_equal(frame(in, 0, 0), "0x00000000000000001");
    assert_string_equal(frame(in, 0, 1), "0x");
    assert_string_equal(frame(in, 0, 2), "0x5");
    xu_input_free(in);
    /* the last line without its newline */
    in = read_text("0x6\n1\n\n0x7\n0x8", XU_INPUT_RAW, NULL, 0);
    s = xu_profile_stack(in->profile, 1);
    assert_int_equal(s->depth, 2);
    assert_int_equal(s->pcs[1], 0x8);
    assert_int_equal(s->end, XU_WALK_BAD_FRAME);
    xu_input_free(in);
}

/* Lines cut by the end of a read (64 KiB at a time) read as whole ones. */
static void test_raw_lines_across_reads(void **state)
{
    size_t n = 9000, cap = n * 40 + 1, len = 0, k;
    char *text = malloc(cap);
    struct xu_input *in;

    (void)state;
    assert_non_null(text);
    for (k = 0; k < n; k++)
        len += (size_t)snprintf(text + len, cap - len, "0x%zx\n0x%zx\r\n1\n\n",
                                k + 1, (k * 977) << (k % 40));
    in = read_text(text, XU_INPUT_RAW, NULL, 0);
    assert_false(in->has_names);
    assert_int_equal(in->stats.bad_lines, 0);
    assert_int_equal(in->stats.lines, 4 * n);
    assert_int_equal(xu_profile_nr_stacks(in->profile), n);
    for (k = 0; k < n; k++) {
        const struct xu_stack *s = xu_profile_stack(in->profile, k);

        assert_int_equal(s->depth, 2);
        assert_int_equal(s->pcs[0], k + 1);
        assert_true(s->pcs[1] == (k * 977) << (k % 40));
    }
    xu_input_free(in);
    free(text);
}

/* Input that is not a trace is refused, not read as one garbage sample. */
static void test_raw_not_a_trace(void **state)
{
    (void)state;
    read_text("\x7f" "ELF garbage with no terminator\nmore garbage\n", XU_INPUT_RAW, NULL,
              -EINVAL);
    read_text("random words\n", XU_INPUT_AUTO, NULL, -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_original_hex),
        cmocka_unit_test(test_original_symbolised),
        cmocka_unit_test(test_symbolised_to_addresses),
        cmocka_unit_test(test_raw_garbage),
        cmocka_unit_test(test_raw_depth_bound),
        cmocka_unit_test(test_folded),
        cmocka_unit_test(test_folded_hostile),
        cmocka_unit_test(test_read_path),
        cmocka_unit_test(test_counts_bounded),
        cmocka_unit_test(test_raw_not_a_trace),
        cmocka_unit_test(test_raw_hex_lines),
        cmocka_unit_test(test_raw_lines_across_reads),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
