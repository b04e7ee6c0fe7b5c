/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_linux_memory_image.c - a running kernel's image read from a simulated
 * guest's memory and written as an ELF: a crafted kernel (text, a gap,
 * .rodata with its kallsyms, notes and BTF, the ORC tables, init freed),
 * the hostile ones (ranges outside what was read or backwards, no kallsyms,
 * nothing mapped, a far page past the gap), and the lab's Debian 6.1
 * kernel laid into the guest section by section when the download cache
 * holds it: the file then gives what the vmlinux gives.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <gelf.h>
#include <libelf.h>

#include "lab_kernel.h"
#include "mkkallsyms.h"
#include "sim_guest.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_kallsyms.h"
#include "symbols/xu_linux_image.h"
#include "symbols/xu_linux_memory_image.h"
#include "symbols/xu_symbols.h"
#include "unwind/xu_orc.h"

#define T        0xffffffff81000000ULL      /* _text */
#define TEXT_LEN 0x3000ULL
#define NOTES_LEN 0x24ULL
#define BTF_LEN  0x40ULL

/* Where the crafted kernel's parts lie: its .rodata holds the notes, then BTF at
 * +0x40, then kallsyms at +0x100. */
struct where {
    uint64_t ro, orc, init;
};
/* in the simulated guest: the gaps a real kernel has between its parts */
static const struct where in_sim = { T + 0x200000, T + 0x400000, T + 0x600000 };
/* in a fuzz seed: one unmapped page after the text, the rest packed */
static const struct where in_seed = { T + 0x4000, T + 0x6000, T + 0x7000 };
#define R        (in_sim.ro)
#define NOTES    R
#define BTF      (R + 0x40)
#define KS       (R + 0x100)
#define O        (in_sim.orc)
#define I        (in_sim.init)

/* What a test changes in the crafted kernel. */
struct damage {
    uint64_t etext;             /* 0: T + TEXT_LEN; else at most T + 0x100 */
    uint64_t stop_btf;          /* 0: BTF + BTF_LEN; else above __init_end */
    bool no_orc_unwind;         /* no __start_orc_unwind */
    bool no_kallsyms;
};

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_vcpu_regs r;
    uint64_t end_rodata;
    int fd;
    char *path;
    struct xu_linux_memory_image img;
    char err[256];
};

static const uint8_t build_id[20] = { 0xb1, 0x1d, 2, 3, 4, 5, 6, 7, 8, 9,
                                      10, 11, 12, 13, 14, 15, 16, 17, 18, 0x19 };

static int setup_frames(void **state, size_t frames)
{
    static struct fixture f;
    uint64_t pc = T + 0x100;

    memset(&f, 0, sizeof(f));
    f.fd = -1;
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, frames), 0);
    assert_int_equal(xu_sim_target_open(f.g.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    assert_int_equal(sim_guest_chain(&f.g, 0, &pc, 1, &f.r), 0);
    xu_mem_begin(f.m);
    xu_mem_set_context(f.m, &f.r);
    *state = &f;
    return 0;
}

static int setup(void **state)
{
    return setup_frames(state, 4096);
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    if (!f)
        return 0;       /* skipped before its setup */
    if (f->fd >= 0)
        close(f->fd);
    free(f->path);
    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

/* Mapping a page again gives it a new frame: each range is mapped once. */
static void map(struct fixture *f, uint64_t va, uint64_t len)
{
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, va, len), 0);
}

static void put(struct fixture *f, uint64_t va, const void *p, size_t len)
{
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, va, p, len), 0);
}

/* The kernel's linker symbols and two functions, by address; *end: __end_rodata's
 * index, whose address (here where kallsyms starts) mkkallsyms_ending() sets. */
static size_t kernel_syms(const struct damage *d, const struct where *w, struct mkks_sym *s,
                          size_t *end)
{
    size_t n = 0;

    s[n++] = (struct mkks_sym){ "_text", T, 'T' };
    s[n++] = (struct mkks_sym){ "startup_64", T, 'T' };
    if (d->etext)               /* kallsyms is sorted */
        s[n++] = (struct mkks_sym){ "_etext", d->etext, 'T' };
    s[n++] = (struct mkks_sym){ "func_a", T + 0x100, 'T' };
    s[n++] = (struct mkks_sym){ "func_b", T + 0x800, 't' };
    if (!d->etext)
        s[n++] = (struct mkks_sym){ "_etext", T + TEXT_LEN, 'T' };
    s[n++] = (struct mkks_sym){ "__start_rodata", w->ro, 'D' };
    s[n++] = (struct mkks_sym){ "__start_notes", w->ro, 'R' };
    s[n++] = (struct mkks_sym){ "__stop_notes", w->ro + NOTES_LEN, 'R' };
    s[n++] = (struct mkks_sym){ "__start_BTF", w->ro + 0x40, 'R' };
    if (!d->stop_btf)
        s[n++] = (struct mkks_sym){ "__stop_BTF", w->ro + 0x40 + BTF_LEN, 'R' };
    *end = n;
    s[n++] = (struct mkks_sym){ "__end_rodata", w->ro + 0x100, 'D' };
    s[n++] = (struct mkks_sym){ "__start_orc_unwind_ip", w->orc, 'R' };
    s[n++] = (struct mkks_sym){ "__stop_orc_unwind_ip", w->orc + 8, 'R' };
    if (!d->no_orc_unwind)
        s[n++] = (struct mkks_sym){ "__start_orc_unwind", w->orc + 8, 'R' };
    s[n++] = (struct mkks_sym){ "__stop_orc_unwind", w->orc + 20, 'R' };
    s[n++] = (struct mkks_sym){ "__init_begin", w->init, 'D' };
    s[n++] = (struct mkks_sym){ "__init_end", w->init + 0x10000, 'D' };
    if (d->stop_btf)            /* kallsyms is sorted */
        s[n++] = (struct mkks_sym){ "__stop_BTF", d->stop_btf, 'R' };
    return n;
}

/* The crafted kernel's parts: text, notes, BTF, ORC, and its kallsyms (malloc'd,
 * ks_len bytes at .rodata + 0x100), .rodata ending at the page after them. */
struct parts {
    uint8_t text[TEXT_LEN], note[NOTES_LEN], btf[BTF_LEN], orc[20];
    uint8_t *ks;
    size_t ks_len;
    uint64_t end_rodata;
};

static void make_parts(const struct damage *d, const struct where *w, struct parts *p)
{
    static const uint8_t orc[20] = { 0, 0, 0, 0, 0x10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                     10, 11, 12 };
    struct mkks_sym s[24];
    size_t i, n, end;

    for (i = 0; i < TEXT_LEN; i++)
        p->text[i] = (uint8_t)(i * 7 + 3);
    memcpy(p->note, "\4\0\0\0\24\0\0\0\3\0\0\0GNU\0", 16);
    memcpy(p->note + 16, build_id, sizeof(build_id));
    memset(p->btf, 0xbf, sizeof(p->btf));
    memcpy(p->orc, orc, sizeof(orc));
    p->ks = NULL;
    p->ks_len = 0;
    p->end_rodata = w->ro + 0x1000;
    if (d->no_kallsyms)
        return;
    n = kernel_syms(d, w, s, &end);
    p->ks = mkkallsyms_ending(s, n, MKKS_SEQS, end, w->ro + 0x100, 0x1000, &p->ks_len);
    assert_non_null(p->ks);
    p->end_rodata = s[end].addr;
}

/* The crafted kernel into the guest. */
static void put_kernel(struct fixture *f, const struct damage *d)
{
    struct parts p;

    make_parts(d, &in_sim, &p);
    f->end_rodata = p.end_rodata;
    map(f, T, TEXT_LEN);
    map(f, R, p.end_rodata - R);
    map(f, O, 0x1000);
    put(f, T, p.text, TEXT_LEN);
    put(f, NOTES, p.note, NOTES_LEN);
    put(f, BTF, p.btf, BTF_LEN);
    put(f, O, p.orc, sizeof(p.orc));
    if (p.ks)
        put(f, KS, p.ks, p.ks_len);
    free(p.ks);
}

static int read_image(struct fixture *f, uint64_t anchor)
{
    return xu_linux_memory_image_read(f->m, anchor, &f->fd, &f->path, &f->img, f->err,
                                      sizeof(f->err));
}

/* The section called name in the ELF at path, its header into *sh and its bytes
 * (malloc'd) into *data; false when there is none. */
static bool section(const char *path, const char *name, GElf_Shdr *sh, uint8_t **data)
{
    size_t len, shstrndx;
    uint8_t *file = lab_read_file(path, &len);
    Elf_Scn *scn = NULL;
    bool found = false;
    Elf *e;

    assert_non_null(file);
    elf_version(EV_CURRENT);
    e = elf_memory((char *)file, len);
    assert_non_null(e);
    assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
    while (!found && (scn = elf_nextscn(e, scn))) {
        assert_non_null(gelf_getshdr(scn, sh));
        found = strcmp(elf_strptr(e, shstrndx, sh->sh_name), name) == 0;
    }
    if (found && data) {
        *data = malloc(sh->sh_size ? sh->sh_size : 1);
        assert_non_null(*data);
        if (sh->sh_type != SHT_NOBITS)
            memcpy(*data, file + sh->sh_offset, sh->sh_size);
    }
    elf_end(e);
    free(file);
    return found;
}

static void expect_section(const char *path, const char *name, uint32_t type, uint64_t addr,
                           uint64_t size)
{
    GElf_Shdr sh;

    if (!section(path, name, &sh, NULL))
        fail_msg("no section %s", name);
    assert_int_equal(sh.sh_type, type);
    assert_int_equal(sh.sh_addr, addr);
    assert_int_equal(sh.sh_size, size);
}

/* Text, the gap, .rodata, ORC: every range named by kallsyms, at the guest's
 * addresses, with the guest's bytes; the symbols and the build-id read back from
 * the file as from a vmlinux. */
static void test_image(void **state)
{
    struct fixture *f = *state;
    static const struct damage none;
    const struct xu_symbol *sym;
    struct xu_symtab *st;
    const uint8_t *id;
    uint8_t *data;
    GElf_Shdr sh;
    size_t len;

    put_kernel(f, &none);
    assert_int_equal(read_image(f, T + 0x100), 0);
    assert_int_equal(f->img.start, T);
    assert_int_equal(f->img.text, T);
    assert_int_equal(f->img.etext, T + TEXT_LEN);
    assert_int_equal(f->img.read, O + 0x1000 - T);
    /* the text-to-rodata gap, the rodata-to-ORC one */
    assert_int_equal(f->img.unmapped, (R - T - TEXT_LEN) + (O - f->end_rodata));
    assert_true(f->img.notes && f->img.btf && f->img.orc);
    assert_int_equal(f->img.symbols, 17);

    expect_section(f->path, ".text", SHT_PROGBITS, T, TEXT_LEN);
    expect_section(f->path, ".rodata", SHT_PROGBITS, R, f->end_rodata - R);
    expect_section(f->path, ".notes", SHT_NOTE, NOTES, NOTES_LEN);
    expect_section(f->path, ".BTF", SHT_PROGBITS, BTF, BTF_LEN);
    expect_section(f->path, ".orc_unwind_ip", SHT_PROGBITS, O, 8);
    expect_section(f->path, ".orc_unwind", SHT_PROGBITS, O + 8, 12);
    expect_section(f->path, XU_ELF_FREED_CODE_SECTION, SHT_NOBITS, I, 0x10000);
    assert_false(section(f->path, ".orc_header", &sh, NULL));
    assert_true(section(f->path, ".text", &sh, &data));
    assert_int_equal(sh.sh_flags, SHF_ALLOC | SHF_EXECINSTR);
    assert_int_equal(data[0x100], (uint8_t)(0x100 * 7 + 3));
    free(data);

    assert_int_equal(xu_symtab_open_flags(f->path, EM_X86_64, 0, NULL, &st), 0);
    assert_string_equal(xu_symtab_origin(st), "kallsyms");
    sym = xu_symtab_lookup(st, T + 0x110);
    assert_non_null(sym);
    assert_string_equal(sym->name, "func_a");
    sym = xu_symtab_lookup(st, T + 0x2fff);
    assert_non_null(sym);
    assert_string_equal(sym->name, "func_b");
    id = xu_symtab_build_id(st, &len);
    assert_int_equal(len, sizeof(build_id));
    assert_memory_equal(id, build_id, sizeof(build_id));
    xu_symtab_free(st);
}

/* No anchor, or one the guest does not map: the window's first mapped block. */
static void test_no_anchor(void **state)
{
    struct fixture *f = *state;
    static const struct damage none;

    put_kernel(f, &none);
    assert_int_equal(read_image(f, 0), 0);
    assert_int_equal(f->img.start, T);
    close(f->fd);
    free(f->path);
    assert_int_equal(read_image(f, I + 0x100), 0);
    assert_int_equal(f->img.start, T);
    close(f->fd);
    free(f->path);
    f->path = NULL;
    /* an anchor outside the window is not taken */
    assert_int_equal(read_image(f, 0xffff888000000000ULL), 0);
    assert_int_equal(f->img.start, T);
}

/* A BTF whose end lies past what was read is left out, the rest kept; ORC needs
 * both of its tables. */
static void test_ranges_outside(void **state)
{
    struct fixture *f = *state;
    const struct damage d = { .stop_btf = I + 0x20000, .no_orc_unwind = true };
    GElf_Shdr sh;

    put_kernel(f, &d);
    assert_int_equal(read_image(f, T), 0);
    assert_false(f->img.btf);
    assert_false(f->img.orc);
    assert_true(f->img.notes);
    assert_false(section(f->path, ".BTF", &sh, NULL));
    assert_false(section(f->path, ".orc_unwind_ip", &sh, NULL));
    assert_false(section(f->path, ".orc_unwind", &sh, NULL));
    expect_section(f->path, ".text", SHT_PROGBITS, T, TEXT_LEN);
}

/* A text that ends before it starts is no text: nothing is written. */
static void test_text_backwards(void **state)
{
    struct fixture *f = *state;
    const struct damage d = { .etext = T };

    put_kernel(f, &d);
    assert_int_equal(read_image(f, T), -ENODATA);
    assert_non_null(strstr(f->err, "no _text and _etext"));
    assert_int_equal(f->fd, -1);
    assert_null(f->path);
}

static void test_no_kallsyms(void **state)
{
    struct fixture *f = *state;
    const struct damage d = { .no_kallsyms = true };

    put_kernel(f, &d);
    assert_int_equal(read_image(f, T), -ENODATA);
    assert_non_null(strstr(f->err, "no kallsyms tables"));
    assert_int_equal(f->fd, -1);
}

static void test_nothing_mapped(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(read_image(f, T), -ENOENT);
    assert_non_null(strstr(f->err, "maps nothing"));
    assert_int_equal(f->fd, -1);
}

/* A page mapped past XU_LINUX_MEM_IMAGE_GAP unmapped bytes is not read. */
static void test_gap_ends_read(void **state)
{
    struct fixture *f = *state;
    static const struct damage none;
    uint8_t page[4096];

    put_kernel(f, &none);
    memset(page, 0x5a, sizeof(page));
    map(f, O + 0x1000 + XU_LINUX_MEM_IMAGE_GAP, sizeof(page));
    put(f, O + 0x1000 + XU_LINUX_MEM_IMAGE_GAP, page, sizeof(page));
    assert_int_equal(read_image(f, T), 0);
    assert_int_equal(f->img.read, O + 0x1000 - T);
    /* one page short of the gap is read, and the far page right after it */
    close(f->fd);
    free(f->path);
    map(f, O + XU_LINUX_MEM_IMAGE_GAP, sizeof(page));
    put(f, O + XU_LINUX_MEM_IMAGE_GAP, page, sizeof(page));
    assert_int_equal(read_image(f, T), 0);
    assert_int_equal(f->img.read, O + XU_LINUX_MEM_IMAGE_GAP + 0x2000 - T);
}

/* A seed of tests/fuzz/fuzz_memory_image: its header (page 3, after the text,
 * not mapped; the anchor in page 1; a page mapped far past the region or not),
 * then the crafted kernel packed as in_seed lays it. */
static void write_seed(const char *dir, const char *name, const struct damage *d,
                       uint16_t far)
{
    const struct { uint32_t unmapped; uint16_t anchor, far; } hdr = { 1u << 3, 1, far };
    static uint8_t region[0x7000];
    const uint64_t ro = in_seed.ro - T;
    struct parts p;
    char path[512];
    FILE *fp;

    make_parts(d, &in_seed, &p);
    assert_true(p.end_rodata <= in_seed.orc);
    memset(region, 0, sizeof(region));
    memcpy(region, p.text, TEXT_LEN);
    memcpy(region + ro, p.note, NOTES_LEN);
    memcpy(region + ro + 0x40, p.btf, BTF_LEN);
    memcpy(region + ro + 0x100, p.ks, p.ks_len);
    memcpy(region + (in_seed.orc - T), p.orc, sizeof(p.orc));
    free(p.ks);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(&hdr, sizeof(hdr), 1, fp), 1);
    assert_int_equal(fwrite(region, sizeof(region), 1, fp), 1);
    fclose(fp);
}

/* XU_MEMIMAGE_CORPUS=DIR: the harness's seeds: the kernel, with a page mapped
 * within the gap that ends the read and one past it, and with ranges outside. */
static void test_write_corpus(void **state)
{
    const struct damage none = { 0 }, ranges = { .stop_btf = in_seed.init + 0x20000,
                                                 .no_orc_unwind = true };
    const char *dir = getenv("XU_MEMIMAGE_CORPUS");

    (void)state;
    if (!dir)
        skip();
    write_seed(dir, "kernel", &none, 0);
    write_seed(dir, "kernel_near_page", &none, 0x100);
    write_seed(dir, "kernel_far_page", &none, 0x600);
    write_seed(dir, "ranges_outside", &ranges, 0);
}

/* Debian's kernel laid into the guest as Xen's loader lays it (each allocated
 * section at its address; .bss and the per-CPU template are not): what the file
 * read back gives must be what the vmlinux gives. */
static void lay_sections(struct fixture *f, const uint8_t *v, size_t vlen)
{
    Elf *e = elf_memory((char *)v, vlen);
    uint64_t lo = 0, hi = 0;
    Elf_Scn *scn;
    GElf_Shdr sh;
    int pass;

    assert_non_null(e);
    /* the runs of pages the sections share mapped first, then the bytes */
    for (pass = 0; pass < 2; pass++) {
        for (scn = NULL; (scn = elf_nextscn(e, scn));) {
            assert_non_null(gelf_getshdr(scn, &sh));
            if (sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size ||
                sh.sh_addr < 0xffffffff80000000ULL)
                continue;
            if (pass == 1) {
                put(f, sh.sh_addr, v + sh.sh_offset, sh.sh_size);
                continue;
            }
            assert_true(sh.sh_addr >= lo);         /* in address order */
            if (hi && (sh.sh_addr & ~0xfffULL) > hi) {
                map(f, lo, hi - lo);
                lo = 0;
            }
            if (!lo)
                lo = sh.sh_addr & ~0xfffULL;
            hi = (sh.sh_addr + sh.sh_size + 0xfff) & ~0xfffULL;
        }
        if (pass == 0)
            map(f, lo, hi - lo);
    }
    elf_end(e);
}

static void same_section(const char *vmlinux, const char *mem, const char *name)
{
    GElf_Shdr a, b;
    uint8_t *da, *db;

    assert_true(section(vmlinux, name, &a, &da));
    assert_true(section(mem, name, &b, &db));
    assert_int_equal(a.sh_addr, b.sh_addr);
    assert_int_equal(a.sh_size, b.sh_size);
    assert_memory_equal(da, db, a.sh_size);
    free(da);
    free(db);
}

static void test_lab_kernel(void **state)
{
    struct fixture *f;
    char path[] = "/tmp/xu-test-memimage-XXXXXX", why[256];
    struct xu_orc_table *from_file, *from_mem;
    struct xu_orc_stats sf, sm;
    struct xu_linux_image ifile, imem;
    struct xu_symtab *stf, *stm;
    const struct xu_symbol *entry;
    uint8_t *v;
    size_t vlen;

    if (lab_kernel_file(path, why, sizeof(why)) < 0) {
        print_message("skipped: %s\n", why);
        skip();
    }
    v = lab_read_file(path, &vlen);
    assert_non_null(v);
    setup_frames(state, 24576);
    f = *state;
    lay_sections(f, v, vlen);
    free(v);
    assert_int_equal(xu_symtab_open_flags(path, EM_X86_64, 0, NULL, &stf), 0);
    entry = xu_symtab_find(stf, "entry_SYSCALL_64");
    assert_non_null(entry);

    assert_int_equal(read_image(f, entry->start), 0);
    print_message("Debian 6.1 from memory: %zu symbols (%s), text %#llx-%#llx, %llu KiB read, "
                  "%llu KiB of it unmapped\n", f->img.symbols, f->img.layout,
                  (unsigned long long)f->img.text, (unsigned long long)f->img.etext,
                  (unsigned long long)f->img.read >> 10,
                  (unsigned long long)f->img.unmapped >> 10);
    assert_int_equal(f->img.symbols, 94266);
    assert_true(f->img.notes && f->img.btf && f->img.orc);
    same_section(path, f->path, ".text");
    same_section(path, f->path, ".notes");
    same_section(path, f->path, ".BTF");
    same_section(path, f->path, ".orc_unwind_ip");
    same_section(path, f->path, ".orc_unwind");

    /* the symbols, the ORC tables and the layouts as the vmlinux gives them */
    assert_int_equal(xu_symtab_open_flags(f->path, EM_X86_64, 0, NULL, &stm), 0);
    assert_int_equal(xu_symtab_count(stm), xu_symtab_count(stf));
    assert_string_equal(xu_symtab_lookup(stm, entry->start + 1)->name, "entry_SYSCALL_64");
    assert_int_equal(xu_orc_open(path, NULL, &from_file), 0);
    assert_int_equal(xu_orc_open(f->path, NULL, &from_mem), 0);
    xu_orc_get_stats(from_file, &sf);
    xu_orc_get_stats(from_mem, &sm);
    assert_int_equal(sm.entries, sf.entries);
    assert_int_equal(sm.layout, sf.layout);
    assert_int_equal(xu_linux_image_open(path, &ifile), 0);
    assert_int_equal(xu_linux_image_open(f->path, &imem), 0);
    assert_int_equal(imem.task_rc, 0);
    assert_int_equal(imem.modules_rc, 0);
    assert_memory_equal(&imem.task, &ifile.task, offsetof(struct xu_linux_task_layout,
                                                          current_from));
    assert_int_equal(imem.modules.modules, ifile.modules.modules);
    assert_int_equal(imem.modules.orc_ip, ifile.modules.orc_ip);
    xu_orc_free(from_file);
    xu_orc_free(from_mem);
    xu_symtab_free(stf);
    xu_symtab_free(stm);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_image, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_anchor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ranges_outside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_text_backwards, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_kallsyms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nothing_mapped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gap_ends_read, setup, teardown),
        cmocka_unit_test(test_write_corpus),
        cmocka_unit_test_teardown(test_lab_kernel, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
