/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output_svg.c - the flame graph SVG: well-formed XML (a small checker
 * here, and xmllint too when it is installed), its frames and their sample
 * counts, names escaped, narrow frames merged and not dropped, icicle
 * layout, colours stable by name and by origin, and the differential graph.
 */
#include "config.h"

#include <ctype.h>
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
#include "output/xu_flamegraph.h"
#include "output/xu_output.h"
#include "profile/xu_profile.h"

/* --------------------------------------------------- a small XML checker -- */

static bool name_char(int c, bool first)
{
    return isalpha(c) || c == '_' || c == ':' || (!first && (isdigit(c) || c == '-' || c == '.'));
}

static const char *skip_name(const char *p)
{
    if (!name_char((unsigned char)*p, true))
        return NULL;
    while (name_char((unsigned char)*p, false))
        p++;
    return p;
}

/* An entity reference at p ("&...;"): its end, or NULL. */
static const char *skip_entity(const char *p)
{
    static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
    size_t i;

    for (i = 0; i < 5; i++)
        if (strncmp(p, named[i], strlen(named[i])) == 0)
            return p + strlen(named[i]);
    if (p[1] == '#') {
        const char *q = p + 2;
        bool hex = *q == 'x';

        if (hex)
            q++;
        while (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q))
            q++;
        if (*q == ';' && q > p + 2 + hex)
            return q + 1;
    }
    return NULL;
}

static bool valid_utf8_xml(const unsigned char *s)
{
    while (*s) {
        size_t n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3
                   : (*s & 0xf8) == 0xf0 ? 4 : 0;
        size_t i;

        if (n == 0 || (n == 2 && *s < 0xc2))
            return false;
        if (n == 1 && *s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
        for (i = 1; i < n; i++)
            if ((s[i] & 0xc0) != 0x80)
                return false;
        s += n;
    }
    return true;
}

/* Well-formedness of the subset of XML our writer may produce. */
static void assert_well_formed(const char *doc)
{
    const char *stack[64];
    size_t stack_len[64];
    int depth = 0, roots = 0;
    const char *p = doc, *q;

    assert_true(valid_utf8_xml((const unsigned char *)doc));
    if (strncmp(p, "<?xml", 5) == 0) {
        p = strstr(p, "?>");
        assert_non_null(p);
        p += 2;
    }
    while (*p) {
        if (*p != '<') {
            if (*p == '&') {
                q = skip_entity(p);
                assert_non_null(q);
                p = q;
                continue;
            }
            assert_false(depth == 0 && !isspace((unsigned char)*p));
            assert_false(strncmp(p, "]]>", 3) == 0);
            p++;
            continue;
        }
        if (strncmp(p, "<![CDATA[", 9) == 0) {
            assert_true(depth > 0);
            p = strstr(p, "]]>");
            assert_non_null(p);
            p += 3;
        } else if (strncmp(p, "<!--", 4) == 0) {
            p = strstr(p, "-->");
            assert_non_null(p);
            p += 3;
        } else if (p[1] == '/') {
            q = skip_name(p + 2);
            assert_non_null(q);
            assert_true(depth > 0);
            depth--;
            assert_int_equal((size_t)(q - (p + 2)), stack_len[depth]);
            assert_memory_equal(p + 2, stack[depth], stack_len[depth]);
            while (isspace((unsigned char)*q))
                q++;
            assert_int_equal(*q, '>');
            p = q + 1;
        } else {
            const char *name = p + 1;

            q = skip_name(name);
            assert_non_null(q);
            if (depth == 0)
                roots++;
            assert_true(depth < 64);
            stack[depth] = name;
            stack_len[depth] = (size_t)(q - name);
            p = q;
            for (;;) {
                char quote;

                while (isspace((unsigned char)*p))
                    p++;
                if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                    break;
                q = skip_name(p);
                assert_non_null(q);
                p = q;
                assert_int_equal(*p++, '=');
                quote = *p++;
                assert_true(quote == '"' || quote == '\'');
                while (*p != quote) {
                    assert_true(*p && *p != '<');
                    if (*p == '&') {
                        q = skip_entity(p);
                        assert_non_null(q);
                        p = q;
                    } else {
                        p++;
                    }
                }
                p++;
            }
            if (*p == '>')
                depth++;
            else
                p++;
            p++;
        }
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
}

/* xmllint, when installed, as a second opinion on the same text. */
static void xmllint_check(const char *doc)
{
    char path[] = "/tmp/test_output_svg.XXXXXX", cmd[128];
    FILE *f;
    int fd;

    if (access("/usr/bin/xmllint", X_OK) != 0)
        return;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(doc, f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "/usr/bin/xmllint --noout %s", path);
    assert_int_equal(system(cmd), 0);
    unlink(path);
}

/* ------------------------------------------------------------- helpers -- */

struct frame_info {
    unsigned long long s, n;
    unsigned int d;
    double x, y, w;
    int r, g, b;
};

/* The frame whose title starts with "name (": attributes into *fi. */
static bool find_frame(const char *doc, const char *name, struct frame_info *fi)
{
    char key[256];
    const char *t, *g, *rect;

    snprintf(key, sizeof(key), "<title>%s (", name);
    t = strstr(doc, key);
    if (!t)
        return false;
    for (g = t; g > doc && strncmp(g, "<g class=\"f", 11) != 0; g--)
        ;
    assert_int_equal(sscanf(strstr(g, "data-s="), "data-s=\"%llu\" data-n=\"%llu\" data-d=\"%u\"",
                            &fi->s, &fi->n, &fi->d), 3);
    rect = strstr(t, "<rect ");
    assert_int_equal(sscanf(rect, "<rect x=\"%lf\" y=\"%lf\" width=\"%lf\"", &fi->x, &fi->y,
                            &fi->w), 3);
    assert_int_equal(sscanf(strstr(rect, "fill="), "fill=\"rgb(%d,%d,%d)\"", &fi->r, &fi->g,
                            &fi->b), 3);
    return true;
}

static size_t count(const char *doc, const char *what)
{
    size_t n = 0;

    for (; (doc = strstr(doc, what)); doc++)
        n++;
    return n;
}

struct fixture {
    struct xu_profile *p;
    struct xu_output_options opts;
    struct xu_output_ctx ctx;
    struct xu_frame_names names;
    char *text;
    size_t len;
};

static const char *const names[] = {
    "main", "function_1", "function_2", "function_3", "<script>&\"'", "bad\xff\xfeutf8",
    "printf",
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));

    assert_non_null(fx);
    fx->p = xu_profile_new(0);
    assert_non_null(fx->p);
    fx->names.names = names;
    fx->names.count = 7;
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
    free(fx->text);
    free(fx);
    return 0;
}

static void add(struct fixture *fx, enum xu_walk_end end, uint64_t count, uint32_t depth, ...)
{
    uint64_t pcs[16];
    va_list ap;
    uint32_t i;

    va_start(ap, depth);
    for (i = 0; i < depth; i++)
        pcs[i] = va_arg(ap, uint64_t);
    va_end(ap);
    assert_int_equal(xu_profile_add(fx->p, 0, pcs, depth, end, count), 0);
}

static const char *write_svg(struct fixture *fx)
{
    FILE *f;

    free(fx->text);
    fx->text = NULL;
    f = open_memstream(&fx->text, &fx->len);
    assert_non_null(f);
    assert_int_equal(xu_output_svg.write(f, &fx->ctx), 0);
    fclose(f);
    assert_well_formed(fx->text);
    return fx->text;
}

/* The thesis's test program: 10/30/60 % in three functions, plus a broken
 * walk whose names would break XML if written as they are. */
static void add_thesis_profile(struct fixture *fx)
{
    add(fx, XU_WALK_COMPLETE, 10, 3, (uint64_t)6, (uint64_t)1, (uint64_t)0);
    add(fx, XU_WALK_COMPLETE, 30, 3, (uint64_t)6, (uint64_t)2, (uint64_t)0);
    add(fx, XU_WALK_COMPLETE, 60, 3, (uint64_t)6, (uint64_t)3, (uint64_t)0);
    add(fx, XU_WALK_UNMAPPED, 1, 2, (uint64_t)5, (uint64_t)4);
}

static void test_svg_structure(void **state)
{
    struct fixture *fx = *state;
    struct frame_info all, f1, f2, f3, main_f, inc;
    const char *doc;

    add_thesis_profile(fx);
    doc = write_svg(fx);
    xmllint_check(doc);
    /* all, main, 3 functions, 3 printf, [incomplete], 2 hostile names */
    assert_int_equal(count(doc, "<g class=\"f\""), 11);
    assert_true(find_frame(doc, "all", &all));
    assert_int_equal(all.n, 101);
    assert_int_equal(all.d, 0);
    assert_non_null(strstr(doc, "<title>all (101 samples, 100.00%)</title>"));
    assert_true(find_frame(doc, "main", &main_f));
    assert_int_equal(main_f.n, 100);
    assert_true(find_frame(doc, "function_1", &f1));
    assert_true(find_frame(doc, "function_2", &f2));
    assert_true(find_frame(doc, "function_3", &f3));
    assert_non_null(strstr(doc, "<title>function_3 (60 samples, 59.41%)</title>"));
    assert_int_equal(f1.n + f2.n + f3.n, main_f.n);
    assert_int_equal(f3.d, 2);
    /* Siblings in name order, laid out left to right without gaps. */
    assert_int_equal(f2.s, f1.s + f1.n);
    assert_int_equal(f3.s, f2.s + f2.n);
    assert_true(f1.x < f2.x && f2.x < f3.x);
    assert_true(f3.w > 2 * f2.w - 1 && f3.w < 2 * f2.w + 1);
    assert_true(find_frame(doc, "[incomplete]", &inc));
    assert_int_equal(inc.d, 1);
    /* Escaped, and invalid UTF-8 replaced. */
    assert_non_null(strstr(doc, "<title>&lt;script&gt;&amp;&quot;&apos; (1 sample, "));
    assert_non_null(strstr(doc, "<title>bad??utf8 (1 sample"));
    assert_null(strstr(doc, "<script>&"));
    /* The interactive parts, all inline: nothing to fetch from a network. */
    assert_non_null(strstr(doc, "onload=\"init(evt)\""));
    assert_non_null(strstr(doc, "function fg_search("));
    assert_non_null(strstr(doc, "id=\"unzoom\""));
    assert_non_null(strstr(doc, "id=\"matched\""));
    assert_null(strstr(doc, "href="));
    assert_null(strstr(doc, "http://www.w3.org/1999/xlink"));
    /* the share the summary line and --stats call complete: 100 of 101 */
    assert_non_null(strstr(doc, "<text id=\"subtitle\" x=\"600\" y=\"44\">101 samples, 99.0% "
                                "complete stacks</text>"));
}

static void test_svg_title_width(void **state)
{
    struct fixture *fx = *state;
    struct frame_info all;
    const char *doc;

    add_thesis_profile(fx);
    fx->opts.title = "My <title>";
    fx->opts.subtitle = "sub & title";
    fx->opts.width = 800;
    doc = write_svg(fx);
    assert_non_null(strstr(doc, "<svg version=\"1.1\" width=\"800\""));
    assert_non_null(strstr(doc, ">My &lt;title&gt;</text>"));
    assert_non_null(strstr(doc, ">sub &amp; title</text>"));
    assert_true(find_frame(doc, "all", &all));
    assert_true(all.w > 779.9 && all.w < 780.1);       /* 800 - 2 * 10 padding */
}

static void test_svg_min_width_merges(void **state)
{
    struct fixture *fx = *state;
    struct frame_info main_f, big, merged;
    char title[128];
    const char *doc;
    uint64_t i;

    /* main;function_1 1000, then 50 distinct tiny children of main */
    add(fx, XU_WALK_COMPLETE, 1000, 2, (uint64_t)1, (uint64_t)0);
    for (i = 0; i < 50; i++)
        add(fx, XU_WALK_COMPLETE, 1, 2, (uint64_t)(100 + i), (uint64_t)0);
    fx->names.count = 7;    /* ids 100+ are unnamed: drawn as hex */
    fx->opts.min_width = 2.0;
    doc = write_svg(fx);
    assert_true(find_frame(doc, "main", &main_f));
    assert_true(find_frame(doc, "function_1", &big));
    assert_true(find_frame(doc, "[merged]", &merged));
    assert_int_equal(main_f.n, 1050);
    assert_int_equal(merged.n, 50);
    assert_int_equal(big.n + merged.n, main_f.n);
    assert_int_equal(merged.d, 2);
    /* Drawn where the narrow frames were: "0x64".. sort before "function_1". */
    assert_int_equal(merged.s, main_f.s);
    assert_int_equal(big.s, merged.s + merged.n);
    snprintf(title, sizeof(title),
             "<title>[merged] (50 samples, 4.76%%; 50 frames narrower than 2.00 px)</title>");
    assert_non_null(strstr(doc, title));
    assert_int_equal(count(doc, "<title>0x"), 0);
    assert_int_equal(count(doc, "<g class=\"f\""), 4);

    /* The default (0.1 px) keeps them: 1050 samples over 1180 px. */
    fx->opts.min_width = 0;
    doc = write_svg(fx);
    assert_int_equal(count(doc, "<title>0x"), 50);
    assert_int_equal(count(doc, "[merged]"), 0);
}

static void test_svg_inverted(void **state)
{
    struct fixture *fx = *state;
    struct frame_info all, f3;

    add_thesis_profile(fx);
    write_svg(fx);
    assert_true(find_frame(fx->text, "all", &all));
    assert_true(find_frame(fx->text, "function_3", &f3));
    assert_true(all.y > f3.y);          /* flames grow upwards */
    fx->opts.inverted = true;
    write_svg(fx);
    assert_true(find_frame(fx->text, "all", &all));
    assert_true(find_frame(fx->text, "function_3", &f3));
    assert_true(all.y < f3.y);          /* icicles hang down */
    assert_true(f3.y - all.y > 31 && f3.y - all.y < 33);
}

static void test_svg_colours_stable(void **state)
{
    struct fixture *fx = *state;
    struct frame_info a, b;
    char *first;

    add_thesis_profile(fx);
    write_svg(fx);
    assert_true(find_frame(fx->text, "function_3", &a));
    first = strdup(fx->text);
    /* Another profile: function_3 elsewhere, with other counts. */
    xu_profile_free(fx->p);
    fx->p = xu_profile_new(0);
    fx->ctx.profile = fx->p;
    add(fx, XU_WALK_COMPLETE, 7, 2, (uint64_t)3, (uint64_t)2);
    write_svg(fx);
    assert_true(find_frame(fx->text, "function_3", &b));
    assert_int_equal(a.r, b.r);
    assert_int_equal(a.g, b.g);
    assert_int_equal(a.b, b.b);
    /* Warm colours, and names do not all get the same one. */
    assert_true(a.r >= 205 && a.b <= 55);
    assert_true(find_frame(first, "function_1", &b));
    assert_false(a.r == b.r && a.g == b.g && a.b == b.b);
    /* The synthetic frames are grey. */
    assert_true(find_frame(first, "all", &b));
    assert_true(b.r == 220 && b.g == 220 && b.b == 220);
    assert_true(find_frame(first, "[incomplete]", &b));
    assert_true(b.r == 220 && b.g == 220 && b.b == 220);
    free(first);
}

/* Palette by origin: the kernel half of the address space is blue. */
static void test_svg_palette_origin(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_section secs[] = {
        { ".text", 0x401000, 0x1000, false },
        { ".ktext", 0xffffffff81000000ULL, 0x1000, false },
    };
    static const struct mkelf_sym syms[] = {
        { "app_main", 0x401000, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "kernel_func", 0xffffffff81000000ULL, 0x100, STT_FUNC, STB_GLOBAL, 1 },
    };
    static const uint64_t pcs[] = { 0xffffffff81000010ULL, 0x401010, 0x12345 };
    char path[] = "/tmp/test_output_svg.XXXXXX";
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    struct frame_info k, a, u;
    uint64_t *addrs;
    long n;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write_sections(path, secs, 2, syms, 2, 0), 0);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, pcs, 3, XU_WALK_COMPLETE, 5), 0);
    n = xu_profile_unique_addrs(fx->p, &addrs);
    assert_true(n == 3);
    sz = xu_symbolizer_new(st, addrs, (size_t)n);
    assert_non_null(sz);
    fx->ctx.names = NULL;
    fx->ctx.syms = sz;
    fx->opts.palette = XU_PALETTE_ORIGIN;
    write_svg(fx);
    assert_true(find_frame(fx->text, "kernel_func", &k));
    assert_true(find_frame(fx->text, "app_main", &a));
    assert_true(find_frame(fx->text, "0x12345", &u));
    assert_true(k.b >= 200 && k.r <= 110);
    assert_true(a.r >= 205 && a.b <= 55);
    assert_true(u.r == u.g && u.g == u.b);
    xu_symbolizer_free(sz);
    free(addrs);
    xu_symtab_free(st);
    unlink(path);
}

/* A differential graph: AFTER's widths, colour by the normalised change. */
static void test_svg_diff(void **state)
{
    struct fixture *fx = *state;
    struct xu_profile *before = xu_profile_new(0);
    struct xu_output_ctx bctx = { .profile = before, .names = &fx->names };
    struct xu_fg *fg = xu_fg_new();
    struct xu_fg_labels labels = { NULL, "before -> after" };
    struct frame_info f1, f2, m;
    static const uint64_t s1[] = { 1, 0 }, s2[] = { 2, 0 };
    FILE *f;

    assert_non_null(before);
    assert_non_null(fg);
    /* BEFORE: 50/50 over 200 samples; AFTER: 90/10 over 100 samples. */
    assert_int_equal(xu_profile_add(before, 0, s1, 2, XU_WALK_COMPLETE, 100), 0);
    assert_int_equal(xu_profile_add(before, 0, s2, 2, XU_WALK_COMPLETE, 100), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s1, 2, XU_WALK_COMPLETE, 90), 0);
    assert_int_equal(xu_profile_add(fx->p, 0, s2, 2, XU_WALK_COMPLETE, 10), 0);
    assert_int_equal(xu_fg_add(fg, &fx->ctx, 0), 0);
    assert_int_equal(xu_fg_add(fg, &bctx, 1), 0);
    f = open_memstream(&fx->text, &fx->len);
    assert_non_null(f);
    assert_int_equal(xu_fg_write_svg(f, fg, &fx->opts, &labels, NULL), 0);
    fclose(f);
    assert_well_formed(fx->text);
    assert_non_null(strstr(fx->text, ">Differential Flame Graph</text>"));
    assert_true(find_frame(fx->text, "function_1", &f1));
    assert_true(find_frame(fx->text, "function_2", &f2));
    assert_true(find_frame(fx->text, "main", &m));
    assert_int_equal(f1.n, 90);                         /* widths are AFTER's */
    assert_true(f1.r == 255 && f1.g < 100 && f1.g == f1.b);    /* grew: red */
    assert_true(f2.b == 255 && f2.r < 100 && f2.r == f2.g);    /* shrank: blue */
    assert_true(m.r == 255 && m.g == 255 && m.b == 255);       /* same share */
    assert_non_null(strstr(fx->text, "<title>function_1 (90 samples, 90.00%; "
                                     "before 100, 50.00%; +40.00%)</title>"));
    assert_non_null(strstr(fx->text, "<title>function_2 (10 samples, 10.00%; "
                                     "before 100, 50.00%; -40.00%)</title>"));
    xu_fg_free(fg);
    xu_profile_free(before);
}

static void test_svg_per_vcpu(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t pcs[] = { 3, 0 };
    struct frame_info v0, v5, inc;

    add_thesis_profile(fx);
    assert_int_equal(xu_profile_add(fx->p, 5, pcs, 2, XU_WALK_COMPLETE, 9), 0);
    fx->opts.per_vcpu = true;
    write_svg(fx);
    assert_true(find_frame(fx->text, "vcpu0", &v0));
    assert_true(find_frame(fx->text, "vcpu5", &v5));
    assert_int_equal(v0.n, 101);
    assert_int_equal(v5.n, 9);
    assert_int_equal(v0.d, 1);
    assert_true(find_frame(fx->text, "[incomplete]", &inc));
    assert_int_equal(inc.d, 2);         /* under its vCPU */
    assert_int_equal(count(fx->text, "<title>function_3 ("), 2);
}

static void test_svg_empty(void **state)
{
    struct fixture *fx = *state;

    write_svg(fx);
    assert_int_equal(count(fx->text, "<g class=\"f\""), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_svg_structure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_title_width, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_min_width_merges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_inverted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_colours_stable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_palette_origin, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_diff, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_per_vcpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_svg_empty, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
