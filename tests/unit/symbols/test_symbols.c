/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_symbols.c - reading function symbols from ELF files written by
 * mkelf, looking addresses up, and resolving a profile's addresses once.
 *
 * Linked with -Wl,--wrap=xu_symtab_lookup so the symboliser's calls into
 * the table can be counted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <elf.h>

#include "mkelf.h"
#include "symbols/xu_symbols.h"

/* ---------------------------------------------------------------- harness */

static unsigned long lookup_calls;

const struct xu_symbol *__real_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr);
const struct xu_symbol *__wrap_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr);

const struct xu_symbol *__wrap_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr)
{
    lookup_calls++;
    return __real_xu_symtab_lookup(st, addr);
}

struct fixture {
    char dir[64];
    char path[128];
    char last_msg[1024];
    int nr_msgs;
    struct xu_log log;
};

static void capture(void *ctx, enum xu_log_level level, const char *msg)
{
    struct fixture *fx = ctx;

    snprintf(fx->last_msg, sizeof(fx->last_msg), "%s", msg);
    fx->nr_msgs++;
}

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    const char *tmp = getenv("TMPDIR");

    if (!fx)
        return -1;
    snprintf(fx->dir, sizeof(fx->dir), "%s/test_symbols.XXXXXX",
             tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    snprintf(fx->path, sizeof(fx->path), "%s/t.elf", fx->dir);
    fx->log.emit = capture;
    fx->log.ctx = fx;
    fx->log.min_level = XU_LOG_DEBUG;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    unlink(fx->path);
    rmdir(fx->dir);
    free(fx);
    return 0;
}

/* Write syms into one .text at 0x1000..0x2000 and open the result. */
static struct xu_symtab *open_syms(struct fixture *fx, const struct mkelf_sym *syms,
                                   size_t n, unsigned int flags)
{
    struct xu_symtab *st = NULL;

    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x1000, syms, n, flags), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), 0);
    assert_non_null(st);
    return st;
}

static void assert_at(const struct xu_symtab *st, uint64_t addr, const char *name)
{
    const struct xu_symbol *s = xu_symtab_lookup(st, addr);

    if (!name) {
        if (s)
            fail_msg("%#llx resolved to %s, expected nothing", (unsigned long long)addr, s->name);
        return;
    }
    if (!s)
        fail_msg("%#llx unresolved, expected %s", (unsigned long long)addr, name);
    assert_string_equal(s->name, name);
}

/* ------------------------------------------------------------------ tests */

static void test_boundaries_and_gaps(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "second", 0x1020, 0x20, STT_FUNC, STB_GLOBAL, 0 },
        { "first", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "static_fn", 0x1100, 0x8, STT_FUNC, STB_LOCAL, 0 },
    };
    struct xu_symtab *st = open_syms(fx, syms, 3, 0);
    const struct xu_symbol *s;

    assert_int_equal(xu_symtab_count(st), 3);
    assert_at(st, 0xfff, NULL);
    assert_at(st, 0x1000, "first");         /* first byte */
    assert_at(st, 0x100f, "first");         /* last byte */
    assert_at(st, 0x1010, NULL);            /* one past the end: the gap */
    assert_at(st, 0x101f, NULL);
    assert_at(st, 0x1020, "second");
    assert_at(st, 0x103f, "second");
    assert_at(st, 0x1040, NULL);
    assert_at(st, 0x10ff, NULL);
    assert_at(st, 0x1100, "static_fn");
    assert_at(st, 0x1108, NULL);
    assert_at(st, UINT64_MAX, NULL);
    s = xu_symtab_lookup(st, 0x1030);
    assert_int_equal(s->start, 0x1020);
    assert_int_equal(s->size, 0x20);
    s = xu_symtab_find(st, "first");
    assert_non_null(s);
    assert_int_equal(s->start, 0x1000);
    assert_int_equal(s->size, 0x10);
    assert_null(xu_symtab_find(st, "nope"));
    assert_int_equal(xu_symtab_machine(st), EM_X86_64);
    xu_symtab_free(st);
}

static void test_size_zero_symbols(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_section secs[] = {
        { ".text", 0x1000, 0x1000, false },
        { ".init.text", 0x3000, 0x100, false },
    };
    static const struct mkelf_sym syms[] = {
        /* an assembly entry point: runs to the next symbol */
        { "_start", 0x1000, 0, STT_NOTYPE, STB_GLOBAL, 0 },
        { "main", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        /* an inner label stays inside the function around it */
        { "outer", 0x1100, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "inner_label", 0x1180, 0, STT_NOTYPE, STB_LOCAL, 0 },
        { "after", 0x1300, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        /* a sized symbol nested in another */
        { "big", 0x1400, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "nested", 0x1410, 0x10, STT_FUNC, STB_LOCAL, 0 },
        /* the last one of its section: up to the section's end, not to
         * the next symbol, which is in another section */
        { "hypercall_page", 0x1f00, 0, STT_NOTYPE, STB_GLOBAL, 0 },
        { "init_fn", 0x3000, 0x20, STT_FUNC, STB_GLOBAL, 1 },
        { "init_tail", 0x3080, 0, STT_FUNC, STB_GLOBAL, 1 },
    };
    struct xu_symtab *st = NULL;

    assert_int_equal(mkelf_write_sections(fx->path, secs, 2, syms, 10, 0), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_count(st), 10);

    assert_at(st, 0x1000, "_start");
    assert_at(st, 0x103f, "_start");
    assert_int_equal(xu_symtab_find(st, "_start")->size, 0x40);
    assert_at(st, 0x1040, "main");

    assert_at(st, 0x117f, "outer");
    assert_at(st, 0x1180, "inner_label");
    assert_at(st, 0x11ff, "inner_label");
    assert_int_equal(xu_symtab_find(st, "inner_label")->size, 0x80);
    assert_at(st, 0x1200, NULL);            /* past outer: not the label's */
    assert_at(st, 0x12ff, NULL);
    assert_at(st, 0x1300, "after");

    assert_at(st, 0x1408, "big");
    assert_at(st, 0x1410, "nested");
    assert_at(st, 0x141f, "nested");
    assert_at(st, 0x1420, "big");           /* back in the enclosing one */
    assert_at(st, 0x14ff, "big");
    assert_at(st, 0x1500, NULL);

    assert_at(st, 0x1f00, "hypercall_page");
    assert_at(st, 0x1fff, "hypercall_page");
    assert_int_equal(xu_symtab_find(st, "hypercall_page")->size, 0x100);
    assert_at(st, 0x2000, NULL);
    assert_at(st, 0x2fff, NULL);

    assert_at(st, 0x301f, "init_fn");
    assert_at(st, 0x3020, NULL);
    assert_at(st, 0x3080, "init_tail");
    assert_at(st, 0x30ff, "init_tail");
    assert_at(st, 0x3100, NULL);
    xu_symtab_free(st);
}

static void test_aliases_prefer_sized_global_func(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "a_local", 0x1000, 0x10, STT_FUNC, STB_LOCAL, 0 },
        { "a_notype", 0x1000, 0, STT_NOTYPE, STB_GLOBAL, 0 },
        { "a_weak", 0x1000, 0x10, STT_FUNC, STB_WEAK, 0 },
        { "the_func", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "a_unsized", 0x1000, 0, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const struct mkelf_sym pair[] = {
        { "zeta", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "alpha", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct mkelf_sym swapped[2] = { pair[1], pair[0] };
    struct xu_symtab *st;

    st = open_syms(fx, syms, 5, 0);
    assert_int_equal(xu_symtab_count(st), 1);
    assert_at(st, 0x1000, "the_func");
    assert_at(st, 0x100f, "the_func");
    assert_at(st, 0x1010, NULL);
    xu_symtab_free(st);

    /* equal rank: the name decides, whatever the order in the file */
    st = open_syms(fx, pair, 2, 0);
    assert_at(st, 0x1000, "alpha");
    xu_symtab_free(st);
    st = open_syms(fx, swapped, 2, 0);
    assert_at(st, 0x1000, "alpha");
    xu_symtab_free(st);
}

static void test_skips_non_functions(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_section secs[] = {
        { ".text", 0x1000, 0x1000, false },
        { ".data", 0x4000, 0x1000, true },
    };
    static const struct mkelf_sym syms[] = {
        { "func", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { ".Ltmp0", 0x1008, 0, STT_NOTYPE, STB_LOCAL, 0 },
        { "$x", 0x1010, 0, STT_NOTYPE, STB_LOCAL, 0 },
        { "an_object", 0x4000, 0x10, STT_OBJECT, STB_GLOBAL, 1 },
        { "data_label", 0x4010, 0, STT_NOTYPE, STB_GLOBAL, 1 },
        { "imported", 0, 0, STT_FUNC, STB_GLOBAL, MKELF_SEC_UNDEF },
        { "abs_value", 0x1800, 0, STT_NOTYPE, STB_GLOBAL, MKELF_SEC_ABS },
        { "", 0x1020, 0x10, STT_FUNC, STB_LOCAL, 0 },
        { "asm_entry", 0x1100, 0, STT_NOTYPE, STB_GLOBAL, 0 },
    };
    struct xu_symtab *st = NULL;

    assert_int_equal(mkelf_write_sections(fx->path, secs, 2, syms, 9, 0), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), 0);
    /* func and asm_entry; the file and section symbols mkelf adds are skipped too */
    assert_int_equal(xu_symtab_count(st), 2);
    assert_at(st, 0x1008, "func");
    assert_at(st, 0x1010, NULL);
    assert_at(st, 0x1020, NULL);
    assert_at(st, 0x4000, NULL);
    assert_at(st, 0x4010, NULL);
    assert_at(st, 0, NULL);
    assert_at(st, 0x1100, "asm_entry");
    assert_at(st, 0x1fff, "asm_entry");
    assert_null(xu_symtab_find(st, "mkelf.c"));
    xu_symtab_free(st);
}

static void test_dynsym_only(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "exported", 0x1200, 0x30, STT_FUNC, STB_GLOBAL, 0 },
        { "import", 0, 0, STT_FUNC, STB_GLOBAL, MKELF_SEC_UNDEF },
    };
    struct xu_symtab *st = open_syms(fx, syms, 2, MKELF_STRIPPED | MKELF_DYNSYM);

    assert_int_equal(xu_symtab_count(st), 1);
    assert_at(st, 0x1200, "exported");
    assert_at(st, 0x122f, "exported");
    assert_at(st, 0x1230, NULL);
    xu_symtab_free(st);
}

static void test_symtab_and_dynsym_merge(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "f", 0x1200, 0x30, STT_FUNC, STB_GLOBAL, 0 },
        { "g", 0x1300, 0x30, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct xu_symtab *st = open_syms(fx, syms, 2, MKELF_DYNSYM);

    /* each is in both tables: still one symbol per address */
    assert_int_equal(xu_symtab_count(st), 2);
    assert_at(st, 0x1210, "f");
    assert_at(st, 0x1310, "g");
    xu_symtab_free(st);
}

static void test_stripped(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym data_only[] = {
        { "an_object", 0x1000, 0x10, STT_OBJECT, STB_GLOBAL, 0 },
    };
    struct xu_symtab *st = (struct xu_symtab *)&st;     /* must be reset */

    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x1000, NULL, 0,
                                 MKELF_STRIPPED | MKELF_BUILD_ID), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENODATA);
    assert_null(st);
    assert_non_null(strstr(fx->last_msg, "has no symbol table (stripped?)"));
    assert_non_null(strstr(fx->last_msg, "--elf"));
    assert_non_null(strstr(fx->last_msg, fx->path));

    /* a symbol table without any function is no better */
    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x1000, data_only, 1, 0), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENODATA);
    assert_null(st);
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void test_not_elf(void **state)
{
    struct fixture *fx = *state;
    static const char text[] = "#!/bin/sh\necho this is not an ELF file\n";
    unsigned char elf32[52] = { 0x7f, 'E', 'L', 'F', 1 /* ELFCLASS32 */, 1, 1 };
    struct xu_symtab *st = NULL;

    write_file(fx->path, text, sizeof(text) - 1);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENOEXEC);
    assert_null(st);
    assert_non_null(strstr(fx->last_msg, "not an ELF file"));

    write_file(fx->path, "", 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENOEXEC);

    /* a minimal 32-bit x86-64 (x32) header: the wrong class for its machine */
    elf32[16] = ET_EXEC;
    elf32[18] = EM_X86_64;
    elf32[20] = EV_CURRENT;
    elf32[40] = 52;     /* e_ehsize */
    write_file(fx->path, elf32, sizeof(elf32));
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENOEXEC);
    assert_non_null(strstr(fx->last_msg, "32-bit"));
    assert_null(st);
    /* an i386 one is read: this one has no sections, hence no symbols */
    elf32[18] = EM_386;
    write_file(fx->path, elf32, sizeof(elf32));
    assert_int_equal(xu_symtab_open_for(fx->path, EM_386, &fx->log, &st), -ENODATA);
    assert_non_null(strstr(fx->last_msg, "no section headers"));
    assert_null(st);
}

/*
 * An i386 image built by the host's compiler (-m32) and `ld -m elf_i386`:
 * ELF32 symbol tables read as 64-bit ones are, for a 32-bit x86 guest,
 * and refused for a 64-bit one.  Skipped where the build has no i386
 * toolchain.
 */
static void test_elf32_i386(void **state)
{
#ifdef XU_TEST_ELF32_FIXTURE
    struct fixture *fx = *state;
    const struct xu_symbol *leaf, *mid, *entry, *s;
    struct xu_symtab *st = NULL;

    assert_int_equal(xu_symtab_open_for(XU_TEST_ELF32_FIXTURE, EM_386, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_machine(st), EM_386);
    leaf = xu_symtab_find(st, "e32_leaf");
    mid = xu_symtab_find(st, "e32_middle");
    entry = xu_symtab_find(st, "e32_entry");
    assert_non_null(leaf);
    assert_non_null(mid);
    assert_non_null(entry);
    /* linked at 0xc0100000: every function in the first text pages */
    assert_true(leaf->start >= 0xc0100000ULL && leaf->start < 0xc0110000ULL);
    assert_true(leaf->size > 0 && leaf->function);
    s = xu_symtab_lookup(st, mid->start + mid->size - 1);
    assert_non_null(s);
    assert_string_equal(s->name, "e32_middle");
    assert_null(xu_symtab_lookup(st, 0x100000000ULL + leaf->start));
    xu_symtab_free(st);
    st = NULL;
    /* not for a 64-bit guest */
    assert_int_equal(xu_symtab_open_for(XU_TEST_ELF32_FIXTURE, EM_X86_64, &fx->log, &st),
                     -ENOEXEC);
    assert_non_null(strstr(fx->last_msg, "i386"));
    assert_null(st);
#else
    (void)state;
    skip();
#endif
}

/*
 * An ARM ELF32 (the EHABI fixture, ARM and Thumb-2 code with their mapping
 * symbols): a Thumb function's value has bit 0 set, its start does not;
 * the mapping symbols $a, $t and $d name nothing.
 */
static void test_elf32_arm_thumb(void **state)
{
    struct fixture *fx = *state;
    const struct xu_symbol *s;
    struct xu_symtab *st = NULL;

    assert_int_equal(xu_symtab_open_for(XU_TEST_SRCDIR "/tests/unit/unwind/ehabi_fixture.elf",
                                        EM_ARM, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_machine(st), EM_ARM);
    s = xu_symtab_find(st, "mid");          /* Thumb: st_value 0x1001d, 20 bytes */
    assert_non_null(s);
    assert_int_equal(s->start, 0x1001c);
    assert_int_equal(s->size, 20);
    assert_true(s->thumb);
    assert_true(s->function);
    assert_ptr_equal(xu_symtab_lookup(st, 0x1001c), s);
    assert_ptr_equal(xu_symtab_lookup(st, 0x1002f), s);
    s = xu_symtab_find(st, "top");          /* ARM: 0x10008 as it is */
    assert_non_null(s);
    assert_int_equal(s->start, 0x10008);
    assert_false(s->thumb);
    assert_ptr_equal(xu_symtab_lookup(st, 0x1001b), s);
    s = xu_symtab_lookup(st, 0x10030);
    assert_non_null(s);
    assert_string_equal(s->name, "leaf");
    assert_false(s->thumb);
    assert_null(xu_symtab_find(st, "$a.0"));
    assert_null(xu_symtab_find(st, "$t.1"));
    assert_null(xu_symtab_find(st, "$a.2"));
    xu_symtab_free(st);
}

static void test_truncated_elf(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "f", 0x1200, 0x30, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct xu_symtab *st = NULL;
    off_t len;
    int fd, rc;

    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x100, syms, 1, 0), 0);
    fd = open(fx->path, O_RDWR);
    assert_true(fd >= 0);
    len = lseek(fd, 0, SEEK_END);
    /* cut through the section headers at the end of the file */
    assert_int_equal(ftruncate(fd, len - 40), 0);
    close(fd);
    rc = xu_symtab_open(fx->path, &fx->log, &st);
    assert_true(rc == -ENOEXEC || rc == -ENODATA);
    assert_null(st);
}

/* Overwrite len bytes at off of the file at path. */
static void patch(const char *path, off_t off, const void *v, size_t len)
{
    int fd = open(path, O_RDWR);

    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, v, len, off), (ssize_t)len);
    close(fd);
}

/* Offset of the section header of the first section of type type. */
static off_t find_shdr(const char *path, uint32_t type)
{
    Elf64_Ehdr eh;
    Elf64_Shdr sh;
    int fd = open(path, O_RDONLY);
    unsigned int i;
    off_t found = -1;

    assert_true(fd >= 0);
    assert_int_equal(pread(fd, &eh, sizeof(eh), 0), (ssize_t)sizeof(eh));
    for (i = 0; i < eh.e_shnum && found < 0; i++) {
        off_t at = (off_t)(eh.e_shoff + (uint64_t)i * sizeof(sh));

        assert_int_equal(pread(fd, &sh, sizeof(sh), at), (ssize_t)sizeof(sh));
        if (sh.sh_type == type)
            found = at;
    }
    close(fd);
    assert_true(found >= 0);
    return found;
}

/* A damaged or foreign file is not "stripped": the error says what is wrong. */
static void test_damaged_elf_says_why(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "f", 0x1200, 0x30, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const struct {
        off_t off;              /* -1: the .symtab's sh_link, -2: its sh_offset */
        uint64_t value;
        size_t len;
        const char *says;
    } cases[] = {
        { EI_DATA, ELFDATA2MSB, 1, "big-endian" },
        { offsetof(Elf64_Ehdr, e_machine), EM_AARCH64, 2, "for arm64" },
        { offsetof(Elf64_Ehdr, e_shnum), 0xffff, 2, "past the end of the file" },
        { offsetof(Elf64_Ehdr, e_shoff), 0x7fffffff0000ULL, 8, "past the end of the file" },
        { -1, 1, 4, "not a string table" },
        { -2, 0x7fffff00, 8, "symbol table (section" },
    };
    struct xu_symtab *st = NULL;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        off_t off = cases[i].off;

        assert_int_equal(mkelf_write(fx->path, 0x1000, 0x100, syms, 1, 0), 0);
        if (off < 0)
            off = find_shdr(fx->path, SHT_SYMTAB) + (cases[i].off == -1
                  ? (off_t)offsetof(Elf64_Shdr, sh_link) : (off_t)offsetof(Elf64_Shdr, sh_offset));
        patch(fx->path, off, &cases[i].value, cases[i].len);
        assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENOEXEC);
        assert_null(st);
        if (!strstr(fx->last_msg, cases[i].says))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, fx->last_msg, cases[i].says);
        assert_null(strstr(fx->last_msg, "stripped"));
    }
    /* the machine is the caller's: an arm64 guest wants EM_AARCH64 */
    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x100, syms, 1, 0), 0);
    patch(fx->path, offsetof(Elf64_Ehdr, e_machine), &(uint16_t){ EM_AARCH64 }, 2);
    assert_int_equal(xu_symtab_open_for(fx->path, EM_AARCH64, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_machine(st), EM_AARCH64);
    xu_symtab_free(st);
    st = NULL;
    /* cut through the section headers: truncated, not stripped */
    assert_int_equal(mkelf_write(fx->path, 0x1000, 0x100, syms, 1, 0), 0);
    assert_int_equal(truncate(fx->path, find_shdr(fx->path, SHT_SYMTAB)), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), -ENOEXEC);
    assert_non_null(strstr(fx->last_msg, "truncated"));
}

static void test_missing_file(void **state)
{
    struct fixture *fx = *state;
    struct xu_symtab *st = NULL;
    char path[160];

    snprintf(path, sizeof(path), "%s/does-not-exist", fx->dir);
    assert_int_equal(xu_symtab_open(path, &fx->log, &st), -ENOENT);
    assert_null(st);
    assert_non_null(strstr(fx->last_msg, "does-not-exist"));
    assert_int_equal(xu_symtab_open(fx->dir, &fx->log, &st), -EISDIR);
}

static void test_build_id(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "f", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct xu_symtab *st;
    const uint8_t *id;
    size_t len = 99;

    st = open_syms(fx, syms, 1, MKELF_BUILD_ID);
    id = xu_symtab_build_id(st, &len);
    assert_int_equal(len, MKELF_BUILD_ID_LEN);
    assert_non_null(id);
    assert_memory_equal(id, mkelf_build_id, MKELF_BUILD_ID_LEN);
    xu_symtab_free(st);

    st = open_syms(fx, syms, 1, 0);
    assert_null(xu_symtab_build_id(st, &len));
    assert_int_equal(len, 0);
    xu_symtab_free(st);
}

static void test_many_symbols(void **state)
{
    struct fixture *fx = *state;
    enum { N = 100000 };
    struct mkelf_sym *syms = calloc(N, sizeof(*syms));
    char (*names)[16] = calloc(N, sizeof(*names));
    const struct mkelf_section text = { ".text", 0x100000, 16 * N, false };
    struct xu_symtab *st = NULL;
    size_t i;

    assert_non_null(syms);
    assert_non_null(names);
    /* reversed file order, 12-byte functions every 16 bytes: 4-byte gaps */
    for (i = 0; i < N; i++) {
        size_t k = N - 1 - i;

        snprintf(names[i], sizeof(names[i]), "fn%zu", k);
        syms[i] = (struct mkelf_sym){ names[i], 0x100000 + 16 * k, 12, STT_FUNC,
                                      STB_GLOBAL, 0 };
    }
    assert_int_equal(mkelf_write_sections(fx->path, &text, 1, syms, N, 0), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_count(st), N);
    for (i = 0; i < N; i += 997) {
        char want[16];
        uint64_t a = 0x100000 + 16 * i;

        snprintf(want, sizeof(want), "fn%zu", i);
        assert_at(st, a, want);
        assert_at(st, a + 11, want);
        assert_at(st, a + 12, NULL);
    }
    xu_symtab_free(st);
    free(names);
    free(syms);
}

/*
 * Symbols far apart (low code, a kernel's text, a module's): the buckets
 * that bound a lookup cover the whole span, so most hold nothing and one
 * holds all of a cluster; every lookup must still find its symbol.
 */
static void test_symbols_far_apart(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_section secs[] = {
        { ".text", 0x1000, 0x100, false },
        { ".text.kernel", 0xffffffff81000000ULL, 0x1000, false },
        { ".text.module", 0xffffffffc0000000ULL, 0x100, false },
    };
    static const struct mkelf_sym syms[] = {
        { "low", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "k1", 0xffffffff81000000ULL, 0x100, STT_FUNC, STB_GLOBAL, 1 },
        { "k2", 0xffffffff81000100ULL, 0x100, STT_FUNC, STB_GLOBAL, 1 },
        { "k3", 0xffffffff81000400ULL, 0x10, STT_FUNC, STB_GLOBAL, 1 },
        { "mod", 0xffffffffc0000000ULL, 0x100, STT_FUNC, STB_GLOBAL, 2 },
    };
    struct xu_symtab *st = NULL;

    assert_int_equal(mkelf_write_sections(fx->path, secs, 3, syms, 5, 0), 0);
    assert_int_equal(xu_symtab_open(fx->path, &fx->log, &st), 0);
    assert_int_equal(xu_symtab_count(st), 5);
    assert_at(st, 0, NULL);
    assert_at(st, 0xfff, NULL);
    assert_at(st, 0x1000, "low");
    assert_at(st, 0x100f, "low");
    assert_at(st, 0x1010, NULL);
    assert_at(st, 0x7fffffffffffULL, NULL);
    assert_at(st, 0xffffffff80ffffffULL, NULL);
    assert_at(st, 0xffffffff81000000ULL, "k1");
    assert_at(st, 0xffffffff810000ffULL, "k1");
    assert_at(st, 0xffffffff81000100ULL, "k2");
    assert_at(st, 0xffffffff810001ffULL, "k2");
    assert_at(st, 0xffffffff81000200ULL, NULL);
    assert_at(st, 0xffffffff8100040fULL, "k3");
    assert_at(st, 0xffffffff81000410ULL, NULL);
    assert_at(st, 0xffffffffc0000000ULL, "mod");
    assert_at(st, 0xffffffffc00000ffULL, "mod");
    assert_at(st, 0xffffffffc0000100ULL, NULL);
    assert_at(st, UINT64_MAX, NULL);
    xu_symtab_free(st);
}

static void test_symbolizer_resolves_each_once(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "first", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "second", 0x1020, 0x20, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const uint64_t addrs[] = { 0x10, 0x1000, 0x100f, 0x1010, 0x1020, 0x103f,
                                      0xffffffff8000102aULL };
    struct xu_symtab *st = open_syms(fx, syms, 2, 0);
    struct xu_symbolizer *sz;
    const struct xu_symbol *sym = (const struct xu_symbol *)1;

    lookup_calls = 0;
    sz = xu_symbolizer_new(st, addrs, 7);
    assert_non_null(sz);
    assert_int_equal(lookup_calls, 7);

    assert_string_equal(xu_symbolizer_name(sz, 0x10, &sym), "0x10");
    assert_null(sym);
    assert_string_equal(xu_symbolizer_name(sz, 0x1000, &sym), "first");
    assert_ptr_equal(sym, xu_symtab_find(st, "first"));
    assert_string_equal(xu_symbolizer_name(sz, 0x100f, NULL), "first");
    assert_string_equal(xu_symbolizer_name(sz, 0x1010, &sym), "0x1010");
    assert_null(sym);
    assert_string_equal(xu_symbolizer_name(sz, 0x1020, NULL), "second");
    assert_string_equal(xu_symbolizer_name(sz, 0x103f, NULL), "second");
    assert_string_equal(xu_symbolizer_name(sz, 0xffffffff8000102aULL, NULL),
                        "0xffffffff8000102a");
    /* asked again and again: no more table lookups */
    assert_string_equal(xu_symbolizer_name(sz, 0x1000, NULL), "first");
    assert_int_equal(lookup_calls, 7);
    /* not one of the addresses given */
    assert_null(xu_symbolizer_name(sz, 0x1001, &sym));
    assert_null(sym);
    assert_null(xu_symbolizer_name(sz, 0, NULL));
    assert_null(xu_symbolizer_name(sz, UINT64_MAX, NULL));
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
}

static void test_symbolizer_without_table(void **state)
{
    static const uint64_t addrs[] = { 0, 0xabc, UINT64_MAX };
    static const uint64_t unsorted[] = { 2, 1 };
    static const uint64_t repeated[] = { 1, 1 };
    struct xu_symbolizer *sz = xu_symbolizer_new(NULL, addrs, 3);
    const struct xu_symbol *sym;

    assert_non_null(sz);
    assert_string_equal(xu_symbolizer_name(sz, 0, &sym), "0x0");
    assert_null(sym);
    assert_string_equal(xu_symbolizer_name(sz, 0xabc, NULL), "0xabc");
    assert_string_equal(xu_symbolizer_name(sz, UINT64_MAX, NULL), "0xffffffffffffffff");
    xu_symbolizer_free(sz);

    sz = xu_symbolizer_new(NULL, NULL, 0);
    assert_non_null(sz);
    assert_null(xu_symbolizer_name(sz, 0, NULL));
    xu_symbolizer_free(sz);

    errno = 0;
    assert_null(xu_symbolizer_new(NULL, unsorted, 2));
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_null(xu_symbolizer_new(NULL, repeated, 2));
    assert_int_equal(errno, EINVAL);
}

/*
 * Filled from frames (xu_symbolizer_add): addresses in any order and
 * repeated, each resolved once, with the answers of the sorted
 * constructor; a table that had to grow (no estimate, or one too low)
 * and one sized right answer alike.
 */
static void test_symbolizer_filled_by_add(void **state)
{
    struct fixture *fx = *state;
    static const struct mkelf_sym syms[] = {
        { "first", 0x1000, 0x10, STT_FUNC, STB_GLOBAL, 0 },
        { "second", 0x1020, 0x20, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const uint64_t frames[] = { 0x103f, 0x10, 0x1000, 0x103f, 0xffffffff8000102aULL,
                                       0x1010, 0x100f, 0x1000, 0x1020, 0x10, 0x103f };
    struct xu_symtab *st = open_syms(fx, syms, 2, 0);
    const struct xu_symbol *sym = (const struct xu_symbol *)1;
    struct xu_symbolizer *sz = xu_symbolizer_new_empty(0);
    size_t i;

    assert_non_null(sz);
    for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
        assert_int_equal(xu_symbolizer_add(sz, frames[i]), 0);
    lookup_calls = 0;
    assert_int_equal(xu_symbolizer_resolve(sz, st, 0, NULL, &fx->log), 0);
    assert_int_equal(lookup_calls, 7);      /* the distinct ones */
    assert_string_equal(xu_symbolizer_name(sz, 0x10, &sym), "0x10");
    assert_null(sym);
    assert_string_equal(xu_symbolizer_name(sz, 0x1000, &sym), "first");
    assert_ptr_equal(sym, xu_symtab_find(st, "first"));
    assert_string_equal(xu_symbolizer_name(sz, 0x100f, NULL), "first");
    assert_string_equal(xu_symbolizer_name(sz, 0x1010, NULL), "0x1010");
    assert_string_equal(xu_symbolizer_name(sz, 0x1020, NULL), "second");
    assert_string_equal(xu_symbolizer_name(sz, 0x103f, NULL), "second");
    assert_string_equal(xu_symbolizer_name(sz, 0xffffffff8000102aULL, NULL),
                        "0xffffffff8000102a");
    /* one chain a symbol without lines, one an unresolved address */
    assert_int_equal(xu_symbolizer_nr_chains(sz), 5);
    assert_int_equal(xu_symbolizer_chain(sz, 0x1000), xu_symbolizer_chain(sz, 0x100f));
    assert_null(xu_symbolizer_name(sz, 0x1001, &sym));
    assert_null(sym);
    assert_int_equal(xu_symbolizer_chain(sz, 0x1001), -1);
    assert_int_equal(xu_symbolizer_index(sz, 0x1001), -1);
    assert_int_equal(xu_symbolizer_add(sz, 0x1001), -EPERM);
    assert_int_equal(xu_symbolizer_resolve(sz, st, 0, NULL, &fx->log), -EPERM);
    xu_symbolizer_free(sz);

    /* made sorted: resolved already */
    sz = xu_symbolizer_new(st, frames + 2, 1);
    assert_non_null(sz);
    assert_int_equal(xu_symbolizer_add(sz, 0x1020), -EPERM);
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
}

/* 20,000 distinct addresses, each twice, into tables sized for none, for
 * too few and for them all: every one is found, with its own hex name. */
static void test_symbolizer_add_grows(void **state)
{
    static const size_t expect[] = { 0, 100, 20000 };
    enum { N = 20000 };
    char want[24];
    size_t e, i;

    (void)state;
    for (e = 0; e < 3; e++) {
        struct xu_symbolizer *sz = xu_symbolizer_new_empty(expect[e]);

        assert_non_null(sz);
        for (i = 0; i < 2 * N; i++)
            assert_int_equal(xu_symbolizer_add(sz, 0xffffffff80000000ULL + (i % N) * 4097), 0);
        assert_int_equal(xu_symbolizer_resolve(sz, NULL, 0, NULL, NULL), 0);
        assert_int_equal(xu_symbolizer_nr_chains(sz), N);
        assert_true(xu_symbolizer_count(sz) * 7 >= N * 10);
        for (i = 0; i < N; i++) {
            snprintf(want, sizeof(want), "0x%llx",
                     (unsigned long long)(0xffffffff80000000ULL + i * 4097));
            assert_string_equal(xu_symbolizer_name(sz, 0xffffffff80000000ULL + i * 4097, NULL),
                                want);
        }
        assert_null(xu_symbolizer_name(sz, 0xffffffff80000001ULL, NULL));
        xu_symbolizer_free(sz);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_boundaries_and_gaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_size_zero_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aliases_prefer_sized_global_func, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skips_non_functions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynsym_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symtab_and_dynsym_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stripped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_elf32_i386, setup, teardown),
        cmocka_unit_test_setup_teardown(test_elf32_arm_thumb, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_elf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_elf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_elf_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbols_far_apart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolizer_resolves_each_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolizer_filled_by_add, setup, teardown),
        cmocka_unit_test(test_symbolizer_add_grows),
        cmocka_unit_test(test_symbolizer_without_table),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
