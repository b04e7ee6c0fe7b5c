/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output.c - the exact text of the raw and folded writers, the format
 * table, and writing a file atomically (or to stdout).
 *
 * Profiles are built by hand with xu_profile_add; symbols come from an ELF
 * written by mkelf:
 *     main [0x1000, 0x1040)   work [0x1040, 0x1080)   leaf [0x1080, 0x10a0)
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "output_text.h"
#include "util/xu_atomic_file.h"
#include "output/xu_output.h"
#include "profile/xu_profile.h"
#include "profile/xu_tasks.h"
#include "symbols/xu_symbols.h"

struct fixture {
    char dir[64];
    char elf[128];
    char out[128];
    struct xu_profile *p;
    struct xu_symtab *st;
    struct xu_symbolizer *sz;
    struct xu_output_meta meta;
    struct xu_output_options opts;
    struct xu_output_ctx ctx;
    char last_msg[1024];
    struct xu_log log;
};

static void capture(void *c, enum xu_log_level level, const char *msg)
{
    struct fixture *fx = c;

    snprintf(fx->last_msg, sizeof(fx->last_msg), "%s", msg);
}

static void add(struct fixture *fx, uint32_t vcpu, enum xu_walk_end end, uint64_t count,
                uint32_t depth, const uint64_t *pcs)
{
    assert_int_equal(xu_profile_add(fx->p, vcpu, pcs, depth, end, count), 0);
}

/* The profile most tests write; see the expected texts below. */
static void add_standard_stacks(struct fixture *fx)
{
    static const uint64_t s1[] = { 0x1085, 0x1050, 0x1010 };   /* leaf <- work <- main */
    static const uint64_t s2[] = { 0x1090, 0x1060, 0x1020 };   /* same functions */
    static const uint64_t s3[] = { 0x1081, 0x1045 };           /* broken chain */
    static const uint64_t s4[] = { 0x5000, 0x1040 };   /* returns to work's first byte:
                                                        * the call was in main */
    static const uint64_t s5[] = { 0x1085, 0x7001 };   /* unresolved caller */

    add(fx, 0, XU_WALK_COMPLETE, 3, 3, s1);
    add(fx, 1, XU_WALK_COMPLETE, 2, 3, s2);
    add(fx, 0, XU_WALK_BAD_FRAME, 1, 2, s3);
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, s4);
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, s5);
    add(fx, 10, XU_WALK_COMPLETE, 1, 3, s1);
}

/* Resolve the profile's addresses, as the CLI does after sampling. */
static void symbolize(struct fixture *fx)
{
    uint64_t *addrs = NULL;
    long n = xu_profile_unique_addrs(fx->p, &addrs);

    assert_true(n >= 0);
    xu_symbolizer_free(fx->sz);
    fx->sz = xu_symbolizer_new(fx->st, addrs, (size_t)n);
    assert_non_null(fx->sz);
    fx->ctx.syms = fx->sz;
    free(addrs);
}

static int setup(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "leaf", 0x1080, 0x20, STT_FUNC, STB_LOCAL, 0 },
    };
    struct fixture *fx = calloc(1, sizeof(*fx));
    const char *tmp = getenv("TMPDIR");

    if (!fx)
        return -1;
    snprintf(fx->dir, sizeof(fx->dir), "%s/test_output.XXXXXX",
             tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(fx->dir))
        return -1;
    snprintf(fx->elf, sizeof(fx->elf), "%s/guest.elf", fx->dir);
    snprintf(fx->out, sizeof(fx->out), "%s/profile.out", fx->dir);
    if (mkelf_write(fx->elf, 0x1000, 0x1000, syms, 3, 0) < 0 ||
        xu_symtab_open(fx->elf, NULL, &fx->st) < 0)
        return -1;
    unlink(fx->elf);
    fx->p = xu_profile_new(0);
    if (!fx->p)
        return -1;
    fx->log.emit = capture;
    fx->log.ctx = fx;
    fx->log.min_level = XU_LOG_DEBUG;
    fx->meta.domid = 7;
    fx->meta.backend = "xencall";
    fx->meta.start_time = 1700000000;          /* 2023-11-14 22:13:20 UTC */
    fx->ctx.profile = fx->p;
    fx->ctx.meta = &fx->meta;
    fx->ctx.opts = &fx->opts;
    fx->ctx.log = &fx->log;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    unlink(fx->out);
    rmdir(fx->dir);
    xu_symbolizer_free(fx->sz);
    xu_symtab_free(fx->st);
    xu_profile_free(fx->p);
    free(fx);
    return 0;
}

static int group_setup(void **state)
{
    /* the raw header prints local time */
    setenv("TZ", "UTC", 1);
    tzset();
    return 0;
}

/* What ops writes for ctx, as a malloc'ed string. */
static char *render(const struct xu_output_ops *ops, const struct xu_output_ctx *ctx)
{
    return output_text(ops, ctx, NULL);
}

static void assert_renders(const struct xu_output_ops *ops, const struct xu_output_ctx *ctx,
                           const char *want)
{
    char *got = render(ops, ctx);

    assert_string_equal(got, want);
    free(got);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    size_t n;

    assert_non_null(f);
    buf = calloc(1, 65536);
    assert_non_null(buf);
    n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------------- raw */

static void test_raw_exact(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t a[] = { 0xffffffff81001005ULL, 0xffffffff81000033ULL, 0x1100 };
    static const uint64_t b[] = { 0x2000 };
    static const uint64_t c[] = { 0x3000, 0x3100 };

    add(fx, 0, XU_WALK_COMPLETE, 2, 3, a);
    add(fx, 1, XU_WALK_UNMAPPED, 1, 1, b);
    add(fx, 0, XU_WALK_DEPTH, 1, 2, c);
    symbolize(fx);                      /* raw stays unsymbolised anyway */
    assert_renders(&xu_output_raw, &fx->ctx,
        "#unikernel stack tracer using xencall hypercall interface (xen-uniprof raw format 2)\n"
        "#tracing domid 7 on 2023-11-14 22:13:20 UTC (+0000)\n"
        "\n"
        "0xffffffff81001005\n"
        "0xffffffff81000033\n"
        "0x1100\n"
        "#[unknown]+vcpu=0,cpu_ns=0\n"
        "1\n"
        "\n"
        "0xffffffff81001005\n"
        "0xffffffff81000033\n"
        "0x1100\n"
        "#[unknown]+vcpu=0,cpu_ns=0\n"
        "1\n"
        "\n"
        "0x2000\n"
        "#[unknown]+vcpu=1,cpu_ns=0\n"
        "0\n"
        "\n"
        "0x3000\n"
        "0x3100\n"
        "#[unknown]+vcpu=0,cpu_ns=0\n"
        "0\n"
        "\n");
}

static void test_raw_offline_and_empty(void **state)
{
    struct fixture *fx = *state;

    fx->meta.backend = NULL;
    fx->meta.domid = 0;
    assert_renders(&xu_output_raw, &fx->ctx,
        "#unikernel stack tracer using no hypercall interface (xen-uniprof raw format 2)\n"
        "#tracing domid 0 on 2023-11-14 22:13:20 UTC (+0000)\n"
        "\n");
}

static void test_raw_with_names(void **state)
{
    struct fixture *fx = *state;
    /* names a reader would not take back as the same frame: a line break,
     * a terminator ("0"), a count, a comment, blanks, control characters */
    static const char *const names[] = { "do_work", "main", "bad\nname", "0", "42",
                                         "#x", " pad ", "tab\there", "" };
    static const struct xu_frame_names fn = { names, 9 };
    static const uint64_t a[] = { 0, 1 };
    static const uint64_t b[] = { 2, 9 };
    static const uint64_t c[] = { 3, 4, 5, 6, 7, 8 };

    add(fx, 0, XU_WALK_COMPLETE, 1, 2, a);
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, b);
    add(fx, 0, XU_WALK_COMPLETE, 1, 6, c);
    fx->ctx.names = &fn;
    assert_renders(&xu_output_raw, &fx->ctx,
        "#unikernel stack tracer using xencall hypercall interface (xen-uniprof raw format 2)\n"
        "#tracing domid 7 on 2023-11-14 22:13:20 UTC (+0000)\n"
        "\n"
        "do_work\nmain\n#[unknown]+vcpu=0,cpu_ns=0\n1\n\n"
        "bad?name\n0x9\n#[unknown]+vcpu=0,cpu_ns=0\n1\n\n"
        "0+0x0\n42+0x0\n?x\n?pad?\ntab?here\n?\n#[unknown]+vcpu=0,cpu_ns=0\n1\n\n");
}

/* A Linux guest's pseudo-frames by name (the task table is not in the
 * trace): "[task] comm/pid" with the guest's comm made safe, [user]. */
static void test_raw_tasks(void **state)
{
    struct fixture *fx = *state;
    struct xu_tasks *tasks = malloc(sizeof(*tasks));
    char comm[XU_TASK_COMM] = "0";
    uint64_t a[2], b[2];

    assert_non_null(tasks);
    xu_tasks_init(tasks);
    a[0] = 0x1085;
    a[1] = xu_pc_task(xu_tasks_intern(tasks, 42, "busy\0\0\0\0\0\0\0\0\0\0\0\0"));
    b[0] = XU_PC_USER;
    b[1] = xu_pc_task(xu_tasks_intern(tasks, 7, comm));
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, a);
    add(fx, 1, XU_WALK_COMPLETE, 1, 2, b);
    fx->ctx.tasks = tasks;
    assert_renders(&xu_output_raw, &fx->ctx,
        "#unikernel stack tracer using xencall hypercall interface (xen-uniprof raw format 2)\n"
        "#tracing domid 7 on 2023-11-14 22:13:20 UTC (+0000)\n"
        "\n"
        "0x1085\n[task] busy/42\n#[unknown]+vcpu=0,cpu_ns=0\n1\n\n"
        "[user]\n[task] 0/7\n#[unknown]+vcpu=1,cpu_ns=0\n1\n\n");
    fx->ctx.tasks = NULL;
    free(tasks);
}

/* ---------------------------------------------------------------- folded */

static void test_folded_exact(void **state)
{
    struct fixture *fx = *state;

    add_standard_stacks(fx);
    symbolize(fx);
    /* s1, s2 and the vcpu10 copy fold to the same names: 3 + 2 + 1 */
    assert_renders(&xu_output_folded, &fx->ctx,
        "0x7001;leaf 1\n"
        "[incomplete];work;leaf 1\n"
        "main;0x5000 1\n"
        "main;work;leaf 6\n");
}

static void test_folded_per_vcpu(void **state)
{
    struct fixture *fx = *state;

    add_standard_stacks(fx);
    symbolize(fx);
    fx->opts.per_vcpu = true;
    /* bytewise: "vcpu10" sorts before "vcpu1;" */
    assert_renders(&xu_output_folded, &fx->ctx,
        "vcpu0;0x7001;leaf 1\n"
        "vcpu0;[incomplete];work;leaf 1\n"
        "vcpu0;main;0x5000 1\n"
        "vcpu0;main;work;leaf 3\n"
        "vcpu10;main;work;leaf 1\n"
        "vcpu1;main;work;leaf 2\n");
}

static void test_folded_unsymbolised(void **state)
{
    struct fixture *fx = *state;

    add_standard_stacks(fx);
    fx->ctx.syms = NULL;
    /* every frame is its own PC; s1 and s2 now differ */
    assert_renders(&xu_output_folded, &fx->ctx,
        "0x1010;0x1050;0x1085 4\n"
        "0x1020;0x1060;0x1090 2\n"
        "0x1040;0x5000 1\n"
        "0x7001;0x1085 1\n"
        "[incomplete];0x1045;0x1081 1\n");
}

static void test_folded_deterministic(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t s5[] = { 0x1085, 0x7001 };
    static const uint64_t s1[] = { 0x1085, 0x1050, 0x1010 };
    char *first, *second;

    add_standard_stacks(fx);
    symbolize(fx);
    first = render(&xu_output_folded, &fx->ctx);

    /* the same samples inserted in another order */
    xu_profile_free(fx->p);
    fx->p = xu_profile_new(0);
    assert_non_null(fx->p);
    fx->ctx.profile = fx->p;
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, s5);
    add(fx, 10, XU_WALK_COMPLETE, 1, 3, s1);
    add_standard_stacks(fx);
    add(fx, 0, XU_WALK_COMPLETE, 0, 2, s5);    /* adds nothing */
    symbolize(fx);
    second = render(&xu_output_folded, &fx->ctx);
    assert_string_equal(second,
        "0x7001;leaf 2\n"
        "[incomplete];work;leaf 1\n"
        "main;0x5000 1\n"
        "main;work;leaf 7\n");
    assert_string_not_equal(first, second);
    free(first);
    free(second);
}

static void test_folded_names_sanitised(void **state)
{
    struct fixture *fx = *state;
    static const char *const names[] = { "a;b", "line\nbreak", "ok" };
    static const struct xu_frame_names fn = { names, 3 };
    static const uint64_t a[] = { 0, 1, 2 };
    static const uint64_t b[] = { 2, 42 };

    add(fx, 0, XU_WALK_COMPLETE, 2, 3, a);
    add(fx, 0, XU_WALK_COMPLETE, 1, 2, b);
    fx->ctx.names = &fn;
    assert_renders(&xu_output_folded, &fx->ctx,
        "0x2a;ok 1\n"
        "ok;line?break;a:b 2\n");
}

static void test_frame_name(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t s[] = { 0x1080, 0x1080, 0x9999 };
    const struct xu_stack *st;
    char buf[19];

    add(fx, 0, XU_WALK_COMPLETE, 1, 3, s);
    symbolize(fx);
    st = xu_profile_stack(fx->p, 0);
    /* the IP is looked up as is, a return address one byte earlier */
    assert_string_equal(xu_output_frame_name(&fx->ctx, st, 0, buf), "leaf");
    assert_string_equal(xu_output_frame_name(&fx->ctx, st, 1, buf), "work");
    assert_string_equal(xu_output_frame_name(&fx->ctx, st, 2, buf), "0x9999");
    assert_ptr_equal(xu_output_frame_name(&fx->ctx, st, 2, buf), buf);
}

/* ---------------------------------------------------------------- format table */

static void test_format_table(void **state)
{
    size_t i;
    bool raw = false, folded = false;

    for (i = 0; xu_output_formats[i]; i++) {
        const struct xu_output_ops *o = xu_output_formats[i];

        assert_non_null(o->name);
        assert_non_null(o->extensions);
        assert_non_null(o->description);
        assert_non_null(o->write);
        assert_ptr_equal(xu_output_find(o->name), o);
        raw |= o == &xu_output_raw;
        folded |= o == &xu_output_folded;
    }
    assert_true(raw && folded);
    assert_ptr_equal(xu_output_find("raw"), &xu_output_raw);
    assert_ptr_equal(xu_output_find("folded"), &xu_output_folded);
    assert_null(xu_output_find("nope"));
    assert_null(xu_output_find(""));

    assert_ptr_equal(xu_output_for_path("out.folded"), &xu_output_folded);
    assert_ptr_equal(xu_output_for_path("/tmp/x.collapsed"), &xu_output_folded);
    assert_ptr_equal(xu_output_for_path("DIR/P.FOLDED"), &xu_output_folded);
    assert_ptr_equal(xu_output_for_path("trace.raw"), &xu_output_raw);
    assert_ptr_equal(xu_output_for_path("trace.uniprof"), &xu_output_raw);
    assert_null(xu_output_for_path("noext"));
    assert_null(xu_output_for_path(".folded"));             /* a hidden file */
    assert_null(xu_output_for_path("dir/.folded"));
    assert_null(xu_output_for_path("dir.folded/profile"));
    assert_null(xu_output_for_path("profile.folded.bak"));
    assert_null(xu_output_for_path("-"));
}

/* ---------------------------------------------------------------- writing */

static int failing_write(FILE *f, const struct xu_output_ctx *ctx)
{
    fputs("half a profi", f);
    fflush(f);
    return -EIO;
}

static const struct xu_output_ops failing_ops = {
    .name = "failing", .extensions = "", .description = "", .write = failing_write,
};

/* Names in dir other than keep. */
static int strays(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, keep))
            n++;
    closedir(d);
    return n;
}

static void test_write_file_atomic(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t s[] = { 0x1085, 0x1050, 0x1010 };
    struct stat sb;
    char *text;
    FILE *f;

    add(fx, 0, XU_WALK_COMPLETE, 4, 3, s);
    symbolize(fx);

    /* an existing file with its own mode */
    f = fopen(fx->out, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    assert_int_equal(chmod(fx->out, 0640), 0);

    /* a writer failing midway leaves it as it was, and no temp file */
    assert_int_equal(xu_output_write_path(&failing_ops, fx->out, &fx->ctx), -EIO);
    text = slurp(fx->out);
    assert_string_equal(text, "old\n");
    free(text);
    assert_int_equal(strays(fx->dir, "profile.out"), 0);
    assert_non_null(strstr(fx->last_msg, "unchanged"));

    /* success replaces it whole and keeps its permission bits */
    assert_int_equal(xu_output_write_path(&xu_output_folded, fx->out, &fx->ctx), 0);
    text = slurp(fx->out);
    assert_string_equal(text, "main;work;leaf 4\n");
    free(text);
    assert_int_equal(stat(fx->out, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    assert_int_equal(strays(fx->dir, "profile.out"), 0);
}

static void test_write_new_file_mode(void **state)
{
    struct fixture *fx = *state;
    mode_t old = umask(027);
    struct stat sb;

    assert_int_equal(xu_output_write_path(&xu_output_folded, fx->out, &fx->ctx), 0);
    umask(old);
    assert_int_equal(stat(fx->out, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0644 & ~027);
    assert_int_equal(sb.st_size, 0);            /* an empty profile: no lines */
}

static void test_write_bad_directory(void **state)
{
    struct fixture *fx = *state;
    char path[192];

    snprintf(path, sizeof(path), "%s/missing/profile.folded", fx->dir);
    assert_int_equal(xu_output_write_path(&xu_output_folded, path, &fx->ctx), -ENOENT);
    assert_non_null(strstr(fx->last_msg, path));
    snprintf(path, sizeof(path), "%s/", fx->dir);
    assert_int_equal(xu_output_write_path(&xu_output_folded, path, &fx->ctx), -EISDIR);
}

static void test_atomic_abort(void **state)
{
    struct fixture *fx = *state;
    struct xu_atomic_file *af = xu_atomic_open(fx->out);

    assert_non_null(af);
    assert_non_null(strstr(af->tmp_path, "/.profile.out."));
    fputs("never seen", af->f);
    assert_int_equal(access(af->tmp_path, F_OK), 0);
    assert_int_equal(access(fx->out, F_OK), -1);
    xu_atomic_abort(af);
    assert_int_equal(strays(fx->dir, ""), 0);
}

/* A full disk is reported as such: ENOSPC, not the EIO of a failed fprintf. */
static void test_atomic_full_disk(void **state)
{
    struct fixture *fx = *state;
    struct xu_atomic_file *af;
    int i;

    add_standard_stacks(fx);
    if (access("/dev/full", W_OK) != 0)
        skip();
    assert_int_equal(xu_output_write_path(&xu_output_raw, "/dev/full", &fx->ctx), -ENOSPC);
    af = xu_atomic_open("/dev/full");
    assert_non_null(af);
    for (i = 0; i < 10000; i++)
        fputs("a line that will not fit\n", af->f);
    assert_int_equal(xu_atomic_commit(af), -ENOSPC);
}

/* Killed between open and commit: the handlers remove the temporary file,
 * and the process still dies of the signal. */
static void test_atomic_removed_on_signal(void **state)
{
    struct fixture *fx = *state;
    int status;
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0) {
        struct xu_atomic_file *af;

        if (xu_atomic_cleanup_on_signals() < 0)
            _exit(3);
        af = xu_atomic_open(fx->out);
        if (!af || access(af->tmp_path, F_OK) != 0)
            _exit(4);
        fputs("half written", af->f);
        raise(SIGTERM);
        _exit(5);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_int_equal(strays(fx->dir, ""), 0);
    assert_int_equal(access(fx->out, F_OK), -1);
}

/* A profile whose raw form would be absurdly large is refused, unwritten. */
static void test_raw_refuses_huge_counts(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t a[] = { 0x1010, 0x1050 };
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    add(fx, 0, XU_WALK_COMPLETE, 9999999999999ULL, 2, a);
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(xu_output_raw.write(f, &fx->ctx), -EFBIG);
    fclose(f);
    assert_int_equal(len, 0);
    free(buf);
    /* through the path: nothing is left behind */
    assert_int_equal(xu_output_write_path(&xu_output_raw, fx->out, &fx->ctx), -EFBIG);
    assert_int_equal(access(fx->out, F_OK), -1);
    assert_int_equal(strays(fx->dir, ""), 0);
}

/* A link is followed: the file it names is replaced, the link stays. */
static void test_atomic_through_symlink(void **state)
{
    struct fixture *fx = *state;
    struct xu_atomic_file *af;
    char link[160];
    struct stat st;
    char *text;

    snprintf(link, sizeof(link), "%s/link.out", fx->dir);
    af = xu_atomic_open(fx->out);
    assert_non_null(af);
    fputs("old\n", af->f);
    assert_int_equal(xu_atomic_commit(af), 0);
    assert_int_equal(symlink(fx->out, link), 0);

    af = xu_atomic_open(link);
    assert_non_null(af);
    fputs("new\n", af->f);
    assert_int_equal(xu_atomic_commit(af), 0);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    text = slurp(fx->out);
    assert_string_equal(text, "new\n");
    free(text);
    unlink(link);
}

/*
 * A target that is not a regular file is written in place, never renamed
 * over: a FIFO stands in for /dev/null (testing on the real /dev/null would
 * destroy it on the test machine if this ever regressed).
 */
static void test_atomic_fifo_written_in_place(void **state)
{
    struct fixture *fx = *state;
    struct xu_atomic_file *af;
    char fifo[160], got[64] = "";
    struct stat st;
    int pipefd[2], status;
    pid_t child;

    snprintf(fifo, sizeof(fifo), "%s/pipe.out", fx->dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(pipe(pipefd), 0);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* the reader: whatever arrives through the FIFO goes back by pipe */
        char buf[64];
        int fd = open(fifo, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

        _exit(n > 0 && write(pipefd[1], buf, (size_t)n) == n ? 0 : 1);
    }
    close(pipefd[1]);
    af = xu_atomic_open(fifo);
    assert_non_null(af);
    assert_null(af->tmp_path);
    fputs("through the fifo\n", af->f);
    assert_int_equal(xu_atomic_commit(af), 0);
    assert_true(read(pipefd[0], got, sizeof(got) - 1) > 0);
    close(pipefd[0]);
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_string_equal(got, "through the fifo\n");
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    unlink(fifo);
}

/* Run a write to stdout with stdout pointing at path. */
static int write_to_stdout_as(const char *path, const struct xu_output_ops *ops,
                              const struct xu_output_ctx *ctx)
{
    int saved, fd, rc;

    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_true(dup2(fd, STDOUT_FILENO) >= 0);
    close(fd);
    rc = xu_output_write_path(ops, "-", ctx);
    __fpurge(stdout);       /* what a failed flush left must not reach the terminal */
    clearerr(stdout);
    assert_true(dup2(saved, STDOUT_FILENO) >= 0);
    close(saved);
    return rc;
}

static void test_write_stdout(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t s[] = { 0x1085, 0x1050, 0x1010 };
    char *text;

    add(fx, 2, XU_WALK_COMPLETE, 1, 3, s);
    symbolize(fx);
    assert_int_equal(write_to_stdout_as(fx->out, &xu_output_folded, &fx->ctx), 0);
    text = slurp(fx->out);
    assert_string_equal(text, "main;work;leaf 1\n");
    free(text);
    /* "-" is never a file name */
    assert_int_equal(access("-", F_OK), -1);

    /* a full disk is an error, not silence */
    if (access("/dev/full", W_OK) == 0)
        assert_int_equal(write_to_stdout_as("/dev/full", &xu_output_folded, &fx->ctx), -ENOSPC);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_raw_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_offline_and_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_with_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_tasks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_per_vcpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_unsymbolised, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_deterministic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_names_sanitised, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frame_name, setup, teardown),
        cmocka_unit_test(test_format_table),
        cmocka_unit_test_setup_teardown(test_write_file_atomic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_new_file_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_bad_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_abort, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_full_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_removed_on_signal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_refuses_huge_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_through_symlink, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_fifo_written_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_stdout, setup, teardown),
    };

    return cmocka_run_group_tests(tests, group_setup, NULL);
}
