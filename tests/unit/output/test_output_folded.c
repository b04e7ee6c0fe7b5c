/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output_folded.c - the folded writer's order and counts, against the
 * way it used to make them: every line built as a string, the strings
 * sorted with strcmp, equal ones merged (reference_folded below).  The
 * writer now sorts token paths instead (lib/output/folded.c), and must come
 * out byte for byte the same: names that are prefixes of others, names
 * holding what sorts below ';', vcpu10 against vcpu2, markers, the same
 * name at many depths, the deepest stacks, the largest counts, random
 * profiles under every view, and a hostile trace read back.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
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
#include "output_text.h"
#include "input/xu_input.h"
#include "output/xu_output.h"

/* ---------------------------------------------- the previous writer -- */

struct ref_line {
    char *text;
    uint64_t count;
};

static void ref_put(FILE *f, const char *name, bool first)
{
    if (!first)
        putc(';', f);
    for (; *name; name++)
        putc(*name == ';' ? ':' : *name == '\n' || *name == '\r' ? '?' : *name, f);
}

static int ref_cmp(const void *a, const void *b)
{
    return strcmp(((const struct ref_line *)a)->text, ((const struct ref_line *)b)->text);
}

static char *reference_folded(const struct xu_output_ctx *ctx)
{
    size_t n = xu_profile_nr_stacks(ctx->profile), nl = 0, i, j, len = 0;
    struct ref_line *lines = calloc(n ? n : 1, sizeof(*lines));
    char *out = NULL;
    FILE *o = open_memstream(&out, &len);

    assert_non_null(lines);
    assert_non_null(o);
    for (i = 0; i < n; i++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, i);
        uint64_t w = xu_output_weight(ctx, s);
        size_t tl = 0;
        FILE *f;
        bool first = true;
        char buf[19];
        uint32_t k;

        if (w == 0)
            continue;
        f = open_memstream(&lines[nl].text, &tl);
        assert_non_null(f);
        if (ctx->opts && ctx->opts->per_vcpu) {
            snprintf(buf, sizeof(buf), "vcpu%" PRIu32, s->vcpu);
            ref_put(f, buf, first);
            first = false;
        }
        if (xu_output_state_frame(ctx, s)) {
            ref_put(f, xu_output_state_frame(ctx, s), first);
            first = false;
        }
        if (!xu_walk_complete(s->end)) {
            ref_put(f, XU_INCOMPLETE_FRAME, first);
            first = false;
        }
        for (k = s->depth; k-- > 0; first = false)
            ref_put(f, xu_output_frame_name(ctx, s, k, buf), first);
        assert_int_equal(fclose(f), 0);
        lines[nl++].count = w;
    }
    qsort(lines, nl, sizeof(*lines), ref_cmp);
    for (i = 0; i < nl; i = j) {
        uint64_t count = 0;

        for (j = i; j < nl && strcmp(lines[j].text, lines[i].text) == 0; j++)
            count += lines[j].count;
        fprintf(o, "%s %" PRIu64 "\n", lines[i].text, count);
    }
    assert_int_equal(fclose(o), 0);
    for (i = 0; i < nl; i++)
        free(lines[i].text);
    free(lines);
    return out;
}

/* The writer's text equals the reference's, and is returned. */
static char *assert_as_before(const struct xu_output_ctx *ctx)
{
    char *got = output_text(&xu_output_folded, ctx, NULL);
    char *want = reference_folded(ctx);

    assert_string_equal(got, want);
    free(want);
    return got;
}

/* ---------------------------------------------------- names profiles -- */

/* Names chosen to sort around ';' (0x3b): below it ' ', '.', ':', digits;
 * above it letters and '['; prefixes of one another; names the format
 * rewrites (';' to ':', newlines to '?') so that two names become one. */
static const char *const tricky[] = {
    "foo", "foo.cold", "foo;x", "foo:x", "foo x", "fo", "foo\n", "foo?", "f",
    "", "[incomplete]", "[incomplete]x", "Z", "[", "vcpu1", "vcpu10", "0x10",
    "foo\r\n", "\xc3\xa9t\xc3\xa9", "~", "foo;", "foo:",
};
#define NR_TRICKY (sizeof(tricky) / sizeof(tricky[0]))

struct fixture {
    struct xu_profile *p;
    struct xu_frame_names names;
    struct xu_output_options opts;
    struct xu_output_ctx ctx;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));

    if (!fx || !(fx->p = xu_profile_new(0)))
        return -1;
    fx->names.names = tricky;
    fx->names.count = NR_TRICKY;
    fx->ctx.profile = fx->p;
    fx->ctx.names = &fx->names;
    fx->ctx.opts = &fx->opts;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    xu_profile_free(fx->p);
    free(fx);
    return 0;
}

/* A stack given root first, as lines read (the profile keeps it innermost
 * first). */
static void add_root_first(struct fixture *fx, uint32_t vcpu, enum xu_vstate st,
                           enum xu_walk_end end, uint64_t count, uint64_t cpu_ns,
                           const uint64_t *root_first, uint32_t depth)
{
    uint64_t pcs[XU_MAX_DEPTH_LIMIT];
    uint32_t i;

    assert_true(depth <= XU_MAX_DEPTH_LIMIT);
    for (i = 0; i < depth; i++)
        pcs[i] = root_first[depth - 1 - i];
    assert_int_equal(xu_profile_add_state(fx->p, vcpu, st, pcs, depth, end, count, cpu_ns), 0);
}

static void add_names(struct fixture *fx, uint64_t count, uint32_t depth, ...)
{
    uint64_t v[16];
    va_list ap;
    uint32_t i;

    va_start(ap, depth);
    for (i = 0; i < depth; i++)
        v[i] = va_arg(ap, int);
    va_end(ap);
    add_root_first(fx, 0, XU_VSTATE_UNKNOWN, XU_WALK_COMPLETE, count, 0, v, depth);
}

static void test_prefix_names(void **state)
{
    struct fixture *fx = *state;
    char *got;

    add_names(fx, 1, 2, 0, 19);         /* foo;~ */
    add_names(fx, 1, 1, 0);             /* foo */
    add_names(fx, 1, 2, 1, 19);         /* foo.cold;~ */
    add_names(fx, 1, 1, 1);             /* foo.cold */
    got = assert_as_before(&fx->ctx);
    /* the line that ends first, then '.' (below ';'), then the rest */
    assert_string_equal(got, "foo 1\nfoo.cold 1\nfoo.cold;~ 1\nfoo;~ 1\n");
    free(got);
}

static void test_rewritten_names_merge(void **state)
{
    struct fixture *fx = *state;
    char *got;

    add_names(fx, 2, 2, 2, 0);          /* "foo;x" is written foo:x ... */
    add_names(fx, 3, 2, 3, 0);          /* ... as "foo:x" is: one line */
    add_names(fx, 4, 1, 6);             /* "foo\n" and "foo?" too */
    add_names(fx, 5, 1, 7);
    add_names(fx, 1, 1, 20);            /* "foo;" and "foo:" */
    add_names(fx, 1, 1, 21);
    got = assert_as_before(&fx->ctx);
    assert_string_equal(got, "foo: 2\nfoo:x;foo 5\nfoo? 9\n");
    free(got);
}

static void test_every_pair(void **state)
{
    struct fixture *fx = *state;
    uint32_t a, b;

    /* every name under every name, and each alone: every comparison the
     * order has to get right */
    for (a = 0; a < NR_TRICKY; a++) {
        add_names(fx, 1 + a, 1, a);
        for (b = 0; b < NR_TRICKY; b++) {
            add_names(fx, 1, 2, a, b);
            add_names(fx, 1, 3, a, b, a);
        }
    }
    free(assert_as_before(&fx->ctx));
}

static void test_same_name_depths(void **state)
{
    struct fixture *fx = *state;
    char *got;

    add_names(fx, 1, 3, 8, 8, 8);
    add_names(fx, 1, 1, 8);
    add_names(fx, 1, 2, 8, 8);
    add_names(fx, 1, 4, 8, 8, 0, 8);
    add_names(fx, 1, 2, 8, 0);
    got = assert_as_before(&fx->ctx);
    assert_string_equal(got, "f 1\nf;f 1\nf;f;f 1\nf;f;foo;f 1\nf;foo 1\n");
    free(got);
}

static void test_vcpu_order(void **state)
{
    struct fixture *fx = *state;
    static const uint32_t vcpus[] = { 2, 10, 1, 100, 0, 11, 1 };
    static const uint64_t v[] = { 0 };
    char *got;
    size_t i;

    for (i = 0; i < sizeof(vcpus) / sizeof(vcpus[0]); i++)
        add_root_first(fx, vcpus[i], XU_VSTATE_UNKNOWN, XU_WALK_COMPLETE, 1, 0, v, 1);
    fx->opts.per_vcpu = true;
    got = assert_as_before(&fx->ctx);
    /* bytewise: "vcpu10;" before "vcpu1;" ('0' < ';'), vcpu2 after both */
    assert_string_equal(got, "vcpu0;foo 1\nvcpu100;foo 1\nvcpu10;foo 1\nvcpu11;foo 1\n"
                             "vcpu1;foo 2\nvcpu2;foo 1\n");
    free(got);
}

static void test_markers(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t a[] = { 0, 1 };
    static const uint64_t b[] = { 10 };         /* a frame named "[incomplete]" */
    static const uint64_t c[] = { 11, 13 };
    char *got;

    add_root_first(fx, 3, XU_VSTATE_RUNNING, XU_WALK_COMPLETE, 1, 1500, a, 2);
    add_root_first(fx, 3, XU_VSTATE_RUNNING, XU_WALK_BAD_FRAME, 2, 2500, a, 2);
    add_root_first(fx, 10, XU_VSTATE_BLOCKED, XU_WALK_DEPTH, 3, 499, b, 1);
    add_root_first(fx, 2, XU_VSTATE_RUNNABLE, XU_WALK_COMPLETE, 4, 0, b, 1);
    add_root_first(fx, 2, XU_VSTATE_OFFLINE, XU_WALK_NOT_ROOT, 5, 9999, c, 2);
    add_root_first(fx, 0, XU_VSTATE_UNKNOWN, XU_WALK_CFI_ROOT, 6, 7, c, 2);
    got = assert_as_before(&fx->ctx);
    /* a frame that is the marker's name merges with the marker */
    assert_string_equal(got, "[incomplete] 4\n[incomplete];[incomplete] 3\n"
                             "[incomplete];[incomplete]x;[ 5\n[incomplete];foo;foo.cold 2\n"
                             "[incomplete]x;[ 6\nfoo;foo.cold 1\n");
    free(got);
    /* every view */
    fx->opts.states = XU_STATES_SPLIT;
    free(assert_as_before(&fx->ctx));
    fx->opts.per_vcpu = true;
    free(assert_as_before(&fx->ctx));
    fx->opts.weight = XU_WEIGHT_CPU;
    free(assert_as_before(&fx->ctx));
    fx->opts.states = XU_STATES_OFFCPU;
    free(assert_as_before(&fx->ctx));
    fx->opts.states = XU_STATES_ONCPU;
    got = assert_as_before(&fx->ctx);
    assert_string_equal(got, "vcpu3;[incomplete];foo;foo.cold 3\nvcpu3;foo;foo.cold 2\n");
    free(got);
}

/* Stacks as deep as a profile holds, under every root frame, and counts
 * that add up to the most a profile holds: the sums stay exact. */
static void test_deepest_and_largest(void **state)
{
    struct fixture *fx = *state;
    uint64_t *v = malloc(XU_MAX_DEPTH_LIMIT * sizeof(*v));
    uint32_t i;
    char *got, *last;

    assert_non_null(v);
    for (i = 0; i < XU_MAX_DEPTH_LIMIT; i++)
        v[i] = i % 3;
    /* "foo\n" and "foo?" are two stacks and one line */
    v[XU_MAX_DEPTH_LIMIT - 1] = 6;
    add_root_first(fx, 4095, XU_VSTATE_RUNNING, XU_WALK_DEPTH, XU_PROFILE_MAX_SAMPLES / 4, 0,
                   v, XU_MAX_DEPTH_LIMIT);
    v[XU_MAX_DEPTH_LIMIT - 1] = 7;
    add_root_first(fx, 4095, XU_VSTATE_RUNNING, XU_WALK_DEPTH, XU_PROFILE_MAX_SAMPLES / 4, 0,
                   v, XU_MAX_DEPTH_LIMIT);
    v[XU_MAX_DEPTH_LIMIT - 2] = 15;             /* "vcpu10" after "foo:x": the last line */
    add_root_first(fx, 4095, XU_VSTATE_RUNNING, XU_WALK_DEPTH, XU_PROFILE_MAX_SAMPLES / 2, 0,
                   v, XU_MAX_DEPTH_LIMIT - 1);
    fx->opts.per_vcpu = true;
    fx->opts.states = XU_STATES_SPLIT;
    got = assert_as_before(&fx->ctx);
    assert_true(strncmp(got, "vcpu4095;[running];[incomplete];foo;foo.cold;foo:x;foo;", 55) == 0);
    assert_non_null(strstr(got, ";foo? 140737488355328\n"));    /* 2^48 / 4 twice */
    last = strrchr(got, ';');
    assert_non_null(last);
    assert_string_equal(last, ";vcpu10 140737488355328\n");
    free(got);
    free(v);
}

/* Random profiles over the tricky names, every view, against the reference. */
static void test_random_profiles(void **state)
{
    struct fixture *fx = *state;
    uint64_t rng = 0x9e3779b97f4a7c15ULL, v[12];
    int view, k;

    for (k = 0; k < 4000; k++) {
        uint32_t depth, i;

        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        depth = 1 + (uint32_t)(rng % 12);
        for (i = 0; i < depth; i++)
            v[i] = (rng >> (4 + 5 * i % 50)) % NR_TRICKY;
        add_root_first(fx, (uint32_t)(rng >> 20) % 12, (enum xu_vstate)((rng >> 30) % 5),
                       (enum xu_walk_end)((rng >> 33) % XU_WALK__COUNT), 1 + (rng >> 40) % 3,
                       (rng >> 44) % 3000, v, depth);
    }
    for (view = 0; view < 16; view++) {
        fx->opts.per_vcpu = view & 1;
        fx->opts.weight = view & 2 ? XU_WEIGHT_CPU : XU_WEIGHT_SAMPLES;
        fx->opts.states = (enum xu_state_view)(view >> 2);
        free(assert_as_before(&fx->ctx));
    }
}

/* ------------------------------------------------ address profiles -- */

/*
 * Frames named through the symboliser: return addresses looked up at
 * pc - 1 and shown as their own pc when unresolved, the innermost frame
 * and the frames after an upcall looked up as themselves.  The same pc
 * exact in one stack and a return address in another can have two names.
 */
static void test_address_frames(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "leaf", 0x1080, 0x20, STT_FUNC, STB_LOCAL, 0 },
    };
    static const uint64_t s1[] = { 0x1085, 0x1050, 0x1010 };
    static const uint64_t s2[] = { 0x1040, 0x1040, 0x1010 };      /* exact 0x1040 is work */
    static const uint64_t s3[] = { 0x1081, XU_PC_UPCALL, 0x1040, 0x1001 };
    static const uint64_t s4[] = { 0x7001, 0x7001, 0x1001 };      /* unresolved both ways */
    static const uint64_t s5[] = { 0x1000, 0x1001 };               /* 0x1001 looked up at 0x1000 */
    struct fixture *fx = *state;
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    uint64_t *addrs = NULL;
    char path[] = "/tmp/test_output_folded.XXXXXX";
    int fd = mkstemp(path);
    long n;
    char *got;

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, 0x1000, 0x1000, syms, 3, 0), 0);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    unlink(path);
    assert_int_equal(xu_profile_add(fx->p, 0, s1, 3, XU_WALK_COMPLETE, 3), 0);
    assert_int_equal(xu_profile_add(fx->p, 1, s2, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s3, 4, XU_WALK_COMPLETE, 2), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s4, 3, XU_WALK_UNMAPPED, 1), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s5, 2, XU_WALK_COMPLETE, 1), 0);
    n = xu_profile_unique_addrs(fx->p, &addrs);
    assert_true(n > 0);
    sz = xu_symbolizer_new(st, addrs, (size_t)n);
    assert_non_null(sz);
    fx->ctx.names = NULL;
    fx->ctx.syms = sz;
    got = assert_as_before(&fx->ctx);
    assert_string_equal(got,
        "[incomplete];main;0x7001;0x7001 1\n"
        "main;main 1\n"
        "main;main;work 1\n"
        "main;work;[upcall];leaf 2\n"
        "main;work;leaf 3\n");
    free(got);
    fx->opts.per_vcpu = true;
    free(assert_as_before(&fx->ctx));
    /* without symbols every frame is its own pc */
    fx->ctx.syms = NULL;
    free(assert_as_before(&fx->ctx));
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
    free(addrs);
}

/*
 * A recording that names tasks: each stack under its task, the outermost
 * frame ("[task] comm/pid", "[idle]", "[task] unknown"), user-mode samples
 * as [user] under theirs; the frames below a task named as any frame,
 * with or without symbols, and a task frame without its table by index.
 */
static void test_task_frames(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "leaf", 0x1080, 0x20, STT_FUNC, STB_LOCAL, 0 },
    };
    struct fixture *fx = *state;
    struct xu_tasks *tasks = malloc(sizeof(*tasks));
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    uint64_t *addrs = NULL, s1[3], s2[2], s3[2], s4[2];
    char path[] = "/tmp/test_output_folded.XXXXXX";
    char comm[XU_TASK_COMM] = "busy";
    int fd = mkstemp(path);
    uint32_t busy, idle;
    long n;
    char *got;

    assert_non_null(tasks);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, 0x1000, 0x1000, syms, 2, 0), 0);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    unlink(path);
    xu_tasks_init(tasks);
    busy = xu_tasks_intern(tasks, 42, comm);
    idle = xu_tasks_intern(tasks, 0, "swapper/1\0\0\0\0\0\0");
    s1[0] = 0x1085; s1[1] = 0x1010; s1[2] = xu_pc_task(busy);
    s2[0] = XU_PC_USER; s2[1] = xu_pc_task(busy);
    s3[0] = 0x1081; s3[1] = xu_pc_task(idle);
    s4[0] = 0x1081; s4[1] = xu_pc_task(XU_TASKS_UNKNOWN);
    assert_int_equal(xu_profile_add(fx->p, 0, s1, 3, XU_WALK_COMPLETE, 3), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s2, 2, XU_WALK_COMPLETE, 5), 0);
    assert_int_equal(xu_profile_add(fx->p, 1, s3, 2, XU_WALK_COMPLETE, 7), 0);
    assert_int_equal(xu_profile_add(fx->p, 1, s4, 2, XU_WALK_COMPLETE, 1), 0);
    n = xu_profile_unique_addrs(fx->p, &addrs);
    assert_true(n > 0);
    sz = xu_symbolizer_new(st, addrs, (size_t)n);
    assert_non_null(sz);
    fx->ctx.names = NULL;
    fx->ctx.syms = sz;
    fx->ctx.tasks = tasks;
    got = assert_as_before(&fx->ctx);
    assert_string_equal(got,
        "[idle];leaf 7\n"
        "[task] busy/42;[user] 5\n"
        "[task] busy/42;main;leaf 3\n"
        "[task] unknown;leaf 1\n");
    free(got);
    fx->ctx.tasks = NULL;
    got = assert_as_before(&fx->ctx);
    assert_non_null(strstr(got, "[task] #1;[user] 5\n"));
    free(got);
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
    free(addrs);
    free(tasks);
}

/* ----------------------------------------------------- hostile input -- */

static void quiet_emit(void *ctx, enum xu_log_level level, const char *msg)
{
}

/*
 * A trace whose one sample is 200,000 frames deep: the reader keeps the
 * innermost XU_MAX_DEPTH_LIMIT (its bound), so the writer sees at most
 * that plus its root frames, and writes what the previous writer did.
 */
static void test_hostile_depth(void **state)
{
    struct xu_log log = { .emit = quiet_emit, .min_level = XU_LOG_DEBUG };
    struct xu_output_options oo = { .per_vcpu = true };
    struct xu_output_ctx ctx = { .opts = &oo };
    struct xu_input *in = NULL;
    size_t cap = 200000 * 12 + 64, len = 0, semis = 0;
    char *text = malloc(cap), *got, *p;
    FILE *f;
    int i;

    (void)state;
    assert_non_null(text);
    for (i = 0; i < 200000; i++)
        len += (size_t)snprintf(text + len, cap - len, "0x%x\n", 0x1000 + i % 5000);
    len += (size_t)snprintf(text + len, cap - len, "1\n\n0x1\n1\n\n");
    f = fmemopen(text, len, "r");
    assert_non_null(f);
    assert_int_equal(xu_input_read(f, XU_INPUT_RAW, NULL, &log, &in), 0);
    fclose(f);
    assert_int_equal(in->stats.truncated, 1);
    ctx.profile = in->profile;
    got = assert_as_before(&ctx);
    assert_true(strncmp(got, "vcpu0;0x1 1\nvcpu0;[incomplete];", 31) == 0);
    for (p = strchr(got, '\n') + 1; *p && *p != '\n'; p++)
        semis += *p == ';';
    /* vcpu0;[incomplete];... the innermost 1024 frames */
    assert_int_equal(semis, 2 + XU_MAX_DEPTH_LIMIT - 1);
    free(got);
    xu_input_free(in);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_prefix_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rewritten_names_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_name_depths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vcpu_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_markers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deepest_and_largest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_profiles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_address_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_task_frames, setup, teardown),
        cmocka_unit_test(test_hostile_depth),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
