/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_btf.c - the BTF reader on crafted type data (members in anonymous
 * structs and unions, typedefs, arrays, bit fields, hostile records), the
 * Linux task layout from it and a crafted kallsyms, and both on Debian's
 * own kernel when the lab's download cache holds it.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lab_kernel.h"
#include "mkelf.h"
#include "symbols/xu_btf.h"
#include "symbols/xu_kallsyms.h"

/* Debian 6.1.0-56's struct task_struct, as its own code reads it (objdump
 * of the vmlinux): __get_task_comm() hands tsk + 0xba0 to strscpy(), and
 * the sched_process_fork tracepoint reads 4 bytes at 0x970 and the comm at
 * 0xba0 of the parent and of the child. */
#define DEBIAN_PID_OFFSET 0x970
#define DEBIAN_COMM_OFFSET 0xba0

/* ------------------------------------------------------------ a builder */

struct bb {
    uint8_t types[4096];
    size_t tlen;
    char strs[1024];
    size_t slen;
    uint32_t ids;
    uint8_t out[8192];
};

static void bb_init(struct bb *b)
{
    memset(b, 0, sizeof(*b));
    b->slen = 1;                /* offset 0: the empty name */
}

static uint32_t bb_str(struct bb *b, const char *s)
{
    uint32_t at = (uint32_t)b->slen;

    assert_true(b->slen + strlen(s) + 1 <= sizeof(b->strs));
    memcpy(b->strs + b->slen, s, strlen(s) + 1);
    b->slen += strlen(s) + 1;
    return at;
}

static void bb_u32(struct bb *b, uint32_t v)
{
    assert_true(b->tlen + 4 <= sizeof(b->types));
    memcpy(b->types + b->tlen, &v, 4);
    b->tlen += 4;
}

/* A type record; what its kind adds follows with bb_u32(). */
static uint32_t bb_type(struct bb *b, const char *name, unsigned int kind, unsigned int vlen,
                        bool kflag, uint32_t size_or_type)
{
    bb_u32(b, name ? bb_str(b, name) : 0);
    bb_u32(b, (kflag ? 0x80000000u : 0) | kind << 24 | vlen);
    bb_u32(b, size_or_type);
    return ++b->ids;
}

static void bb_member(struct bb *b, const char *name, uint32_t type, uint32_t bit_off)
{
    bb_u32(b, name ? bb_str(b, name) : 0);
    bb_u32(b, type);
    bb_u32(b, bit_off);
}

/* header + types + strings into b->out; its length */
static size_t bb_finish(struct bb *b)
{
    uint32_t h[6] = { 0, 24, 0, (uint32_t)b->tlen, (uint32_t)b->tlen, (uint32_t)b->slen };
    uint16_t magic = 0xeb9f;

    memcpy(h, &magic, 2);
    ((uint8_t *)h)[2] = 1;
    memcpy(b->out, h, 24);
    memcpy(b->out + 24, b->types, b->tlen);
    memcpy(b->out + 24 + b->tlen, b->strs, b->slen);
    return 24 + b->tlen + b->slen;
}

/*
 * A little kernel's types:
 *   struct task_struct { int state; struct { int flags; pid_t x; };
 *                        pid_t pid (128); pid_t tgid; const char comm[16] (192); }
 *   struct pcpu_hot { union { struct { int preempt_count;
 *                     struct task_struct *current_task (8); }; char pad[64]; }; }
 *   struct bits { unsigned b:3 at bit 5 }   (kind_flag: bit fields)
 *   struct loop { struct loop; struct loop; }  (anonymous members of itself)
 */
static size_t little_kernel(struct bb *b)
{
    uint32_t t_int, t_pid, t_char, t_comm, t_const, t_anon, t_task, t_ptr, t_anon2, t_pad,
             t_union, loop;

    bb_init(b);
    t_int = bb_type(b, "int", XU_BTF_INT, 0, false, 4);
    bb_u32(b, 32);
    t_pid = bb_type(b, "pid_t", XU_BTF_TYPEDEF, 0, false, t_int);
    t_char = bb_type(b, "char", XU_BTF_INT, 0, false, 1);
    bb_u32(b, 8);
    t_comm = bb_type(b, NULL, XU_BTF_ARRAY, 0, false, 0);
    bb_u32(b, t_char);
    bb_u32(b, t_int);
    bb_u32(b, 16);
    t_const = bb_type(b, NULL, XU_BTF_CONST, 0, false, t_comm);
    t_anon = bb_type(b, NULL, XU_BTF_STRUCT, 2, false, 8);
    bb_member(b, "flags", t_int, 0);
    bb_member(b, "x", t_pid, 32);
    t_task = bb_type(b, "task_struct", XU_BTF_STRUCT, 5, false, 256);
    bb_member(b, "state", t_int, 0);
    bb_member(b, NULL, t_anon, 64);
    bb_member(b, "pid", t_pid, 128 * 8);
    bb_member(b, "tgid", t_pid, 132 * 8);
    bb_member(b, "comm", t_const, 192 * 8);
    t_ptr = bb_type(b, NULL, XU_BTF_PTR, 0, false, t_task);
    t_anon2 = bb_type(b, NULL, XU_BTF_STRUCT, 2, false, 16);
    bb_member(b, "preempt_count", t_int, 0);
    bb_member(b, "current_task", t_ptr, 64);
    t_pad = bb_type(b, NULL, XU_BTF_ARRAY, 0, false, 0);
    bb_u32(b, t_char);
    bb_u32(b, t_int);
    bb_u32(b, 64);
    t_union = bb_type(b, NULL, XU_BTF_UNION, 2, false, 64);
    bb_member(b, NULL, t_anon2, 0);
    bb_member(b, "pad", t_pad, 0);
    bb_type(b, "pcpu_hot", XU_BTF_STRUCT, 1, false, 64);
    bb_member(b, NULL, t_union, 0);
    bb_type(b, "bits", XU_BTF_STRUCT, 1, true, 4);
    bb_member(b, "b", t_int, 3u << 24 | 5);
    loop = b->ids + 1;
    bb_type(b, "loop", XU_BTF_STRUCT, 2, false, 8);
    bb_member(b, NULL, loop, 0);
    bb_member(b, NULL, loop, 0);
    return bb_finish(b);
}

static void expect_member(const struct xu_btf *btf, const char *st, const char *name,
                          uint32_t offset, uint32_t size)
{
    struct xu_btf_member m;
    uint32_t id = xu_btf_find(btf, XU_BTF_STRUCT, st);

    assert_true(id != 0);
    if (xu_btf_member(btf, id, name, &m) < 0)
        fail_msg("struct %s has no member %s", st, name);
    assert_int_equal(m.offset, offset);
    assert_int_equal(m.size, size);
}

/* XU_BTF_CORPUS=DIR: the little kernel's BTF becomes fuzz_btf's seed. */
static void keep_for_corpus(const uint8_t *p, size_t len, const char *name)
{
    const char *dir = getenv("XU_BTF_CORPUS");
    char path[512];
    FILE *fp;

    if (!dir)
        return;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void test_members(void **state)
{
    struct bb b;
    size_t len = little_kernel(&b);
    struct xu_btf *btf = NULL;
    struct xu_btf_member m;
    char err[160];

    (void)state;
    keep_for_corpus(b.out, len, "little_kernel");
    assert_int_equal(xu_btf_read(b.out, len, &btf, err, sizeof(err)), 0);
    assert_int_equal(xu_btf_nr_types(btf), 14);
    expect_member(btf, "task_struct", "pid", 128, 4);
    expect_member(btf, "task_struct", "tgid", 132, 4);
    expect_member(btf, "task_struct", "comm", 192, 16);     /* const char[16] */
    expect_member(btf, "task_struct", "x", 12, 4);          /* in the anonymous struct */
    expect_member(btf, "pcpu_hot", "current_task", 8, 8);   /* union, then struct */
    expect_member(btf, "pcpu_hot", "pad", 0, 64);
    assert_int_equal(xu_btf_member(btf, xu_btf_find(btf, XU_BTF_STRUCT, "task_struct"),
                                   "nothing", &m), -ENOENT);
    /* a bit field has no byte offset to read at */
    assert_int_equal(xu_btf_member(btf, xu_btf_find(btf, XU_BTF_STRUCT, "bits"), "b", &m),
                     -EBADMSG);
    /* a struct holding itself: the search is bounded, and finds nothing */
    assert_true(xu_btf_member(btf, xu_btf_find(btf, XU_BTF_STRUCT, "loop"), "x", &m) < 0);
    assert_int_equal(xu_btf_find(btf, XU_BTF_UNION, "task_struct"), 0);
    assert_int_equal(xu_btf_find(btf, XU_BTF_STRUCT, "mm_struct"), 0);
    xu_btf_free(btf);
}

/* Data that is not BTF, or whose records do not lie in it, is refused. */
static void test_hostile(void **state)
{
    struct bb b;
    size_t len = little_kernel(&b);
    struct xu_btf *btf = NULL;
    uint8_t copy[8192];
    uint32_t v;
    char err[160];

    (void)state;
    memcpy(copy, b.out, len);
    copy[0] ^= 1;                               /* magic */
    assert_int_equal(xu_btf_read(copy, len, &btf, err, sizeof(err)), -EBADMSG);
    assert_null(btf);
    memcpy(copy, b.out, len);
    v = (uint32_t)b.tlen + 1;                   /* types past the end */
    memcpy(copy + 20, &v, 4);
    assert_int_equal(xu_btf_read(copy, len, &btf, err, sizeof(err)), -EBADMSG);
    memcpy(copy, b.out, len);
    copy[24 + 7] = 25;                          /* the first type's kind: unknown */
    assert_int_equal(xu_btf_read(copy, len, &btf, err, sizeof(err)), -EBADMSG);
    assert_non_null(strstr(err, "kind 25"));
    memcpy(copy, b.out, len);
    v = 0xffff;                                 /* the last type's vlen: past the section */
    memcpy(copy + 24 + b.tlen - 36 + 4, &v, 2);
    assert_int_equal(xu_btf_read(copy, len, &btf, err, sizeof(err)), -EBADMSG);
    assert_non_null(strstr(err, "type 14"));
    memcpy(copy, b.out, len);
    copy[len - 1] = 'x';                        /* strings not terminated */
    assert_int_equal(xu_btf_read(copy, len, &btf, err, sizeof(err)), -EBADMSG);
    assert_int_equal(xu_btf_read(b.out, 10, &btf, err, sizeof(err)), -EBADMSG);
    /* cut anywhere, never read past the cut */
    for (v = 24; v < len; v += 7)
        if (xu_btf_read(b.out, v, &btf, err, sizeof(err)) == 0)
            xu_btf_free(btf);
}

static void test_task_layout(void **state)
{
    struct bb b;
    size_t len = little_kernel(&b);
    struct xu_btf *btf = NULL;
    struct xu_linux_task_layout l;
    char pool[] = "current_task\0pcpu_hot\0schedule";
    struct xu_kallsyms_sym syms[] = {
        { 0x1fb80, 0, 'A' }, { 0x2a000, 13, 'A' }, { 0xffffffff81000000ULL, 22, 'T' },
    };
    struct xu_kallsyms k = { syms, 3, pool, "test" };
    char err[160];

    (void)state;
    assert_int_equal(xu_btf_read(b.out, len, &btf, err, sizeof(err)), 0);
    assert_int_equal(xu_linux_task_layout(btf, &k, &l, err, sizeof(err)), 0);
    assert_int_equal(l.pid_offset, 128);
    assert_int_equal(l.comm_offset, 192);
    assert_int_equal(l.comm_size, 16);
    assert_int_equal(l.current_task, 0x1fb80);
    assert_string_equal(l.current_from, "current_task");
    /* 6.2 on: no current_task symbol, pcpu_hot's member */
    syms[0].name = 22;
    assert_int_equal(xu_linux_task_layout(btf, &k, &l, err, sizeof(err)), 0);
    assert_int_equal(l.current_task, 0x2a000 + 8);
    assert_string_equal(l.current_from, "pcpu_hot.current_task");
    /* neither */
    syms[1].name = 22;
    assert_int_equal(xu_linux_task_layout(btf, &k, &l, err, sizeof(err)), -ENOENT);
    assert_non_null(strstr(err, "current_task"));
    assert_int_equal(xu_linux_task_layout(btf, NULL, &l, err, sizeof(err)), 0);
    assert_null(l.current_from);
    xu_btf_free(btf);
}


/* The types found as a vmlinux holds them: a .BTF section. */
static void test_from_elf(void **state)
{
    struct bb b;
    size_t len = little_kernel(&b), size = 0;
    const uint64_t at = 0xffffffff82000000ULL;
    const struct mkelf_section secs[] = {
        { ".text", 0xffffffff81000000ULL, 0x100, false },
        { ".BTF", at, len, true },
    };
    const struct mkelf_patch patch = { at, b.out, len };
    char path[] = "/tmp/test_btf_XXXXXX";
    struct xu_btf *btf = NULL;
    uint8_t *image;
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write_patched(path, secs, 2, &patch, 1, NULL, 0, 0), 0);
    image = lab_read_file(path, &size);
    assert_non_null(image);
    keep_for_corpus(image, size, "vmlinux_btf");
    assert_int_equal(xu_btf_from_elf(image, size, &btf, NULL, 0), 0);
    expect_member(btf, "task_struct", "comm", 192, 16);
    xu_btf_free(btf);
    free(image);
    assert_int_equal(mkelf_write_patched(path, secs, 1, NULL, 0, NULL, 0, 0), 0);
    image = lab_read_file(path, &size);
    assert_non_null(image);
    assert_int_equal(xu_btf_from_elf(image, size, &btf, NULL, 0), -ENODATA);
    free(image);
    unlink(path);
}

/* ------------------------------------------------- Debian's own kernel */

/* The kallsyms of the vmlinux, from its .rodata. */
static void kallsyms_of(const uint8_t *vmlinux, size_t vlen, struct xu_kallsyms *k)
{
    Elf *elf;
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    char err[160];
    int rc = -1;

    elf_version(EV_CURRENT);
    elf = elf_memory((char *)vmlinux, vlen);
    assert_non_null(elf);
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn)) && rc < 0) {
        GElf_Shdr sh;
        const char *name;

        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            strcmp(name, ".rodata") != 0)
            continue;
        rc = xu_kallsyms_read(vmlinux + sh.sh_offset, (size_t)sh.sh_size, k, err,
                              sizeof(err));
    }
    elf_end(elf);
    if (rc < 0)
        fail_msg("no kallsyms in Debian's kernel");
}

/*
 * The lab's Debian 6.1 kernel: its .BTF read whole, struct task_struct's
 * pid and comm where the kernel's own code reads them (DEBIAN_*_OFFSET),
 * and the per-CPU current_task where its System.map puts it.
 */
static void test_debian_kernel(void **state)
{
    char map[512], err[256], line[256], type, name[128];
    uint8_t *vmlinux;
    size_t vlen = 0;
    struct xu_btf *btf = NULL;
    struct xu_kallsyms k;
    struct xu_linux_task_layout l;
    unsigned long long want = 0, a;
    FILE *fp;

    (void)state;
    lab_kernel_map_path(map, sizeof(map));
    fp = fopen(map, "r");
    if (!fp) {
        print_message("skipped: no Debian 6.1.0-56 System.map in the cache (%s)\n", map);
        skip();
    }
    while (fgets(line, sizeof(line), fp))
        if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 &&
            strcmp(name, "current_task") == 0)
            want = a;
    fclose(fp);
    vmlinux = lab_kernel_vmlinux(&vlen, err, sizeof(err));
    if (!vmlinux) {
        print_message("skipped: %s\n", err);
        skip();
    }
    if (xu_btf_from_elf(vmlinux, vlen, &btf, err, sizeof(err)) < 0)
        fail_msg("Debian's kernel: %s", err);
    kallsyms_of(vmlinux, vlen, &k);
    if (xu_linux_task_layout(btf, &k, &l, err, sizeof(err)) < 0)
        fail_msg("Debian's kernel: %s", err);
    print_message("Debian 6.1.0-56: %zu BTF types; task_struct pid at %u, comm at %u (%u "
                  "bytes); %s at %#llx\n", xu_btf_nr_types(btf), l.pid_offset, l.comm_offset,
                  l.comm_size, l.current_from, (unsigned long long)l.current_task);
    assert_int_equal(l.pid_offset, DEBIAN_PID_OFFSET);
    assert_int_equal(l.comm_offset, DEBIAN_COMM_OFFSET);
    assert_int_equal(l.comm_size, 16);
    assert_string_equal(l.current_from, "current_task");
    assert_true(want != 0);
    assert_int_equal(l.current_task, want);
    xu_kallsyms_dispose(&k);
    xu_btf_free(btf);
    free(vmlinux);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_task_layout),
        cmocka_unit_test(test_from_elf),
        cmocka_unit_test(test_debian_kernel),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
