/* SPDX-License-Identifier: GPL-2.0-only */
/* test_options.c - the command line: defaults, values, and worded errors. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"

static char err[256];

static enum xu_parse_result parse(struct xu_options *o, int argc, const char **argv)
{
    xu_options_init(o);
    err[0] = '\0';
    return xu_options_parse(o, argc, (char **)argv, err, sizeof(err));
}

#define PARSE(o, ...) ({ const char *av[] = { "xen-uniprof", __VA_ARGS__ }; \
                         parse((o), (int)(sizeof(av) / sizeof(av[0])), av); })

static void test_defaults(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "web1"), XU_PARSE_OK);
    assert_string_equal(o.domain, "web1");
    assert_true(o.frequency == 99.0);
    assert_true(o.duration == 0);
    assert_null(o.output);
    assert_null(o.format);
    assert_null(o.elf);
    assert_int_equal(o.max_depth, 128);
    assert_int_equal(o.unwind, XU_UNWIND_AUTO);
    assert_false(o.render.per_vcpu);
    assert_int_equal(o.render.width, 0);
    assert_false(o.no_tasks);       /* a Linux guest's samples name their task */
}

static void test_all_options(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "--unwind", "orc", "7"), XU_PARSE_OK);
    assert_int_equal(o.unwind, XU_UNWIND_ORC);
    assert_int_equal(PARSE(&o, "--unwind", "ehabi", "7"), XU_PARSE_OK);
    assert_int_equal(o.unwind, XU_UNWIND_EHABI);
    assert_int_equal(PARSE(&o, "-F", "997", "-T", "2.5", "-o", "x.folded", "-f", "folded",
                           "-e", "k.elf", "--backend", "xc", "--max-depth", "64",
                           "--per-vcpu", "--stats", "s.json", "--unwind", "cfi", "-v", "7"),
                     XU_PARSE_OK);
    assert_int_equal(o.unwind, XU_UNWIND_CFI);
    assert_true(o.frequency == 997.0);
    assert_true(o.duration == 2.5);
    assert_string_equal(o.output, "x.folded");
    assert_string_equal(o.format, "folded");
    assert_string_equal(o.elf, "k.elf");
    assert_string_equal(o.backend, "xc");
    assert_int_equal(o.max_depth, 64);
    assert_true(o.render.per_vcpu);
    assert_string_equal(o.stats, "s.json");
    assert_int_equal(o.verbose, 1);
    assert_string_equal(o.domain, "7");
    assert_int_equal(PARSE(&o, "d", "--samples", "5500"), XU_PARSE_OK);
    assert_int_equal(o.samples, 5500);
    assert_int_equal(PARSE(&o, "--no-tasks", "d"), XU_PARSE_OK);
    assert_true(o.no_tasks);
}

static void test_options_after_domain(void **state)
{
    struct xu_options o;

    /* the way people type it: xen-uniprof web1 -F 99 -T 30 -o web1.svg */
    assert_int_equal(PARSE(&o, "web1", "--frequency=50", "--time", "30", "--output=w.svg"),
                     XU_PARSE_OK);
    assert_string_equal(o.domain, "web1");
    assert_true(o.frequency == 50.0);
    assert_true(o.duration == 30.0);
    assert_string_equal(o.output, "w.svg");
}

static void test_render_options(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "web1", "--title", "T", "--subtitle", "S", "--width", "1600",
                           "--min-width", "0.5", "--inverted", "--palette", "origin"),
                     XU_PARSE_OK);
    assert_string_equal(o.render.title, "T");
    assert_string_equal(o.render.subtitle, "S");
    assert_int_equal(o.render.width, 1600);
    assert_true(o.render.min_width == 0.5);
    assert_true(o.render.inverted);
    assert_int_equal(o.render.palette, XU_PALETTE_ORIGIN);
    /* the defaults, then the views */
    assert_int_equal(o.render.weight, XU_WEIGHT_SAMPLES);
    assert_int_equal(o.render.states, XU_STATES_ALL);
    assert_int_equal(PARSE(&o, "web1", "--weight=cpu", "--state", "offcpu"), XU_PARSE_OK);
    assert_int_equal(o.render.weight, XU_WEIGHT_CPU);
    assert_int_equal(o.render.states, XU_STATES_OFFCPU);
    assert_int_equal(PARSE(&o, "web1", "--weight=samples", "--state=split"), XU_PARSE_OK);
    assert_int_equal(o.render.weight, XU_WEIGHT_SAMPLES);
    assert_int_equal(o.render.states, XU_STATES_SPLIT);
    assert_int_equal(PARSE(&o, "web1", "--state=oncpu", "--state=all"), XU_PARSE_OK);
    assert_int_equal(o.render.states, XU_STATES_ALL);
}

static void test_create(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "--create", "ratio.cfg", "--destroy", "-T", "3"), XU_PARSE_OK);
    assert_string_equal(o.create, "ratio.cfg");
    assert_true(o.destroy);
    assert_null(o.domain);
}

static void test_all(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "--all", "-o", "out", "-T", "3", "--stats", ".stats.json"),
                     XU_PARSE_OK);
    assert_true(o.all);
    assert_string_equal(o.output, "out");
    assert_string_equal(o.stats, ".stats.json");
    assert_null(o.domain);
}

static void test_help_and_version(void **state)
{
    struct xu_options o;

    assert_int_equal(PARSE(&o, "-h"), XU_PARSE_HELP);
    assert_int_equal(PARSE(&o, "--version"), XU_PARSE_VERSION);
    assert_non_null(strstr(xu_options_usage(), "--frequency"));
}

struct bad_case {
    const char *argv[5];
    int argc;
    const char *must_mention;
};

static void test_errors_name_the_option(void **state)
{
    static const struct bad_case cases[] = {
        { { "-F", "abc", "d" }, 3, "-F/--frequency" },
        { { "-F", "0", "d" }, 3, "-F/--frequency" },
        { { "-F", "1e9", "d" }, 3, "-F/--frequency" },
        { { "-F", "nan", "d" }, 3, "-F/--frequency" },
        { { "-T", "-1", "d" }, 3, "-T/--time" },
        { { "-T", "0", "d" }, 3, "-T/--time" },
        { { "-T", "5s", "d" }, 3, "-T/--time" },
        { { "--max-depth", "0", "d" }, 3, "--max-depth" },
        { { "--max-depth", "5000", "d" }, 3, "--max-depth" },
        { { "--max-depth", "-3", "d" }, 3, "--max-depth" },
        { { "--bogus", "d" }, 2, "--bogus" },
        { { "-x", "d" }, 2, "-x" },
        { { "d", "-F" }, 2, "-F/--frequency" },
        { { "d", "--elf" }, 2, "--elf" },
        { { "-o", "", "d" }, 2 + 1, "-o/--output" },
        { { "d", "e" }, 2, "unexpected argument 'e'" },
        { { "-q", "-v", "d" }, 3, "contradict" },
        { { "-F", "99" }, 2, "no DOMAIN" },
        { { "--destroy", "d" }, 2, "--destroy only goes with --create" },
        { { "--unwind", "dwarf", "d" }, 3, "--unwind: 'dwarf'" },
        { { "--samples", "0", "d" }, 3, "--samples: '0'" },
        { { "--samples", "5k", "d" }, 3, "--samples: '5k'" },
        { { "--width", "100", "d" }, 3, "--width: '100'" },
        { { "--palette", "rainbow", "d" }, 3, "--palette: 'rainbow'" },
        { { "--weight", "time", "d" }, 3, "--weight: 'time' is not samples or cpu" },
        { { "--state=running", "d" }, 2, "--state: 'running' is not all, oncpu, offcpu or split" },
        { { "d", "--weight" }, 2, "--weight needs an argument" },
        { { "d", "--title" }, 2, "--title needs an argument" },
        { { "--create", "x.cfg", "d" }, 3, "unexpected DOMAIN 'd'" },
        { { "--all" }, 1, "-o DIR" },
        { { "--all", "-o", "-" }, 3, "-o DIR" },
        { { "--all", "-o", "x", "d" }, 4, "--all takes no DOMAIN" },
        { { "--all", "-o", "x", "-e", "g.elf" }, 5, "-e/--elf and --all" },
        { { "--all", "--create", "x.cfg" }, 3, "--all and --create" },
        { { "--all", "-o", "x", "--stats", "a/b" }, 5, "suffix" },
    };
    struct xu_options o;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *av[6] = { "xen-uniprof" };
        int k;

        for (k = 0; k < cases[i].argc; k++)
            av[k + 1] = cases[i].argv[k];
        assert_int_equal(parse(&o, cases[i].argc + 1, av), XU_PARSE_ERROR);
        if (!strstr(err, cases[i].must_mention))
            fail_msg("case %zu: '%s' does not mention '%s'", i, err, cases[i].must_mention);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_all_options),
        cmocka_unit_test(test_options_after_domain),
        cmocka_unit_test(test_render_options),
        cmocka_unit_test(test_create),
        cmocka_unit_test(test_all),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_errors_name_the_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
