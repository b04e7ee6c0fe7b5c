/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_elf_find.c - finding the symbol ELF (files made by mkelf in a
 * temporary directory, the debug root pointed into it) and comparing an
 * ELF with guest memory (the simulated guest).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "symbols/xu_elf_find.h"
#include "mem/xu_mem.h"
#include "sample/xu_sampler.h"
#include "xu_sim.h"

#define TEXT 0xffffffff80001000ULL
#define TEXT_SIZE 0x3000ULL
#define INIT 0xffffffff80010000ULL

static const struct mkelf_sym syms[] = {
    { "start", TEXT, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    { "work", TEXT + 0x100, 0x200, STT_FUNC, STB_GLOBAL, 0 },
};

struct capture {
    struct xu_log log;
    char last[2048];
    char any[2048];             /* the last message at any level */
    int errors, warnings;
    int stripped_advice;        /* lines, at any level, telling to pass the unstripped ELF */
};

static void capture_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    if (level == XU_LOG_WARN)
        c->warnings++;
    if (level >= XU_LOG_ERROR)
        c->errors++;
    if (level >= XU_LOG_WARN)
        snprintf(c->last, sizeof(c->last), "%s", msg);
    snprintf(c->any, sizeof(c->any), "%s", msg);
    if (strstr(msg, "stripped?"))
        c->stripped_advice++;
}

struct fixture {
    char dir[256];
    char root[300];
    struct capture cap;
};

static char *path_in(struct fixture *f, const char *name)
{
    static char bufs[4][512];
    static int i;
    char *b = bufs[i++ % 4];

    snprintf(b, 512, "%s/%s", f->dir, name);
    return b;
}

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    snprintf(f.dir, sizeof(f.dir), "/tmp/xu-elf-find-XXXXXX");
    assert_non_null(mkdtemp(f.dir));
    snprintf(f.root, sizeof(f.root), "%s/debugroot", f.dir);
    assert_int_equal(mkdir(f.root, 0755), 0);
    f.cap.log.emit = capture_emit;
    f.cap.log.ctx = &f.cap;
    f.cap.log.min_level = XU_LOG_DEBUG;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    char cmd[600];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static void mk(const char *path, unsigned int flags)
{
    assert_int_equal(mkelf_write(path, TEXT, TEXT_SIZE, syms, 2, flags), 0);
}

static void run(const char *cmd)
{
    assert_int_equal(system(cmd), 0);
}

/* Flip one byte of the build-id inside a file made by mkelf. */
static void corrupt_build_id(const char *path)
{
    FILE *fp = fopen(path, "r+b");
    unsigned char buf[65536];
    size_t n, i;

    assert_non_null(fp);
    n = fread(buf, 1, sizeof(buf), fp);
    for (i = 0; i + MKELF_BUILD_ID_LEN <= n; i++)
        if (memcmp(buf + i, mkelf_build_id, MKELF_BUILD_ID_LEN) == 0)
            break;
    assert_true(i + MKELF_BUILD_ID_LEN <= n);
    buf[i] ^= 0xff;
    assert_int_equal(fseek(fp, (long)i, SEEK_SET), 0);
    assert_int_equal(fwrite(buf + i, 1, 1, fp), 1);
    fclose(fp);
}

static int find(struct fixture *f, const char *elf, const char *kernel, struct xu_elf_choice *c)
{
    struct xu_elf_find_config cfg = { .elf = elf, .kernel = kernel, .debug_root = f->root };

    return xu_elf_find(&cfg, &f->cap.log, c);
}

/* ----------------------------------------------------------------- search */

static void test_kernel_with_symbols(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    mk(path_in(f, "vmlinux"), MKELF_BUILD_ID);
    /* a .dbg sibling exists too, but the kernel comes first */
    mk(path_in(f, "vmlinux.dbg"), 0);
    assert_int_equal(find(f, NULL, path_in(f, "vmlinux"), &c), 0);
    assert_string_equal(c.path, path_in(f, "vmlinux"));
    assert_int_equal(c.source, XU_ELF_FROM_KERNEL);
    assert_string_equal(c.reason, "kernel has symbols");
    assert_non_null(c.symtab);
    assert_non_null(xu_symtab_find(c.symtab, "work"));
    xu_elf_choice_dispose(&c);
    assert_null(c.path);
    assert_int_equal(f->cap.errors, 0);
}

static void test_dbg_sibling(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    /* Unikraft: app_xen-x86_64 stripped, app_xen-x86_64.dbg beside it */
    mk(path_in(f, "app_xen-x86_64"), MKELF_STRIPPED);
    mk(path_in(f, "app_xen-x86_64.dbg"), 0);
    assert_int_equal(find(f, NULL, path_in(f, "app_xen-x86_64"), &c), 0);
    assert_string_equal(c.path, path_in(f, "app_xen-x86_64.dbg"));
    assert_int_equal(c.source, XU_ELF_FROM_DBG_SIBLING);
    assert_string_equal(c.reason, ".dbg sibling");
    /* not even at -v: the advice to pass the unstripped ELF, one line
     * before the search finds it */
    assert_int_equal(f->cap.stripped_advice, 0);
    xu_elf_choice_dispose(&c);
}

static void test_dbg_sibling_of_other_build_is_skipped(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    mk(path_in(f, "k"), MKELF_STRIPPED | MKELF_BUILD_ID);
    mk(path_in(f, "k.dbg"), MKELF_BUILD_ID);
    corrupt_build_id(path_in(f, "k.dbg"));
    assert_int_equal(find(f, NULL, path_in(f, "k"), &c), -ENODATA);
    assert_int_equal(f->cap.warnings, 1);
    assert_null(c.path);
}

static void test_build_id_path(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    char dir[400], file[512], hex[2 * MKELF_BUILD_ID_LEN + 1];
    size_t i;

    for (i = 0; i < MKELF_BUILD_ID_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", mkelf_build_id[i]);
    snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", f->root, hex);
    snprintf(file, sizeof(file), "mkdir -p '%s'", dir);
    run(file);
    snprintf(file, sizeof(file), "%s/%s.debug", dir, hex + 2);
    mk(path_in(f, "vmlinuz"), MKELF_STRIPPED | MKELF_BUILD_ID);
    mk(file, MKELF_BUILD_ID);
    assert_int_equal(find(f, NULL, path_in(f, "vmlinuz"), &c), 0);
    assert_string_equal(c.path, file);
    assert_int_equal(c.source, XU_ELF_FROM_BUILD_ID);
    xu_elf_choice_dispose(&c);
}

static void test_debuglink(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    char cmd[2048];

    /* the link's file next to the kernel */
    mk(path_in(f, "kern.debug"), 0);
    mk(path_in(f, "kern"), MKELF_STRIPPED);
    snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --add-gnu-debuglink=kern.debug kern", f->dir);
    run(cmd);
    assert_int_equal(find(f, NULL, path_in(f, "kern"), &c), 0);
    assert_string_equal(c.path, path_in(f, "kern.debug"));
    assert_int_equal(c.source, XU_ELF_FROM_DEBUGLINK);
    assert_string_equal(c.reason, ".gnu_debuglink debug file");
    xu_elf_choice_dispose(&c);

    /* moved into .debug/: still found */
    snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir .debug && mv kern.debug .debug/", f->dir);
    run(cmd);
    assert_int_equal(find(f, NULL, path_in(f, "kern"), &c), 0);
    assert_string_equal(c.path, path_in(f, ".debug/kern.debug"));
    xu_elf_choice_dispose(&c);

    /* moved under the debug root at the kernel's directory */
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s%s' && mv '%s/.debug/kern.debug' '%s%s/'",
             f->root, f->dir, f->dir, f->root, f->dir);
    run(cmd);
    assert_int_equal(find(f, NULL, path_in(f, "kern"), &c), 0);
    assert_non_null(strstr(c.path, "debugroot/tmp/xu-elf-find-"));
    xu_elf_choice_dispose(&c);
}

static void test_debuglink_crc_mismatch(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    char cmd[1024];

    mk(path_in(f, "kern.debug"), 0);
    mk(path_in(f, "kern"), MKELF_STRIPPED);
    snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --add-gnu-debuglink=kern.debug kern", f->dir);
    run(cmd);
    /* rebuilt debug file: same name, other contents */
    assert_int_equal(mkelf_write(path_in(f, "kern.debug"), TEXT, TEXT_SIZE + 0x1000, syms, 2, 0), 0);
    assert_int_equal(find(f, NULL, path_in(f, "kern"), &c), -ENODATA);
    assert_true(f->cap.warnings >= 1);
}

static void test_stripped_nothing_found(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    mk(path_in(f, "bare"), MKELF_STRIPPED | MKELF_BUILD_ID);
    assert_int_equal(find(f, NULL, path_in(f, "bare"), &c), -ENODATA);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.last, "--elf"));
    assert_non_null(strstr(f->cap.last, "bare.dbg"));
    assert_non_null(strstr(f->cap.last, ".build-id/"));
    assert_null(c.path);
    assert_null(c.symtab);
}

/*
 * debuginfod, the last place: never asked while DEBUGINFOD_URLS is unset or
 * blank; when it names a server that cannot answer (a closed loopback
 * port), the one error line says what was asked and why it failed.  (A
 * real server is tests/tools/debuginfod.sh.)
 */
static void test_debuginfod_only_when_named(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    mk(path_in(f, "bare"), MKELF_STRIPPED | MKELF_BUILD_ID);
    unsetenv("DEBUGINFOD_URLS");
    assert_int_equal(find(f, NULL, path_in(f, "bare"), &c), -ENODATA);
    assert_null(strstr(f->cap.last, "debuginfod"));
    setenv("DEBUGINFOD_URLS", " \t", 1);
    assert_int_equal(find(f, NULL, path_in(f, "bare"), &c), -ENODATA);
    assert_null(strstr(f->cap.last, "debuginfod"));

    setenv("DEBUGINFOD_URLS", "http://127.0.0.1:1", 1);
    setenv("DEBUGINFOD_CACHE_PATH", path_in(f, "cache"), 1);
    f->cap.errors = f->cap.warnings = 0;
    assert_int_equal(find(f, NULL, path_in(f, "bare"), &c), -ENODATA);
    unsetenv("DEBUGINFOD_URLS");
    assert_int_equal(f->cap.errors, 1);
    assert_int_equal(f->cap.warnings, 0);
    /* "debuginfod http://127.0.0.1:1: <why>", or, without the library,
     * "debuginfod http://127.0.0.1:1: not in this build, nothing asked" */
    assert_non_null(strstr(f->cap.last, "debuginfod "));
    assert_null(c.path);
}

static void test_not_an_elf_kernel(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    FILE *fp = fopen(path_in(f, "bzImage"), "w");

    assert_non_null(fp);
    fputs("MZ not an elf file\n", fp);
    fclose(fp);
    assert_int_equal(find(f, NULL, path_in(f, "bzImage"), &c), -ENODATA);
    mk(path_in(f, "bzImage.dbg"), 0);
    assert_int_equal(find(f, NULL, path_in(f, "bzImage"), &c), 0);
    assert_int_equal(c.source, XU_ELF_FROM_DBG_SIBLING);
    xu_elf_choice_dispose(&c);
}

/* Mini-OS's own config boots mini-os.gz: the kernel read decompressed. */
static void test_gzip_kernel_read_decompressed(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    char cmd[1200];

    mk(path_in(f, "mini-os"), 0);
    snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s' && rm '%s'", path_in(f, "mini-os"),
             path_in(f, "mini-os.gz"), path_in(f, "mini-os"));
    run(cmd);
    assert_int_equal(find(f, NULL, path_in(f, "mini-os.gz"), &c), 0);
    assert_string_equal(c.reason, "gzip kernel, read decompressed");
    assert_true(c.mem_fd >= 0);
    assert_non_null(strstr(c.path, "/proc/self/fd/"));
    assert_non_null(strstr(c.shown, "mini-os.gz (decompressed)"));
    assert_non_null(xu_symtab_find(c.symtab, "work"));
    xu_elf_choice_dispose(&c);
    assert_int_equal(c.mem_fd, -1);
    assert_int_equal(f->cap.errors, 0);
}

/* A stripped gzip kernel: its uncompressed sibling is the start file. */
static void test_gzip_stripped_uses_sibling(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    char cmd[1200];

    mk(path_in(f, "k"), MKELF_STRIPPED);
    snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s'", path_in(f, "k"), path_in(f, "k.gz"));
    run(cmd);
    mk(path_in(f, "k"), 0);         /* the unstripped build beside it */
    assert_int_equal(find(f, NULL, path_in(f, "k.gz"), &c), 0);
    assert_string_equal(c.path, path_in(f, "k"));
    assert_null(c.shown);
    xu_elf_choice_dispose(&c);
}

/* Formats Xen's loader knows but we do not read: one line, naming it. */
static void test_xz_kernel_one_line(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    static const unsigned char xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0, 0, 4 };
    FILE *fp = fopen(path_in(f, "vmlinuz.xz"), "wb");

    assert_non_null(fp);
    fwrite(xz_magic, 1, sizeof(xz_magic), fp);
    fclose(fp);
    assert_int_equal(find(f, NULL, path_in(f, "vmlinuz.xz"), &c), -ENODATA);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.last, "xz-compressed"));
    assert_non_null(strstr(f->cap.last, "--elf"));
    /* with the uncompressed sibling there, that is used */
    mk(path_in(f, "vmlinuz"), 0);
    assert_int_equal(find(f, NULL, path_in(f, "vmlinuz.xz"), &c), 0);
    assert_string_equal(c.path, path_in(f, "vmlinuz"));
    xu_elf_choice_dispose(&c);
}

static void test_corrupt_gzip(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;
    static const unsigned char junk[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xde, 0xad };
    FILE *fp = fopen(path_in(f, "bad.gz"), "wb");

    assert_non_null(fp);
    fwrite(junk, 1, sizeof(junk), fp);
    fclose(fp);
    assert_int_equal(find(f, NULL, path_in(f, "bad.gz"), &c), -ENODATA);
    assert_true(f->cap.errors >= 1);
    assert_null(c.path);
}

static void test_elf_argument(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    mk(path_in(f, "kernel"), 0);
    mk(path_in(f, "mine"), 0);
    /* --elf wins over a kernel that has symbols */
    assert_int_equal(find(f, path_in(f, "mine"), path_in(f, "kernel"), &c), 0);
    assert_string_equal(c.path, path_in(f, "mine"));
    assert_int_equal(c.source, XU_ELF_FROM_ARG);
    assert_string_equal(c.reason, "--elf has symbols");
    xu_elf_choice_dispose(&c);

    /* a stripped --elf still gets its companions looked for */
    mk(path_in(f, "stripped"), MKELF_STRIPPED);
    mk(path_in(f, "stripped.dbg"), 0);
    assert_int_equal(find(f, path_in(f, "stripped"), NULL, &c), 0);
    assert_int_equal(c.source, XU_ELF_FROM_DBG_SIBLING);
    xu_elf_choice_dispose(&c);
}

static void test_missing_inputs(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_choice c;

    assert_int_equal(find(f, NULL, NULL, &c), -EINVAL);
    assert_non_null(strstr(f->cap.last, "--elf"));
    assert_int_equal(find(f, NULL, path_in(f, "nonexistent"), &c), -ENOENT);
    assert_non_null(strstr(f->cap.last, "--elf"));
    assert_int_equal(find(f, path_in(f, "nonexistent"), NULL, &c), -ENOENT);
    assert_int_equal(find(f, f->dir, NULL, &c), -EINVAL);     /* a directory */
}

/* ------------------------------------------------------------------ match */

struct guest {
    struct xu_sim *sim;
    struct xu_target t;
    struct xu_mem *m;
    uint64_t root;
    struct xu_vcpu_regs regs;
};

static void guest_new(struct guest *g)
{
    memset(g, 0, sizeof(*g));
    g->sim = xu_sim_new(XU_GUEST_PVH, 512, 2);
    assert_non_null(g->sim);
    assert_int_equal(xu_sim_target_open(g->sim, &g->t, NULL), 0);
    g->root = xu_sim_new_root(g->sim);
    g->m = xu_mem_new(&g->t, NULL);
    assert_non_null(g->m);
    g->regs.online = true;
    g->regs.kernel_mode = true;
    g->regs.mmu.paging = XU_PAGING_LONG4;
    g->regs.mmu.root = g->root;
}

static void guest_free(struct guest *g)
{
    xu_mem_free(g->m);
    xu_target_close(&g->t);
    xu_sim_free(g->sim);
}

/* Fill [va, va+len) of the guest with byte b. */
static void guest_fill(struct guest *g, uint64_t va, uint64_t len, uint8_t b)
{
    uint8_t buf[4096];

    memset(buf, b, sizeof(buf));
    while (len) {
        uint64_t n = len < sizeof(buf) ? len : sizeof(buf);
        assert_int_equal(xu_sim_write(g->sim, g->root, va, buf, (size_t)n), 0);
        va += n;
        len -= n;
    }
}

static void check(struct guest *g, const char *path, struct xu_elf_match *r)
{
    xu_mem_begin(g->m);
    xu_mem_set_context(g->m, &g->regs);
    assert_int_equal(xu_elf_match_check(path, NULL, g->m, NULL, r), 0);
}

/* Code bytes as a function of the address (seed 0 is "the build"). */
static uint8_t code_byte(uint64_t va, unsigned int seed)
{
    uint64_t x = (va + seed * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;

    return (uint8_t)(x >> 40) ^ (uint8_t)(seed ? 0x5a : 0);
}

/* Put code_byte(, seed) into every executable section of an mkelf file
 * (mkelf writes 0xcc everywhere: a uniform chunk, which the check skips). */
static void fill_file_text(const char *path, unsigned int seed)
{
    int fd = open(path, O_RDWR);
    Elf *elf;
    Elf_Scn *scn = NULL;
    int n = 0;

    assert_true(fd >= 0);
    assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(elf);
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        uint8_t buf[256];
        uint64_t off;

        assert_non_null(gelf_getshdr(scn, &sh));
        if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
            continue;
        for (off = 0; off < sh.sh_size; off += sizeof(buf)) {
            size_t i, len = sh.sh_size - off < sizeof(buf) ? sh.sh_size - off : sizeof(buf);
            for (i = 0; i < len; i++)
                buf[i] = code_byte(sh.sh_addr + off + i, seed);
            assert_int_equal(pwrite(fd, buf, len, (off_t)(sh.sh_offset + off)), (ssize_t)len);
        }
        n++;
    }
    assert_true(n > 0);
    elf_end(elf);
    close(fd);
}

/* The guest's memory at [va, va+len): the build's bytes, one in every
 * `patch` (0: none) changed as boot-time patching does. */
static void guest_code(struct guest *g, uint64_t va, uint64_t len, unsigned int seed,
                       unsigned int patch)
{
    uint8_t buf[256];
    uint64_t off;

    for (off = 0; off < len; off += sizeof(buf)) {
        size_t i, n = len - off < sizeof(buf) ? len - off : sizeof(buf);
        for (i = 0; i < n; i++) {
            buf[i] = code_byte(va + off + i, seed);
            if (patch && (va + off + i) % patch == 0)
                buf[i] ^= 0x90;
        }
        assert_int_equal(xu_sim_write(g->sim, g->root, va + off, buf, n), 0);
    }
}

static const struct mkelf_sym init_syms[] = {
    { "start", TEXT, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    { "work", TEXT + 0x100, 0x200, STT_FUNC, STB_GLOBAL, 0 },
    { "more", TEXT + 0x2000, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    { "boot_setup", INIT + 0x80, 0x80, STT_FUNC, STB_GLOBAL, 1 },
};

/* .text (entry "start" and two more functions), a .init.text function,
 * .data; code bytes from code_byte(, 0) unless flags say stripped. */
static void make_kernel_with_init(const char *path)
{
    static const struct mkelf_section secs[] = {
        { ".text", TEXT, TEXT_SIZE, false },
        { ".init.text", INIT, 0x1000, false },
        { ".data", INIT + 0x10000, 0x1000, true },
    };

    assert_int_equal(mkelf_write_sections(path, secs, 3, init_syms, 4, MKELF_BUILD_ID), 0);
    fill_file_text(path, 0);
}

static void test_match_same_bytes(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    make_kernel_with_init(path_in(f, "k"));
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    guest_code(&g, TEXT, TEXT_SIZE, 0, 0);
    /* freed init text holds something else and must not count */
    assert_int_equal(xu_sim_map_range(g.sim, g.root, INIT, 0x1000), 0);
    guest_code(&g, INIT, 0x1000, 7, 0);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    /* the entry ("start") and the function starts "work" and "more" */
    assert_int_equal(r.chunks, 3);
    assert_int_equal(r.agreeing, 3);
    assert_int_equal(r.unreadable, 0);
    assert_int_equal(r.bytes, 0x40 + 64 + 64);
    assert_int_equal(r.equal_bytes, r.bytes);
    assert_int_equal(r.first_diff_va, 0);
    assert_false(r.build_id_checked);   /* mkelf's note is not loaded */
    guest_free(&g);
}

static void test_match_without_symbols(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    /* raw chunks spread over the text when the file has no symbols */
    assert_int_equal(mkelf_write(path_in(f, "s"), TEXT, TEXT_SIZE, syms, 2, MKELF_STRIPPED), 0);
    fill_file_text(path_in(f, "s"), 0);
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    guest_code(&g, TEXT, TEXT_SIZE, 0, 0);
    check(&g, path_in(f, "s"), &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.chunks, XU_ELF_MATCH_CHUNKS);
    /* another build */
    guest_code(&g, TEXT, TEXT_SIZE, 3, 0);
    check(&g, path_in(f, "s"), &r);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    assert_int_equal(r.agreeing, 0);
    guest_free(&g);
}

static void test_uniform_text_says_nothing(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    /* all 0xcc in the file and in the guest: equal, but proves nothing */
    mk(path_in(f, "pad"), 0);
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    guest_fill(&g, TEXT, TEXT_SIZE, 0xcc);
    check(&g, path_in(f, "pad"), &r);
    assert_int_equal(r.verdict, XU_ELF_UNKNOWN);
    assert_int_equal(r.chunks, 0);
    guest_free(&g);
}

static void test_match_tolerates_patched_text(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    make_kernel_with_init(path_in(f, "k"));
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    /* boot-time patching: one byte in sixteen differs */
    guest_code(&g, TEXT, TEXT_SIZE, 0, 16);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.agreeing, 3);
    assert_true(r.equal_bytes < r.bytes);
    assert_int_not_equal(r.first_diff_va, 0);
    /* half the bytes differing is not patching */
    guest_code(&g, TEXT, TEXT_SIZE, 0, 2);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    assert_int_equal(r.agreeing, 0);
    guest_free(&g);
}

static void test_mismatch_other_bytes(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    make_kernel_with_init(path_in(f, "k"));
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    guest_code(&g, TEXT, TEXT_SIZE, 1, 0);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    assert_int_equal(r.chunks, 3);
    assert_int_equal(r.agreeing, 0);
    assert_int_equal(r.first_diff_va, TEXT);    /* the entry point comes first */
    assert_string_equal(xu_elf_verdict_name(r.verdict), "mismatch");
    /* one function of three differs: not enough to call it a match */
    guest_code(&g, TEXT, TEXT_SIZE, 0, 0);
    guest_code(&g, TEXT + 0x2000, 0x100, 1, 0);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.agreeing, 2);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    guest_free(&g);
}

static void test_unknown_when_unmapped(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;

    make_kernel_with_init(path_in(f, "k"));
    guest_new(&g);
    check(&g, path_in(f, "k"), &r);
    assert_int_equal(r.verdict, XU_ELF_UNKNOWN);
    assert_int_equal(r.chunks, 0);
    assert_int_equal(r.unreadable, 3);
    assert_string_equal(xu_elf_verdict_name(r.verdict), "unknown");

    /* a file opened under another name (a vmlinux decompressed in memory)
     * is called by the name the user knows */
    assert_int_equal(xu_elf_match_check(path_in(f, "k"), "vmlinuz (decompressed)", g.m,
                                        &f->cap.log, &r), 0);
    assert_non_null(strstr(f->cap.any, "the guest maps none of vmlinuz (decompressed)'s text"));
    guest_free(&g);
}

static void test_match_guest_pauses_and_unpauses(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;
    struct xu_sim_counters c;
    struct xu_vcpu_regs user = { .online = true, .kernel_mode = false,
                                 .mmu.paging = XU_PAGING_LONG4 };
    volatile uint32_t pause_state = XU_PAUSE_RUNNING;
    struct xu_pause *pause;

    make_kernel_with_init(path_in(f, "k"));
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    guest_code(&g, TEXT, TEXT_SIZE, 0, 0);
    /* vCPU 0 in user mode with page tables that map nothing: the kernel-
     * mode vCPU 1 must be the one read through */
    user.mmu.root = xu_sim_new_root(g.sim);
    assert_int_equal(xu_sim_push_state(g.sim, 0, &user), 0);
    assert_int_equal(xu_sim_push_state(g.sim, 1, &g.regs), 0);

    assert_int_equal(xu_pause_new(&pause, &g.t, &pause_state, NULL), 0);
    assert_int_equal(xu_elf_match_guest(path_in(f, "k"), NULL, &g.t, g.m, pause, NULL, &r), 0);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    xu_sim_get_counters(g.sim, &c);
    assert_int_equal(c.pauses, 1);
    assert_int_equal(c.unpauses, 1);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(pause_state, XU_PAUSE_RUNNING);
    xu_pause_free(pause);

    /* paused by its admin: our own reference on top, given back; the
     * admin's stays */
    assert_int_equal(xu_sim_admin_pause(g.sim), 0);
    assert_int_equal(xu_elf_match_guest(path_in(f, "k"), NULL, &g.t, g.m, NULL, NULL, &r), 0);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    xu_sim_get_counters(g.sim, &c);
    assert_int_equal(c.pauses, 2);
    assert_int_equal(c.unpauses, 2);
    assert_int_equal(c.pause_depth, 1);

    /* a file that cannot be read: no pause at all */
    assert_int_equal(xu_sim_admin_unpause(g.sim), 0);
    assert_true(xu_elf_match_guest(path_in(f, "nonexistent"), NULL, &g.t, g.m, NULL, &f->cap.log,
                                   &r) < 0);
    xu_sim_get_counters(g.sim, &c);
    assert_int_equal(c.pauses, 2);
    assert_int_equal(c.pause_depth, 0);
    guest_free(&g);
}

/* Give the build-id note a load address, as a linked kernel's has. */
static void load_note_at(const char *path, uint64_t addr)
{
    int fd = open(path, O_RDWR);
    Elf *elf;
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    int done = 0;

    assert_true(fd >= 0);
    assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
    elf = elf_begin(fd, ELF_C_RDWR, NULL);
    assert_non_null(elf);
    elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        assert_non_null(gelf_getshdr(scn, &sh));
        if (strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".note.gnu.build-id") == 0) {
            sh.sh_addr = addr;
            assert_true(gelf_update_shdr(scn, &sh));
            elf_flagshdr(scn, ELF_C_SET, ELF_F_DIRTY);
            done = 1;
        }
    }
    assert_true(done);
    assert_true(elf_update(elf, ELF_C_WRITE) >= 0);
    elf_end(elf);
    close(fd);
}

static void test_build_id_decides(void **state)
{
    struct fixture *f = *state;
    struct guest g;
    struct xu_elf_match r;
    const uint64_t note = INIT + 0x20000;
    uint8_t other[MKELF_BUILD_ID_LEN];

    make_kernel_with_init(path_in(f, "k"));
    load_note_at(path_in(f, "k"), note);
    guest_new(&g);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, TEXT, TEXT_SIZE), 0);
    assert_int_equal(xu_sim_map_range(g.sim, g.root, note, 0x1000), 0);
    /* text that differs, but the very build: the note (desc after the
     * 16 bytes of header and name) says so */
    guest_code(&g, TEXT, TEXT_SIZE, 1, 0);
    assert_int_equal(xu_sim_write(g.sim, g.root, note + 16, mkelf_build_id,
                                  MKELF_BUILD_ID_LEN), 0);
    check(&g, path_in(f, "k"), &r);
    assert_true(r.build_id_checked);
    assert_true(r.build_id_equal);
    assert_int_equal(r.verdict, XU_ELF_MATCH);

    /* identical text, another build-id: another build */
    guest_code(&g, TEXT, TEXT_SIZE, 0, 0);
    memcpy(other, mkelf_build_id, sizeof(other));
    other[7] ^= 1;
    assert_int_equal(xu_sim_write(g.sim, g.root, note + 16, other, sizeof(other)), 0);
    check(&g, path_in(f, "k"), &r);
    assert_true(r.build_id_checked);
    assert_false(r.build_id_equal);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    guest_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kernel_with_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dbg_sibling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dbg_sibling_of_other_build_is_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_id_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debuglink, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debuglink_crc_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stripped_nothing_found, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debuginfod_only_when_named, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_an_elf_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gzip_kernel_read_decompressed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gzip_stripped_uses_sibling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xz_kernel_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_gzip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_elf_argument, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_match_same_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_match_without_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uniform_text_says_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_match_tolerates_patched_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mismatch_other_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_when_unmapped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_match_guest_pauses_and_unpauses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_id_decides, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
