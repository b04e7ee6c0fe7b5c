/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_inline.c - inlined functions and source lines from DWARF, from the
 * symboliser to every writer, on inline_fixture.elf: a real program
 * compiled with -O2 -g at `make check` whose functions are inlined into
 * each other (inline_fixture.c says how, inline_fixture.h what lines to
 * expect).  Also: --no-inline gives what a symboliser without DWARF gives,
 * and damaged DWARF gives the ELF's names without a crash.
 *
 * The profile has two stacks (innermost first):
 *   A  FX_MARK_LEAF, FX_MARK_AFTER_OUTER                      x3
 *   B  fx_callee, FX_MARK_AFTER_CALLEE, FX_MARK_AFTER_OUTER   x2
 * so A's leaf is in fx_leaf inlined in fx_middle inlined in fx_outer, and
 * B's middle frame is a return address inside fx_middle's inlined code.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

#include <gelf.h>
#include <libelf.h>
#ifdef HAVE_ZLIB
#include <zlib.h>

#include "pb_reader.h"
#endif

#include "inline_fixture.h"
#include "output_text.h"
#include "output/xu_output.h"
#include "profile/xu_profile.h"
#include "symbols/xu_symbols.h"

#ifndef XU_TEST_INLINE_FIXTURE
#error "XU_TEST_INLINE_FIXTURE: the path of inline_fixture.elf (Makefile.am)"
#endif

struct fixture {
    struct xu_symtab *st;
    struct xu_profile *p;
    uint64_t marks[FX_NR_MARKS];
    uint64_t callee;            /* fx_callee's first instruction */
    uint64_t *addrs;            /* the profile's lookup addresses */
    size_t nr_addrs;
    char warning[512];          /* the last warning logged */
    struct xu_log log;
    char dir[64];
};

static void capture(void *ctx, enum xu_log_level level, const char *msg)
{
    struct fixture *fx = ctx;

    if (level >= XU_LOG_WARN)
        snprintf(fx->warning, sizeof(fx->warning), "%s", msg);
}

/* A section of the ELF at path: its file offset and size. */
static bool find_section(const char *path, const char *name, uint64_t *off, uint64_t *size,
                         void *copy, size_t copy_len)
{
    int fd = open(path, O_RDONLY);
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    bool found = false;
    Elf *e;

    assert_true(fd >= 0);
    assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
    e = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(e);
    assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
    while (!found && (scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        const char *n;

        assert_non_null(gelf_getshdr(scn, &sh));
        n = elf_strptr(e, shstrndx, sh.sh_name);
        if (!n || strcmp(n, name) != 0)
            continue;
        found = true;
        *off = sh.sh_offset;
        *size = sh.sh_size;
        if (copy) {
            Elf_Data *d = elf_getdata(scn, NULL);

            assert_non_null(d);
            assert_true(d->d_size >= copy_len);
            memcpy(copy, d->d_buf, copy_len);
        }
    }
    elf_end(e);
    close(fd);
    return found;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    const struct xu_symbol *callee;
    uint64_t off, size, a[3], b[3];
    const char *tmp = getenv("TMPDIR");
    long n;

    assert_non_null(fx);
    assert_true(find_section(XU_TEST_INLINE_FIXTURE, ".fx_marks", &off, &size, fx->marks,
                             sizeof(fx->marks)));
    assert_int_equal(xu_symtab_open(XU_TEST_INLINE_FIXTURE, NULL, &fx->st), 0);
    callee = xu_symtab_find(fx->st, "fx_callee");
    assert_non_null(callee);
    fx->callee = callee->start;
    fx->p = xu_profile_new(0);
    assert_non_null(fx->p);
    a[0] = fx->marks[FX_MARK_LEAF];
    a[1] = fx->marks[FX_MARK_AFTER_OUTER];
    assert_int_equal(xu_profile_add(fx->p, 0, a, 2, XU_WALK_COMPLETE, 3), 0);
    b[0] = fx->callee;
    b[1] = fx->marks[FX_MARK_AFTER_CALLEE];
    b[2] = fx->marks[FX_MARK_AFTER_OUTER];
    assert_int_equal(xu_profile_add(fx->p, 0, b, 3, XU_WALK_COMPLETE, 2), 0);
    n = xu_profile_unique_addrs(fx->p, &fx->addrs);
    assert_true(n == 4);
    fx->nr_addrs = (size_t)n;
    qsort(fx->addrs, fx->nr_addrs, sizeof(*fx->addrs), cmp_u64);
    fx->log.emit = capture;
    fx->log.ctx = fx;
    fx->log.min_level = XU_LOG_DEBUG;
    snprintf(fx->dir, sizeof(fx->dir), "%s/test_inline.XXXXXX",
             tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    assert_non_null(mkdtemp(fx->dir));
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    xu_profile_free(fx->p);
    xu_symtab_free(fx->st);
    free(fx->addrs);
    rmdir(fx->dir);
    free(fx);
    return 0;
}

/* The symboliser as a run with these options makes it. */
static struct xu_symbolizer *symbolizer(struct fixture *fx, const struct xu_output_options *o,
                                        const char *elf)
{
    struct xu_symbolizer *sz = xu_output_symbolizer_new(o, fx->st, fx->addrs, fx->nr_addrs,
                                                        elf, &fx->log);

    assert_non_null(sz);
    return sz;
}

static char *render(struct fixture *fx, const struct xu_output_ops *ops,
                    const struct xu_output_options *o, const struct xu_symbolizer *sz,
                    size_t *len)
{
    struct xu_output_ctx ctx = { .profile = fx->p, .syms = sz, .opts = o, .log = &fx->log,
                                 .symtab = fx->st };

    return output_text(ops, &ctx, len);
}

#ifdef HAVE_LIBDW

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;

    return s ? s + 1 : path;
}

static void expect_line(const struct xu_frame_line *l, const char *name, bool inlined,
                        uint32_t line)
{
    assert_string_equal(l->name, name);
    assert_int_equal(l->inlined, inlined);
    assert_int_equal(l->line, line);
    assert_non_null(l->file);
    assert_string_equal(base(l->file), "inline_fixture.c");
}

/* Each lookup address's chain, outermost first, with the call lines. */
static void test_chains(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    const struct xu_frame_line *l;

    assert_true(xu_symbolizer_has_dwarf(sz));
    /* the sampled PC itself: three functions deep */
    assert_int_equal(xu_symbolizer_frames(sz, fx->marks[FX_MARK_LEAF], &l), 3);
    expect_line(&l[0], "fx_outer", false, FX_LINE_OUTER_CALLS_MIDDLE);
    expect_line(&l[1], "fx_middle", true, FX_LINE_MIDDLE_CALLS_LEAF);
    expect_line(&l[2], "fx_leaf", true, FX_LINE_LEAF);
    /* a return address is looked up one byte back: the call, in fx_middle */
    assert_int_equal(xu_symbolizer_frames(sz, fx->marks[FX_MARK_AFTER_CALLEE] - 1, &l), 2);
    expect_line(&l[0], "fx_outer", false, FX_LINE_OUTER_CALLS_MIDDLE);
    expect_line(&l[1], "fx_middle", true, FX_LINE_MIDDLE_CALLS_CALLEE);
    assert_int_equal(xu_symbolizer_frames(sz, fx->marks[FX_MARK_AFTER_OUTER] - 1, &l), 1);
    expect_line(&l[0], "fx_entry", false, FX_LINE_ENTRY_CALLS_OUTER);
    assert_int_equal(xu_symbolizer_frames(sz, fx->callee, &l), 1);
    expect_line(&l[0], "fx_callee", false, FX_LINE_CALLEE);
    /* an address that was not given */
    assert_int_equal(xu_symbolizer_frames(sz, fx->callee + 1, &l), 0);
    assert_null(l);
    xu_symbolizer_free(sz);

    /* --no-inline: the physical function alone, with the line table's line */
    o.no_inline = true;
    sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    assert_int_equal(xu_symbolizer_frames(sz, fx->marks[FX_MARK_LEAF], &l), 1);
    expect_line(&l[0], "fx_outer", false, FX_LINE_LEAF);
    xu_symbolizer_free(sz);
}

/* A chain deeper than XU_INLINE_MAX_DEPTH keeps its outermost functions,
 * and the last one kept has its own call line, not the leaf's. */
static void test_deep_chain(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    const struct xu_frame_line *l;
    struct xu_symbolizer *sz;
    uint64_t addr = fx->marks[FX_MARK_DEEP];
    char name[32];
    unsigned int j;

    sz = xu_output_symbolizer_new(&o, fx->st, &addr, 1, XU_TEST_INLINE_FIXTURE, &fx->log);
    assert_non_null(sz);
    assert_int_equal(xu_symbolizer_frames(sz, addr, &l), XU_INLINE_MAX_DEPTH);
    assert_string_equal(l[0].name, "fx_deep_root");
    assert_false(l[0].inlined);
    for (j = 1; j < XU_INLINE_MAX_DEPTH; j++) {
        snprintf(name, sizeof(name), "fx_deep_%u", j - 1);
        expect_line(&l[j], name, true, FX_LINE_DEEP_CHAIN);
    }
    xu_symbolizer_free(sz);
}

static void test_folded(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE), *plain;
    char expected[512], *text, *today;

    text = render(fx, &xu_output_folded, &o, sz, NULL);
    assert_string_equal(text, "fx_entry;fx_outer;fx_middle_[i];fx_callee 2\n"
                              "fx_entry;fx_outer;fx_middle_[i];fx_leaf_[i] 3\n");
    free(text);

    o.lines = true;
    text = render(fx, &xu_output_folded, &o, sz, NULL);
    snprintf(expected, sizeof(expected),
             "fx_entry:%d;fx_outer:%d;fx_middle:%d_[i];fx_leaf:%d_[i] 3\n"
             "fx_entry:%d;fx_outer:%d;fx_middle:%d_[i];fx_callee:%d 2\n",
             FX_LINE_ENTRY_CALLS_OUTER, FX_LINE_OUTER_CALLS_MIDDLE, FX_LINE_MIDDLE_CALLS_LEAF,
             FX_LINE_LEAF, FX_LINE_ENTRY_CALLS_OUTER, FX_LINE_OUTER_CALLS_MIDDLE,
             FX_LINE_MIDDLE_CALLS_CALLEE, FX_LINE_CALLEE);
    assert_string_equal(text, expected);
    free(text);
    xu_symbolizer_free(sz);

    /* --no-inline: what a symboliser without DWARF gives, as before */
    o.lines = false;
    o.no_inline = true;
    sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    plain = xu_symbolizer_new(fx->st, fx->addrs, fx->nr_addrs);
    assert_non_null(plain);
    text = render(fx, &xu_output_folded, &o, sz, NULL);
    today = render(fx, &xu_output_folded, &o, plain, NULL);
    assert_string_equal(text, "fx_entry;fx_outer 3\nfx_entry;fx_outer;fx_callee 2\n");
    assert_string_equal(text, today);
    free(text);
    free(today);
    /* and the other writers alike */
    text = render(fx, &xu_output_speedscope, &o, sz, NULL);
    today = render(fx, &xu_output_speedscope, &o, plain, NULL);
    assert_null(strstr(text, "_[i]"));
    free(text);
    free(today);
    xu_symbolizer_free(plain);
    xu_symbolizer_free(sz);
}

static void test_speedscope(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    char *text = render(fx, &xu_output_speedscope, &o, sz, NULL), needle[128], *at;

    /* separate frames; fx_middle is at two lines, so it has none */
    assert_non_null(strstr(text, "{\"name\":\"fx_middle_[i]\",\"file\":\""));
    assert_non_null(strstr(text, "inline_fixture.c\"}"));
    snprintf(needle, sizeof(needle), "inline_fixture.c\",\"line\":%d}", FX_LINE_LEAF);
    at = strstr(text, "{\"name\":\"fx_leaf_[i]\",\"file\":\"");
    assert_non_null(at);
    assert_ptr_equal(strstr(at, needle), strchr(at, '}') - strlen(needle) + 1);
    /* stack A root first: fx_entry, fx_outer, fx_middle_[i], fx_leaf_[i]:
     * four frames in its sample */
    assert_non_null(strstr(text, "\n[4,1,2,3]"));
    free(text);

    /* --lines: fx_middle at each of its lines is a frame */
    o.lines = true;
    text = render(fx, &xu_output_speedscope, &o, sz, NULL);
    snprintf(needle, sizeof(needle), "inline_fixture.c\",\"line\":%d}",
             FX_LINE_MIDDLE_CALLS_CALLEE);
    assert_non_null(strstr(text, needle));
    snprintf(needle, sizeof(needle), "inline_fixture.c\",\"line\":%d}",
             FX_LINE_MIDDLE_CALLS_LEAF);
    assert_non_null(strstr(text, needle));
    free(text);
    xu_symbolizer_free(sz);
}

static void test_svg_and_report(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    char *text = render(fx, &xu_output_svg, &o, sz, NULL), needle[128], *at;

    /* the inlined frame: named, marked in its tooltip, and outlined */
    at = strstr(text, "<title>fx_leaf_[i] (3 samples, 60.00%; inlined; ");
    assert_non_null(at);
    snprintf(needle, sizeof(needle), "inline_fixture.c:%d)</title>", FX_LINE_LEAF);
    assert_non_null(strstr(at, needle));
    assert_true(strstr(at, needle) < strstr(at, "</g>"));
    assert_true(strstr(at, "stroke-dasharray") < strstr(at, "</g>"));
    /* a physical one: its line, no outline */
    at = strstr(text, "<title>fx_outer (5 samples, 100.00%; ");
    assert_non_null(at);
    snprintf(needle, sizeof(needle), "inline_fixture.c:%d)</title>",
             FX_LINE_OUTER_CALLS_MIDDLE);
    assert_true(strstr(at, needle) < strstr(at, "</g>"));
    assert_true(!strstr(at, "stroke-dasharray") ||
                strstr(at, "stroke-dasharray") > strstr(at, "</g>"));
    free(text);

    text = render(fx, &xu_output_report, &o, sz, NULL);
    /* self samples go to the innermost inlined function */
    assert_non_null(strstr(text, "        3  60.00%         3  60.00%  fx_leaf_[i]\n"));
    free(text);
    o.lines = true;
    text = render(fx, &xu_output_report, &o, sz, NULL);
    snprintf(needle, sizeof(needle), "  fx_leaf_[i] inline_fixture.c:%d\n", FX_LINE_LEAF);
    assert_non_null(strstr(text, needle));
    free(text);
    xu_symbolizer_free(sz);
}

#ifdef HAVE_ZLIB

/* ------------------------------------------------ pprof, decoded */

#define MAX_PB 32

struct pprof_view {
    char *strings[MAX_PB * 4];
    size_t nr_strings;
    uint64_t loc_addr[MAX_PB], loc_func[MAX_PB][8], loc_line[MAX_PB][8], loc_nlines[MAX_PB];
    uint64_t func_name[MAX_PB], func_file[MAX_PB];
};

static void pprof_read(const char *gz, size_t gzlen, struct pprof_view *d)
{
    size_t rawlen;
    uint8_t *raw = pb_gunzip(gz, gzlen, &rawlen);
    struct pb_msg m = { raw, raw + rawlen }, sub, s2, s3;
    uint64_t v, id;

    memset(d, 0, sizeof(*d));
    while (m.p < m.end) {
        unsigned int f = pb_next_field(&m, &v, &sub);

        if (f == 4) {           /* location */
            uint64_t addr = 0, funcs[8], lines[8], n = 0;

            id = 0;
            while (sub.p < sub.end) {
                unsigned int g = pb_next_field(&sub, &v, &s2);

                if (g == 1)
                    id = v;
                else if (g == 3)
                    addr = v;
                else if (g == 4) {
                    assert_true(n < 8);
                    funcs[n] = lines[n] = 0;
                    while (s2.p < s2.end) {
                        unsigned int h = pb_next_field(&s2, &v, &s3);

                        if (h == 1)
                            funcs[n] = v;
                        else if (h == 2)
                            lines[n] = v;
                    }
                    n++;
                }
            }
            assert_true(id >= 1 && id <= MAX_PB);
            d->loc_addr[id - 1] = addr;
            d->loc_nlines[id - 1] = n;
            memcpy(d->loc_func[id - 1], funcs, n * sizeof(*funcs));
            memcpy(d->loc_line[id - 1], lines, n * sizeof(*lines));
        } else if (f == 5) {    /* function */
            uint64_t name = 0, file = 0;

            id = 0;
            while (sub.p < sub.end) {
                unsigned int g = pb_next_field(&sub, &v, &s2);

                if (g == 1)
                    id = v;
                else if (g == 2)
                    name = v;
                else if (g == 4)
                    file = v;
            }
            assert_true(id >= 1 && id <= MAX_PB);
            d->func_name[id - 1] = name;
            d->func_file[id - 1] = file;
        } else if (f == 6) {
            assert_true(d->nr_strings < MAX_PB * 4);
            d->strings[d->nr_strings++] = strndup((const char *)sub.p,
                                                  (size_t)(sub.end - sub.p));
        }
    }
    free(raw);
}

static const char *pb_str(const struct pprof_view *d, uint64_t i)
{
    assert_true(i < d->nr_strings);
    return d->strings[i];
}

/* The location at addr: its Lines, innermost first, as "name:line" words. */
static void expect_location(const struct pprof_view *d, uint64_t addr, const char *expected)
{
    char got[256] = "";
    size_t k, j, len = 0;

    for (k = 0; k < MAX_PB && d->loc_addr[k] != addr; k++)
        ;
    assert_true(k < MAX_PB);
    for (j = 0; j < d->loc_nlines[k]; j++) {
        uint64_t f = d->loc_func[k][j];

        assert_true(f >= 1 && f <= MAX_PB);
        assert_string_equal(base(pb_str(d, d->func_file[f - 1])), "inline_fixture.c");
        len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s:%" PRIu64, j ? " " : "",
                                pb_str(d, d->func_name[f - 1]), d->loc_line[k][j]);
    }
    assert_string_equal(got, expected);
}

static void test_pprof(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { 0 };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    struct pprof_view *d = malloc(sizeof(*d));
    char expected[256], *gz;
    size_t len, i;

    assert_non_null(d);
    gz = render(fx, &xu_output_pprof, &o, sz, &len);
    pprof_read(gz, len, d);
    /* locations are at the frames' own PCs; Lines innermost first */
    snprintf(expected, sizeof(expected), "fx_leaf:%d fx_middle:%d fx_outer:%d", FX_LINE_LEAF,
             FX_LINE_MIDDLE_CALLS_LEAF, FX_LINE_OUTER_CALLS_MIDDLE);
    expect_location(d, fx->marks[FX_MARK_LEAF], expected);
    snprintf(expected, sizeof(expected), "fx_middle:%d fx_outer:%d",
             FX_LINE_MIDDLE_CALLS_CALLEE, FX_LINE_OUTER_CALLS_MIDDLE);
    expect_location(d, fx->marks[FX_MARK_AFTER_CALLEE], expected);
    snprintf(expected, sizeof(expected), "fx_callee:%d", FX_LINE_CALLEE);
    expect_location(d, fx->callee, expected);
    for (i = 0; i < d->nr_strings; i++)
        free(d->strings[i]);
    free(gz);
    xu_symbolizer_free(sz);

    /* --no-inline: one Line a location, the line table's */
    o.no_inline = true;
    sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    gz = render(fx, &xu_output_pprof, &o, sz, &len);
    pprof_read(gz, len, d);
    snprintf(expected, sizeof(expected), "fx_outer:%d", FX_LINE_LEAF);
    expect_location(d, fx->marks[FX_MARK_LEAF], expected);
    for (i = 0; i < d->nr_strings; i++)
        free(d->strings[i]);
    free(gz);
    free(d);
    xu_symbolizer_free(sz);
}

#endif /* HAVE_ZLIB */

/* ------------------------------------------------------- damaged DWARF */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint8_t next_byte(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)rng;
}

enum damage { FILL_FF, RANDOM, HUGE_UNIT, ZERO_TAIL, SHORT_UNIT, NR_DAMAGE };

/* A copy of the fixture with one section damaged, at path. */
static bool damaged_copy(const char *section, enum damage how, const char *path)
{
    uint64_t off, size, i;
    uint8_t *buf;
    long len;
    FILE *f = fopen(XU_TEST_INLINE_FIXTURE, "rb");

    if (!find_section(XU_TEST_INLINE_FIXTURE, section, &off, &size, NULL, 0)) {
        if (f)
            fclose(f);
        return false;
    }
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = ftell(f);
    rewind(f);
    buf = malloc((size_t)len);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    assert_true(off + size <= (uint64_t)len && size >= 16);
    switch (how) {
    case FILL_FF:
        memset(buf + off, 0xff, size);
        break;
    case RANDOM:
        for (i = 0; i < size; i++)
            buf[off + i] = next_byte();
        break;
    case HUGE_UNIT:         /* the first unit claims to run past the section */
        memcpy(buf + off, "\xf0\xff\xff\x7f", 4);
        break;
    case ZERO_TAIL:         /* the DIE tree cut off halfway */
        memset(buf + off + size / 2, 0, size - size / 2);
        break;
    case SHORT_UNIT:        /* the first unit ends before its own header */
        memcpy(buf + off, "\x03\x00\x00\x00", 4);
        break;
    default:
        break;
    }
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, (size_t)len, f), (size_t)len);
    assert_int_equal(fclose(f), 0);
    free(buf);
    return true;
}

/* Damaged .debug_info, .debug_abbrev or .debug_line: never a crash, and
 * every address keeps its physical function's name. */
static void test_damaged_dwarf(void **state)
{
    static const char *const sections[] = { ".debug_info", ".debug_abbrev", ".debug_line" };
    struct fixture *fx = *state;
    struct xu_output_options o = { .lines = true };
    char path[128];
    size_t s, k;
    int how, round;

    snprintf(path, sizeof(path), "%s/damaged.elf", fx->dir);
    for (s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
        for (how = 0; how < NR_DAMAGE; how++) {
            for (round = 0; round < (how == RANDOM ? 8 : 1); round++) {
                struct xu_symbolizer *sz;
                char *text;

                if (!damaged_copy(sections[s], (enum damage)how, path))
                    continue;
                sz = symbolizer(fx, &o, path);
                for (k = 0; k < fx->nr_addrs; k++) {
                    const struct xu_frame_line *l;
                    unsigned int n = xu_symbolizer_frames(sz, fx->addrs[k], &l);

                    assert_true(n >= 1 && n <= XU_INLINE_MAX_DEPTH);
                    assert_string_equal(l[0].name,
                                        xu_symbolizer_name(sz, fx->addrs[k], NULL));
                    assert_false(l[0].inlined);
                }
                assert_string_equal(xu_symbolizer_name(sz, fx->marks[FX_MARK_LEAF], NULL),
                                    "fx_outer");
                text = render(fx, &xu_output_folded, &o, sz, NULL);
                assert_non_null(strstr(text, "fx_entry"));
                free(text);
                xu_symbolizer_free(sz);
            }
        }
    }
    unlink(path);
}

#else /* !HAVE_LIBDW */

/* Without libdw: the ELF's names, as before, and a note for --lines. */
static void test_without_libdw(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { .lines = true };
    struct xu_symbolizer *sz = symbolizer(fx, &o, XU_TEST_INLINE_FIXTURE);
    const struct xu_frame_line *l;
    char *text;

    assert_false(xu_symbolizer_dwarf_supported());
    assert_false(xu_symbolizer_has_dwarf(sz));
    assert_non_null(strstr(fx->warning, "--lines"));
    assert_int_equal(xu_symbolizer_frames(sz, fx->marks[FX_MARK_LEAF], &l), 1);
    assert_string_equal(l[0].name, "fx_outer");
    text = render(fx, &xu_output_folded, &o, sz, NULL);
    assert_string_equal(text, "fx_entry;fx_outer 3\nfx_entry;fx_outer;fx_callee 2\n");
    free(text);
    xu_symbolizer_free(sz);
}

#endif

/* An ELF without DWARF: names only, and --lines says why there are none. */
static void test_no_dwarf_note(void **state)
{
    struct fixture *fx = *state;
    struct xu_output_options o = { .lines = true };
    struct xu_symbolizer *sz;

    fx->warning[0] = '\0';
    /* NULL: the ELF's DWARF is not asked for */
    sz = symbolizer(fx, &o, NULL);
    assert_false(xu_symbolizer_has_dwarf(sz));
    assert_non_null(strstr(fx->warning, "--lines"));
    xu_symbolizer_free(sz);
    /* without --lines, no note */
    fx->warning[0] = '\0';
    o.lines = false;
    sz = symbolizer(fx, &o, NULL);
    assert_string_equal(fx->warning, "");
    xu_symbolizer_free(sz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef HAVE_LIBDW
        cmocka_unit_test(test_chains),
        cmocka_unit_test(test_deep_chain),
        cmocka_unit_test(test_folded),
        cmocka_unit_test(test_speedscope),
        cmocka_unit_test(test_svg_and_report),
#ifdef HAVE_ZLIB
        cmocka_unit_test(test_pprof),
#endif
        cmocka_unit_test(test_damaged_dwarf),
#else
        cmocka_unit_test(test_without_libdw),
#endif
        cmocka_unit_test(test_no_dwarf_note),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
