/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_convert.c - `xen-uniprof convert` and `xen-uniprof diff` end to end:
 * an original-uniprof trace (with its `0` terminators) and an ELF written
 * here, converted to exact folded and report text; symbolised and folded
 * input; usage errors (exit 2, naming the option) and a stripped ELF
 * (exit 4); a differential flame graph.
 *
 * ELF: main [0x1000, 0x1040)   work [0x1040, 0x1080)   leaf [0x1080, 0x10a0)
 */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "exit_codes.h"
#include "inline_fixture.h"
#include "mkelf.h"
#include "symbols/xu_demangle.h"
#include "symbols/xu_symbols.h"

struct fixture {
    char dir[64];
    char elf[128], stripped[128], trace[128], syms[128], folded[128], out[128], err[128];
    char *text;
};

/* Two walks that completed, one that failed (0), and a return address at
 * the very start of a function (0x1040 as a caller is main's: pc - 1). */
static const char trace_hex[] =
    "#unikernel stack tracer using xencall hypercall interface\n"
    "#tracing domid 4 on 2021-05-01 12:00:00 UTC (+0000)\n"
    "\n"
    "0x1084\n0x1050\n0x1010\n1\n\n"
    "0x1090\n0x1041\n0\n\n"
    "0x1084\n0x1050\n0x1010\n1\n\n"
    "0x1044\n0x1010\n1\n\n"
    "0x1040\n0x1040\n1\n\n";

/* The same trace as uniprof's symbolize step wrote it. */
static const char trace_syms[] =
    "#unikernel stack tracer using xencall hypercall interface\n"
    "#tracing domid 4 on 2021-05-01 12:00:00 UTC (+0000)\n"
    "\n"
    "leaf+0x4\nwork+0x10\nmain+0x10\n1\n\n"
    "leaf+0x10\nwork+0x1\n0\n\n"
    "leaf+0x4\nwork+0x10\nmain+0x10\n1\n\n"
    "work+0x4\nmain+0x10\n1\n\n"
    "work\nmain+0x3f\n1\n\n";

static const char expected_folded[] =
    "[incomplete];work;leaf 1\n"
    "main;work 2\n"
    "main;work;leaf 2\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    long len;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static int setup(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "leaf", 0x1080, 0x20, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct fixture *fx = calloc(1, sizeof(*fx));

    assert_non_null(fx);
    strcpy(fx->dir, "/tmp/test_convert.XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->elf, sizeof(fx->elf), "%s/guest.elf", fx->dir);
    snprintf(fx->stripped, sizeof(fx->stripped), "%s/stripped.elf", fx->dir);
    snprintf(fx->trace, sizeof(fx->trace), "%s/trace.raw", fx->dir);
    snprintf(fx->syms, sizeof(fx->syms), "%s/trace.syms", fx->dir);
    snprintf(fx->folded, sizeof(fx->folded), "%s/in.folded", fx->dir);
    snprintf(fx->out, sizeof(fx->out), "%s/out", fx->dir);
    snprintf(fx->err, sizeof(fx->err), "%s/stderr", fx->dir);
    assert_int_equal(mkelf_write(fx->elf, 0x1000, 0x100, syms, 3, MKELF_BUILD_ID), 0);
    assert_int_equal(mkelf_write(fx->stripped, 0x1000, 0x100, syms, 3, MKELF_STRIPPED), 0);
    write_file(fx->trace, trace_hex);
    write_file(fx->syms, trace_syms);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    char cmd[160];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
    assert_int_equal(system(cmd), 0);
    free(fx->text);
    free(fx);
    return 0;
}

/* Run a subcommand with its stderr going to fx->err. */
static int run(struct fixture *fx, int (*cmd)(int, char **), ...)
{
    char *argv[32];
    int argc = 0, saved, fd, rc;
    va_list ap;

    va_start(ap, cmd);
    while ((argv[argc] = va_arg(ap, char *)) != NULL)
        argc++;
    va_end(ap);
    fflush(stderr);
    saved = dup(2);
    fd = open(fx->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    rc = cmd(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    free(fx->text);
    fx->text = read_file(fx->err);
    return rc;
}

static void test_convert_original_to_folded(void **state)
{
    struct fixture *fx = *state;
    char *out;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->elf, "-f", "folded", "-o",
                         fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected_folded);
    free(out);
    /* The format from the extension; the symbolised trace gives the same. */
    strcat(fx->out, ".collapsed");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--elf", fx->elf, "-o", fx->out,
                         fx->syms, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected_folded);
    free(out);
    /* Symbolised frames need no ELF at all. */
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-o", fx->out, fx->syms, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected_folded);
    free(out);
}

/* Mangled names (C++, Rust legacy with a "[u8; 16]", OCaml) read readable
 * in folded output, with the ';' of the Rust name made ':' as for any name,
 * so the lines read back; --no-demangle keeps them as the ELF spells them. */
#define RUST_FMT "_ZN4core5array71_$LT$impl$u20$core..fmt..Debug$u20$for$u20$$u5b$u8$u3b$" \
    "$u20$16$u5d$$GT$3fmt17h0123456789abcdefE"
static void test_convert_demangles(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "_ZN3app4mainEv", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { RUST_FMT, 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "camlStdlib__$2a$2a_123", 0x1080, 0x20, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct fixture *fx = *state;
    bool cxx = xu_demangle_have_libiberty();
    const char *m = cxx ? "app::main()" : "_ZN3app4mainEv";
    const char *w = cxx ? "core::array::<impl core::fmt::Debug for [u8: 16]>::fmt" : RUST_FMT;
    char elf[160], back[160], want[1024];
    char *out;

    snprintf(elf, sizeof(elf), "%s/mangled.elf", fx->dir);
    snprintf(back, sizeof(back), "%s/back.folded", fx->dir);
    assert_int_equal(mkelf_write(elf, 0x1000, 0x100, syms, 3, 0), 0);

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", elf, "-f", "folded", "-o",
                         fx->out, fx->trace, NULL), 0);
    snprintf(want, sizeof(want), "[incomplete];%s;Stdlib.** 1\n%s;%s 2\n%s;%s;Stdlib.** 2\n",
             w, m, w, m, w);
    out = read_file(fx->out);
    assert_string_equal(out, want);
    free(out);
    /* names with blanks still read back as the same stacks */
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-i", "folded", "-f", "folded", "-o",
                         back, fx->out, NULL), 0);
    out = read_file(back);
    assert_string_equal(out, want);
    free(out);

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--no-demangle", "-e", elf, "-f",
                         "folded", "-o", fx->out, fx->trace, NULL), 0);
    snprintf(want, sizeof(want), "[incomplete];%s;%s 1\n%s;%s 2\n%s;%s;%s 2\n",
             RUST_FMT, "camlStdlib__$2a$2a_123", "_ZN3app4mainEv", RUST_FMT,
             "_ZN3app4mainEv", RUST_FMT, "camlStdlib__$2a$2a_123");
    out = read_file(fx->out);
    assert_string_equal(out, want);
    free(out);
}

/* --lines and --no-inline reach the symboliser: against an ELF without
 * DWARF, --lines says why there are no lines and changes nothing; against
 * the -O2 -g fixture of test_inline, a frame gets its line (with libdw). */
static void test_convert_lines(void **state)
{
    struct fixture *fx = *state;
    const struct xu_symbol *callee;
    struct xu_symtab *st;
    char trace[512], want[64], *out;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--lines", "--no-inline", "-e", fx->elf,
                         "-f", "folded", "-o", fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected_folded);
    free(out);
    out = read_file(fx->err);
    assert_non_null(strstr(out, "--lines: "));
    free(out);

    assert_int_equal(xu_symtab_open(XU_TEST_INLINE_FIXTURE, NULL, &st), 0);
    callee = xu_symtab_find(st, "fx_callee");
    assert_non_null(callee);
    snprintf(trace, sizeof(trace), "%s0x%llx\n1\n\n", "#unikernel stack tracer\n#x\n\n",
             (unsigned long long)callee->start);
    xu_symtab_free(st);
    write_file(fx->trace, trace);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--lines", "-e",
                         XU_TEST_INLINE_FIXTURE, "-f", "folded", "-o", fx->out, fx->trace,
                         NULL), 0);
    out = read_file(fx->out);
    if (xu_symbolizer_dwarf_supported())
        snprintf(want, sizeof(want), "fx_callee:%d 1\n", FX_LINE_CALLEE);
    else
        snprintf(want, sizeof(want), "fx_callee 1\n");
    assert_string_equal(out, want);
    free(out);
}

static void test_convert_report(void **state)
{
    struct fixture *fx = *state;
    static const char expected[] =
        "xen-uniprof report\n"
        "Samples: 5 in 4 distinct stacks, 1 incomplete walks (20.00%)\n"
        "\n"
        "Top functions by self samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        3  60.00%         3  60.00%  leaf\n"
        "        2  40.00%         5 100.00%  work\n"
        "\n"
        "Top functions by total samples\n"
        "     Self   Self%     Total  Total%  Function\n"
        "        2  40.00%         5 100.00%  work\n"
        "        0   0.00%         4  80.00%  main\n"
        "        3  60.00%         3  60.00%  leaf\n";
    char *out;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->elf, "-f", "report", "-o",
                         fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected);
    free(out);
}

/* Without an ELF the addresses stay addresses, and the raw writer gives
 * back the trace it read (one block per sample, same terminators). */
static void test_convert_raw_roundtrip(void **state)
{
    struct fixture *fx = *state;
    char *out;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "folded", "-o", fx->out,
                         fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, "0x1010;0x1044 1\n"
                             "0x1010;0x1050;0x1084 2\n"
                             "0x1040;0x1040 1\n"
                             "[incomplete];0x1041;0x1090 1\n");
    free(out);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "raw", "-o", fx->out,
                         fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_non_null(strstr(out, "#tracing domid 4 on "));
    /* the trace read is format 1: its samples come back as vCPU 0, state
     * unknown, no CPU time */
#define U "#[unknown]+vcpu=0,cpu_ns=0\n"
    assert_non_null(strstr(out, "\n\n0x1084\n0x1050\n0x1010\n" U "1\n\n0x1084\n0x1050\n0x1010\n"
                                U "1\n\n0x1090\n0x1041\n" U "0\n\n0x1044\n0x1010\n" U "1\n\n"
                                "0x1040\n0x1040\n" U "1\n\n"));
#undef U
    free(out);
}

/* A trace of format 2 through the views, as recording would show them. */
static void test_convert_views(void **state)
{
    struct fixture *fx = *state;
    char *out;

    /* format 1 knows no states: the on-CPU view keeps nothing, and says why */
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "folded", "--state=oncpu",
                         "-o", fx->out, fx->trace, NULL), 0);
    assert_non_null(strstr(fx->text, "--state=oncpu leaves nothing of 5 samples: no sample's "
                                     "vCPU state is known"));
    write_file(fx->trace,
               "#unikernel stack tracer using xencall hypercall interface "
               "(xen-uniprof raw format 2)\n"
               "#tracing domid 4 on 2026-11-23 12:00:00 UTC (+0000)\n\n"
               "0x1084\n0x1050\n0x1010\n#[running]+vcpu=0,cpu_ns=2500\n1\n\n"
               "0x1084\n0x1050\n0x1010\n#[running]+vcpu=0,cpu_ns=1500\n1\n\n"
               "0x1044\n0x1010\n#[blocked]+vcpu=1,cpu_ns=400\n1\n\n"
               "0x1044\n0x1010\n#[runnable]+vcpu=1,cpu_ns=700\n1\n\n");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->elf, "-f", "folded",
                         "--state=split", "-o", fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, "[blocked];main;work 1\n[runnable];main;work 1\n"
                             "[running];main;work;leaf 2\n");
    free(out);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->elf, "-f", "folded",
                         "--weight=cpu", "--state=offcpu", "-o", fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    /* 400 + 700 ns: one stack of 1100 ns, whole microseconds */
    assert_string_equal(out, "main;work 1\n");
    free(out);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "folded", "--weight=cpu",
                         "--state=oncpu", "-o", fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, "0x1010;0x1050;0x1084 4\n");
    free(out);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--state=asleep", "-o", fx->out,
                         fx->trace, NULL), XU_EXIT_USAGE);
}

static void test_convert_folded_input(void **state)
{
    struct fixture *fx = *state;
    char *out;

    write_file(fx->folded, "main;work;leaf 2\n[incomplete];work;leaf 1\nmain;work 2\n");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-i", "folded", "-f", "folded", "-o",
                         fx->out, fx->folded, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expected_folded);
    free(out);
    /* Any format from folded input: speedscope, with the names. */
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "speedscope", "-o", fx->out,
                         fx->folded, NULL), 0);
    out = read_file(fx->out);
    assert_non_null(strstr(out, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));
    assert_non_null(strstr(out, "{\"name\":\"leaf\"}"));
    assert_non_null(strstr(out, "\"weights\":[2,1,2]"));
    free(out);
}

static void test_convert_usage_errors(void **state)
{
    struct fixture *fx = *state;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--bogus", fx->trace, NULL),
                     XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "'--bogus'"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", fx->trace, "-e", NULL), XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "'-e' needs an argument"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--width", "12x", fx->trace, NULL),
                     XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "--width: '12x'"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "jpeg", fx->trace, NULL),
                     XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "--format: unknown format 'jpeg'"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-o", "x.unknown", fx->trace, NULL),
                     XU_EXIT_USAGE);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", NULL), XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "no INPUT"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "--palette=rainbow", fx->trace, NULL),
                     XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "--palette: 'rainbow'"));
    assert_int_equal(run(fx, xu_cmd_diff, "diff", fx->trace, NULL), XU_EXIT_USAGE);
    assert_non_null(strstr(fx->text, "BEFORE and AFTER"));
    assert_int_equal(run(fx, xu_cmd_diff, "diff", "-f", "pprof", fx->trace, fx->trace, NULL),
                     XU_EXIT_USAGE);
}

static void test_convert_failures(void **state)
{
    struct fixture *fx = *state;

    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->stripped, "-f", "svg", "-o",
                         fx->out, fx->trace, NULL), XU_EXIT_SYMBOLS);
    assert_non_null(strstr(fx->text, "stripped"));
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-e", fx->trace, "-f", "svg", "-o",
                         fx->out, fx->trace, NULL), XU_EXIT_SYMBOLS);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "svg", "-o", fx->out,
                         "/nonexistent/trace", NULL), XU_EXIT_FAILURE);
    write_file(fx->folded, "#unikernel stack tracer\n#tracing domid 1 on x\n\n");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "svg", "-o", fx->out, fx->folded,
                         NULL), XU_EXIT_FAILURE);
    assert_non_null(strstr(fx->text, "no samples"));
}

/* Inputs that would make absurd or wrapped output: an error, exit 1, and
 * no output file (not even a temporary one). */
static void test_convert_refuses_absurd_counts(void **state)
{
    struct fixture *fx = *state;
    char *text = malloc(65537 * 24 + 1);
    size_t i, len = 0;
    struct stat sb;

    write_file(fx->folded, "a;b 9999999999999\n");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "raw", "-o", fx->out, fx->folded,
                         NULL), XU_EXIT_FAILURE);
    assert_non_null(strstr(fx->text, "64 GiB"));
    assert_int_equal(stat(fx->out, &sb), -1);
    /* 65537 lines of 2^48: the sum would pass 2^64 / 65536 */
    assert_non_null(text);
    for (i = 0; i < 65537; i++)
        len += (size_t)sprintf(text + len, "a;b 281474976710656\n");
    write_file(fx->folded, text);
    free(text);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-f", "report", "-o", fx->out,
                         fx->folded, NULL), XU_EXIT_FAILURE);
    assert_non_null(strstr(fx->text, "samples in all"));
    assert_int_equal(stat(fx->out, &sb), -1);
    assert_int_equal(run(fx, xu_cmd_diff, "diff", "-o", fx->out, fx->folded, fx->folded,
                         NULL), XU_EXIT_FAILURE);
    assert_int_equal(stat(fx->out, &sb), -1);
    /* bytes that are no trace */
    write_file(fx->folded, "\x7f" "ELF\x02\x01\x01 not a trace\n\x01\x02\x03\n");
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-i", "raw", "-f", "folded", "-o",
                         fx->out, fx->folded, NULL), XU_EXIT_FAILURE);
    assert_non_null(strstr(fx->text, "not a raw trace"));
    assert_int_equal(stat(fx->out, &sb), -1);
}

/*
 * A prefix-free trace: every frame drawn on its own from PF_FUNCS
 * functions (seeded), so that stacks share nothing but by chance, with
 * return addresses at a function's first byte (pc - 1 is the function
 * before), unresolved frames (beyond the ELF, named by their own pc),
 * samples repeated (merged) and stacks of every depth (a line that is a
 * prefix of another).  The expected folded text is computed here from the
 * addresses alone: name each frame, join, sort the lines with strcmp,
 * merge equal ones.
 */
#define PF_FUNCS 300
#define PF_BASE 0x100000ULL
#define PF_SIZE 0x40
#define PF_SAMPLES 4000
#define PF_DEPTH 12
#define PF_LINE (PF_DEPTH * 20)

static uint64_t pf_rng = 0x2545f4914f6cdd1dULL;

static uint64_t pf_next(void)
{
    pf_rng ^= pf_rng << 13;
    pf_rng ^= pf_rng >> 7;
    pf_rng ^= pf_rng << 17;
    return pf_rng;
}

/* Frame k (0 innermost): a function's byte, or an address beyond the ELF. */
static uint64_t pf_frame(uint32_t k)
{
    uint64_t fn = pf_next() % PF_FUNCS;

    if (pf_next() % 50 == 0)
        return PF_BASE + PF_FUNCS * PF_SIZE + 0x100 + pf_next() % 0x1000;
    /* the innermost PC is exact: never a function's first byte here, so
     * that a caller at offset 0 is the only frame whose function is the
     * one before */
    return PF_BASE + fn * PF_SIZE + (k == 0 ? 1 + pf_next() % (PF_SIZE - 1)
                                           : pf_next() % PF_SIZE);
}

/* The folded name of a frame: its function, looked up at pc - 1 for a
 * return address; its own pc in hex when no function holds that. */
static void pf_name(char *buf, size_t size, uint64_t pc, uint32_t k)
{
    uint64_t at = k == 0 ? pc : pc - 1;

    if (at >= PF_BASE && at < PF_BASE + PF_FUNCS * PF_SIZE)
        snprintf(buf, size, "fn_%03u", (unsigned int)((at - PF_BASE) / PF_SIZE));
    else
        snprintf(buf, size, "0x%llx", (unsigned long long)pc);
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The trace written to path, and the folded text it must convert to. */
static char *pf_trace(const char *path)
{
    static uint64_t stacks[PF_SAMPLES][PF_DEPTH];
    static uint32_t depths[PF_SAMPLES];
    char **lines = calloc(PF_SAMPLES, sizeof(*lines)), name[24];
    char *expect = malloc((size_t)PF_SAMPLES * (PF_LINE + 16)), *e = expect;
    FILE *f = fopen(path, "w");
    uint32_t s, k, j;

    assert_true(lines && expect && f);
    fputs("#unikernel stack tracer using sim hypercall interface\n"
          "#tracing domid 1 on 2026-11-22 00:00:00 UTC (+0000)\n\n", f);
    for (s = 0; s < PF_SAMPLES; s++) {
        if (s % 5 == 4) {       /* a stack met before, to be merged */
            memcpy(stacks[s], stacks[s / 2], sizeof(stacks[s]));
            depths[s] = depths[s / 2];
        } else {
            depths[s] = 1 + (uint32_t)(pf_next() % PF_DEPTH);
            for (k = 0; k < depths[s]; k++)
                stacks[s][k] = pf_frame(k);
        }
        lines[s] = malloc(PF_LINE);
        assert_non_null(lines[s]);
        lines[s][0] = '\0';
        for (k = 0; k < depths[s]; k++)     /* innermost first */
            fprintf(f, "0x%llx\n", (unsigned long long)stacks[s][k]);
        /* root first: the outermost frame is the last one written */
        for (k = depths[s]; k-- > 0;) {
            pf_name(name, sizeof(name), stacks[s][k], k);
            if (k + 1 < depths[s])
                strcat(lines[s], ";");
            strcat(lines[s], name);
        }
        fputs("1\n\n", f);
    }
    assert_int_equal(fclose(f), 0);
    qsort(lines, PF_SAMPLES, sizeof(*lines), cmp_line);
    for (s = 0; s < PF_SAMPLES; s = j) {
        for (j = s + 1; j < PF_SAMPLES && strcmp(lines[j], lines[s]) == 0; j++)
            ;
        e += sprintf(e, "%s %u\n", lines[s], j - s);
    }
    for (s = 0; s < PF_SAMPLES; s++)
        free(lines[s]);
    free(lines);
    return expect;
}

static void test_convert_prefix_free(void **state)
{
    static struct mkelf_sym syms[PF_FUNCS];
    static char names[PF_FUNCS][8];
    struct fixture *fx = *state;
    char *expect, *out;
    unsigned int i;

    for (i = 0; i < PF_FUNCS; i++) {
        snprintf(names[i], sizeof(names[i]), "fn_%03u", i);
        syms[i] = (struct mkelf_sym){ names[i], PF_BASE + i * PF_SIZE, PF_SIZE, STT_FUNC,
                                      STB_GLOBAL, 0 };
    }
    assert_int_equal(mkelf_write(fx->elf, PF_BASE, PF_FUNCS * PF_SIZE, syms, PF_FUNCS, 0), 0);
    expect = pf_trace(fx->trace);
    assert_int_equal(run(fx, xu_cmd_convert, "convert", "-q", "-e", fx->elf, "-f", "folded",
                         "-o", fx->out, fx->trace, NULL), 0);
    out = read_file(fx->out);
    assert_string_equal(out, expect);
    free(out);
    free(expect);
}

static void test_diff(void **state)
{
    struct fixture *fx = *state;
    char before[160], out[160];
    char *svg;

    snprintf(before, sizeof(before), "%s/before.folded", fx->dir);
    snprintf(out, sizeof(out), "%s/diff.svg", fx->dir);
    write_file(before, "main;work;leaf 50\nmain;work 150\n");
    assert_int_equal(run(fx, xu_cmd_diff, "diff", before, fx->trace, "-e", fx->elf, "-o", out,
                         NULL), 0);
    svg = read_file(out);
    assert_non_null(strstr(svg, ">Differential Flame Graph</text>"));
    /* main;work;leaf: 25% of BEFORE, 40% of AFTER (2 of 5): grew, red;
     * under [incomplete] it is new. */
    assert_non_null(strstr(svg, "<title>leaf (1 sample, 20.00%; before 0, 0.00%; "
                                "+20.00%)</title>"));
    assert_non_null(strstr(svg, "<title>leaf (2 samples, 40.00%; before 50, 25.00%; "
                                "+15.00%)</title><rect "));
    assert_non_null(strstr(svg, "fill=\"rgb(255,"));
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_convert_original_to_folded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_demangles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_raw_roundtrip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_folded_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_failures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_refuses_absurd_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_diff, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convert_prefix_free, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
