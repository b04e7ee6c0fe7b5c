/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_bzimage.c - the vmlinux inside a bzImage: images made here around a
 * small vmlinux (mkelf, with kallsyms tables from mkkallsyms in .rodata),
 * compressed with each library the reader uses; damaged headers and
 * payloads; the output cap; and the symbol search taking a bzImage as the
 * domain's kernel.
 */
#include "config.h"

#include <errno.h>
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

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZ4
#include <lz4.h>
#endif
#ifdef HAVE_BZIP2
#include <bzlib.h>
#endif

#include "mkelf.h"
#include "mkkallsyms.h"
#include "symbols/xu_bzimage.h"
#include "symbols/xu_compressed.h"
#include "symbols/xu_decompress.h"
#include "symbols/xu_elf_find.h"

#define TEXT 0xffffffff81000000ULL
#define RODATA 0xffffffff82000000ULL
#define SETUP_SECTS 3
#define PM_START ((SETUP_SECTS + 1) * 512)
#define PAYLOAD_OFFSET 0x100

static uint8_t *vmlinux;
static size_t vmlinux_len;

/* ------------------------------------------------------------ payloads --- */

typedef size_t (*compress_fn)(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

#ifdef HAVE_ZLIB
static size_t c_gzip(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    z_stream z;
    size_t len;

    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    len = cap - z.avail_out;
    deflateEnd(&z);
    return len;
}
#endif

#ifdef HAVE_LZMA
static size_t c_xz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    size_t pos = 0;

    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, n, out, &pos, cap),
                     LZMA_OK);
    return pos;
}

static size_t c_lzma(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_options_lzma opt;
    size_t len;

    assert_false(lzma_lzma_preset(&opt, 6));
    assert_int_equal(lzma_alone_encoder(&s, &opt), LZMA_OK);
    s.next_in = in;
    s.avail_in = n;
    s.next_out = out;
    s.avail_out = cap;
    assert_int_equal(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
    len = cap - s.avail_out;
    lzma_end(&s);
    return len;
}
#endif

#ifdef HAVE_ZSTD
static size_t c_zstd(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    size_t r = ZSTD_compress(out, cap, in, n, 19);

    assert_false(ZSTD_isError(r));
    return r;
}
#endif

#ifdef HAVE_LZ4
/* Linux's legacy lz4 frame: magic, then (size, block) pairs of 8 MiB input */
static size_t c_lz4(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    int r;

    memcpy(out, "\x02\x21\x4c\x18", 4);
    r = LZ4_compress_default((const char *)in, (char *)out + 8, (int)n, (int)(cap - 8));
    assert_true(r > 0);
    out[4] = (uint8_t)r;
    out[5] = (uint8_t)(r >> 8);
    out[6] = (uint8_t)(r >> 16);
    out[7] = (uint8_t)(r >> 24);
    return 8 + (size_t)r;
}
#endif

#ifdef HAVE_BZIP2
static size_t c_bzip2(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    unsigned int len = (unsigned int)cap;

    assert_int_equal(BZ2_bzBuffToBuffCompress((char *)out, &len, (char *)in, (unsigned int)n,
                                              9, 0, 0), BZ_OK);
    return len;
}
#endif

static const struct {
    const char *name;
    compress_fn fn;
    int checked;        /* a flipped byte is caught (the format checksums) */
} formats[] = {
#ifdef HAVE_ZLIB
    { "gzip", c_gzip, 1 },
#endif
#ifdef HAVE_LZMA
    { "xz", c_xz, 1 },
    { "lzma", c_lzma, 0 },
#endif
#ifdef HAVE_ZSTD
    { "zstd", c_zstd, 0 },
#endif
#ifdef HAVE_LZ4
    { "lz4", c_lz4, 0 },
#endif
#ifdef HAVE_BZIP2
    { "bzip2", c_bzip2, 1 },
#endif
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* ------------------------------------------------------------- images --- */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A bzImage around payload (with the 4 bytes of size the build appends). */
static uint8_t *make_image(const uint8_t *payload, size_t plen, size_t *len)
{
    size_t total = PM_START + PAYLOAD_OFFSET + plen + 4 + 64;
    uint8_t *img = calloc(1, total);

    assert_non_null(img);
    img[0] = 'M';
    img[1] = 'Z';
    img[0x1f1] = SETUP_SECTS;
    memcpy(img + 0x202, "HdrS", 4);
    img[0x206] = 0x0f;
    img[0x207] = 0x02;                  /* protocol 2.15 */
    put32(img + 0x248, PAYLOAD_OFFSET);
    put32(img + 0x24c, (uint32_t)(plen + 4));
    memcpy(img + PM_START + PAYLOAD_OFFSET, payload, plen);
    put32(img + PM_START + PAYLOAD_OFFSET + plen, (uint32_t)vmlinux_len);
    *len = total;
    return img;
}

static uint8_t *compressed_image(size_t f, size_t *len)
{
    size_t cap = vmlinux_len * 2 + 4096, plen;
    uint8_t *buf = malloc(cap), *img;

    assert_non_null(buf);
    plen = formats[f].fn(vmlinux, vmlinux_len, buf, cap);
    img = make_image(buf, plen, len);
    free(buf);
    return img;
}

/* A small vmlinux: .text, and .rodata with kallsyms tables; flags as mkelf's. */
static uint8_t *make_vmlinux(unsigned int flags, size_t *out_len)
{
    static const struct mkks_sym ks[] = {
        { "__per_cpu_start", 0, 'A' },
        { "_stext", TEXT, 'T' },
        { "do_syscall_64", TEXT + 0x100, 'T' },
        { "schedule", TEXT + 0x200, 'T' },
        { "__schedule", TEXT + 0x280, 't' },
        { "some_table", TEXT + 0x300, 'r' },
        { "xen_hypercall_pv", TEXT + 0x400, 'W' },
        { "_etext", TEXT + 0x1000, 'T' },
    };
    char path[] = "/tmp/xu-bz-vmlinux-XXXXXX";
    size_t blen, len;
    uint8_t *blob = mkkallsyms(ks, sizeof(ks) / sizeof(ks[0]), MKKS_SEQS | MKKS_PERCPU, 64,
                               &blen, NULL), *p;
    struct mkelf_section secs[] = {
        { ".text", TEXT, 0x1000, false },
        { ".rodata", RODATA, 0, true },
    };
    struct mkelf_patch patch = { RODATA, NULL, 0 };
    FILE *f;
    int fd;

    assert_non_null(blob);
    secs[1].size = blen;
    patch.bytes = blob;
    patch.len = blen;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write_patched(path, secs, 2, &patch, 1, NULL, 0,
                                         MKELF_STRIPPED | flags), 0);
    f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc(len);
    assert_int_equal(fread(p, 1, len, f), len);
    fclose(f);
    unlink(path);
    free(blob);
    *out_len = len;
    return p;
}

static int setup(void **state)
{
    (void)state;
    vmlinux = make_vmlinux(0, &vmlinux_len);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(vmlinux);
    return 0;
}

/* -------------------------------------------------------------- tests --- */

static void test_every_format(void **state)
{
    size_t f, len, out_len;
    uint8_t *img, *out;
    char err[160];

    (void)state;
    assert_true(NFORMATS >= 1);
    for (f = 0; f < NFORMATS; f++) {
        img = compressed_image(f, &len);
        assert_true(xu_bzimage_is(img, len));
        assert_int_equal(xu_bzimage_vmlinux(img, len, 1u << 20, &out, &out_len, err,
                                            sizeof(err)), 0);
        assert_int_equal(out_len, vmlinux_len);
        assert_memory_equal(out, vmlinux, vmlinux_len);
        free(out);
        free(img);
    }
}

static void expect(const uint8_t *img, size_t len, int rc, const char *words)
{
    uint8_t *out = (uint8_t *)1;
    size_t out_len = 1;
    char err[160] = "";

    assert_int_equal(xu_bzimage_vmlinux(img, len, 1u << 20, &out, &out_len, err, sizeof(err)),
                     rc);
    assert_null(out);
    assert_int_equal(out_len, 0);
    if (!strstr(err, words))
        fail_msg("expected \"%s\" in \"%s\"", words, err);
}

static void test_bad_headers(void **state)
{
    size_t len;
    uint8_t *img = compressed_image(0, &len);

    (void)state;
    expect(img, 0x200, -ENOEXEC, "not a bzImage");
    img[0x206] = 0x07;                  /* 2.07: no payload fields */
    expect(img, len, -EBADMSG, "2.07");
    img[0x206] = 0x0f;
    put32(img + 0x24c, (uint32_t)len);  /* longer than the image */
    expect(img, len, -EBADMSG, "past the end");
    put32(img + 0x24c, 0);
    expect(img, len, -EBADMSG, "past the end");
    put32(img + 0x24c, 16);
    put32(img + 0x248, 0xffffffffu);
    expect(img, len, -EBADMSG, "past the end");
    expect(img, 0x240, -EBADMSG, "");   /* header cut before its payload fields */
    free(img);
}

static void test_damaged_payloads(void **state)
{
    size_t f, len, plen;
    uint8_t *img;

    (void)state;
    for (f = 0; f < NFORMATS; f++) {
        img = compressed_image(f, &len);
        plen = len - PM_START - PAYLOAD_OFFSET - 64 - 4;
        put32(img + 0x24c, (uint32_t)(plen / 2));       /* cut in half */
        expect(img, len, -EBADMSG, "damaged");
        if (formats[f].checked) {
            put32(img + 0x24c, (uint32_t)(plen + 4));
            img[PM_START + PAYLOAD_OFFSET + plen / 2] ^= 0x55;
            expect(img, len, -EBADMSG, "damaged");
        }
        free(img);
    }
}

static void test_output_cap(void **state)
{
    size_t f, len, out_len;
    uint8_t *img, *out;
    char err[160];

    (void)state;
    for (f = 0; f < NFORMATS; f++) {
        img = compressed_image(f, &len);
        assert_int_equal(xu_bzimage_vmlinux(img, len, vmlinux_len / 2, &out, &out_len, err,
                                            sizeof(err)), -EFBIG);
        assert_non_null(strstr(err, "more than"));
        free(img);
    }
}

static void test_not_elf_and_unknown(void **state)
{
    static const uint8_t lzo[] = { 0x89, 'L', 'Z', 'O', 0, 0x0d, 0x0a, 0x1a, 0x0a };
    static const uint8_t junk[] = "this is not compressed";
    size_t len;
    uint8_t *img;

    (void)state;
    img = make_image(lzo, sizeof(lzo), &len);
    expect(img, len, -ENOTSUP, "lzo-compressed");
    free(img);
    img = make_image(junk, sizeof(junk), &len);
    expect(img, len, -EBADMSG, "no compression format");
    free(img);
#ifdef HAVE_ZLIB
    {
        uint8_t buf[256];
        size_t plen = c_gzip(junk, sizeof(junk), buf, sizeof(buf));

        img = make_image(buf, plen, &len);
        expect(img, len, -EBADMSG, "not an ELF");
        free(img);
    }
#endif
}

struct capture {
    struct xu_log log;
    char errors[1024];
};

static void capture_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;
    size_t l = strlen(c->errors);

    if (level == XU_LOG_ERROR)
        snprintf(c->errors + l, sizeof(c->errors) - l, "%s\n", msg);
}

static int write_file(char *path, const uint8_t *p, size_t n)
{
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
    return 0;
}

/* The domain's kernel is a bzImage: its kallsyms, found with no -e. */
static void test_elf_find_bzimage(void **state)
{
    struct capture cap = { .log = { .emit = capture_emit, .min_level = XU_LOG_DEBUG } };
    struct xu_elf_find_config cfg = { .debug_root = "/nonexistent" };
    struct xu_elf_choice ch;
    const struct xu_symbol *s;
    char path[] = "/tmp/xu-bz-image-XXXXXX";
    size_t len;
    uint8_t *img = compressed_image(0, &len);

    (void)state;
    cap.log.ctx = &cap;
    write_file(path, img, len);
    cfg.kernel = path;
    assert_int_equal(xu_elf_find(&cfg, &cap.log, &ch), 0);
    assert_non_null(ch.symtab);
    assert_string_equal(xu_symtab_origin(ch.symtab), "kallsyms");
    assert_true(ch.mem_fd >= 0);
    assert_non_null(strstr(ch.shown, "bzImage"));
    s = xu_symtab_lookup(ch.symtab, TEXT + 0x2a0);
    assert_non_null(s);
    assert_string_equal(s->name, "__schedule");
    assert_int_equal(s->size, 0x80);    /* up to some_table, a non-function */
    assert_null(xu_symtab_lookup(ch.symtab, TEXT + 0x310));
    assert_string_equal(xu_symtab_lookup(ch.symtab, TEXT + 0x404)->name, "xen_hypercall_pv");
    xu_elf_choice_dispose(&ch);
    unlink(path);
    free(img);
}

/* A debug file with a real symbol table, found by the vmlinux's build-id,
 * wins over the kernel's kallsyms. */
static void test_elf_find_prefers_debug_file(void **state)
{
    static const struct mkelf_sym dbg_syms[] = {
        { "schedule_from_dbg", TEXT + 0x200, 0x80, STT_FUNC, STB_GLOBAL, 0 },
    };
    struct capture cap = { .log = { .emit = capture_emit, .min_level = XU_LOG_DEBUG } };
    char root[] = "/tmp/xu-bz-root-XXXXXX", dir[128], dbg[192], hexid[2 * MKELF_BUILD_ID_LEN + 1];
    char path[] = "/tmp/xu-bz-image-XXXXXX";
    struct xu_elf_find_config cfg = { 0 };
    struct xu_elf_choice ch;
    size_t len, i, img_len;
    uint8_t *with_id = make_vmlinux(MKELF_BUILD_ID, &len), *buf, *img;

    (void)state;
    cap.log.ctx = &cap;
    assert_non_null(mkdtemp(root));
    for (i = 0; i < MKELF_BUILD_ID_LEN; i++)
        snprintf(hexid + 2 * i, 3, "%02x", mkelf_build_id[i]);
    snprintf(dir, sizeof(dir), "%s/.build-id", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", root, hexid);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(dbg, sizeof(dbg), "%s/%s.debug", dir, hexid + 2);
    assert_int_equal(mkelf_write(dbg, TEXT, 0x1000, dbg_syms, 1, MKELF_BUILD_ID), 0);

    buf = malloc(len * 2 + 4096);
    assert_non_null(buf);
    img = make_image(buf, formats[0].fn(with_id, len, buf, len * 2 + 4096), &img_len);
    write_file(path, img, img_len);
    cfg.kernel = path;
    cfg.debug_root = root;
    assert_int_equal(xu_elf_find(&cfg, &cap.log, &ch), 0);
    assert_int_equal(ch.source, XU_ELF_FROM_BUILD_ID);
    assert_null(xu_symtab_origin(ch.symtab));
    assert_string_equal(xu_symtab_lookup(ch.symtab, TEXT + 0x210)->name, "schedule_from_dbg");
    xu_elf_choice_dispose(&ch);
    unlink(dbg);
    rmdir(dir);
    snprintf(dir, sizeof(dir), "%s/.build-id", root);
    rmdir(dir);
    rmdir(root);
    unlink(path);
    free(img);
    free(buf);
    free(with_id);
}

/* An LZO bzImage: one line naming the format, the search stops there. */
static void test_elf_find_unsupported(void **state)
{
    static const uint8_t lzo[] = { 0x89, 'L', 'Z', 'O', 0, 0x0d, 0x0a, 0x1a, 0x0a };
    struct capture cap = { .log = { .emit = capture_emit, .min_level = XU_LOG_DEBUG } };
    struct xu_elf_find_config cfg = { .debug_root = "/nonexistent" };
    struct xu_elf_choice ch;
    char path[] = "/tmp/xu-bz-image-XXXXXX";
    size_t len;
    uint8_t *img = make_image(lzo, sizeof(lzo), &len);

    (void)state;
    cap.log.ctx = &cap;
    write_file(path, img, len);
    cfg.kernel = path;
    assert_int_equal(xu_elf_find(&cfg, &cap.log, &ch), -ENODATA);
    assert_non_null(strstr(cap.errors, "lzo-compressed"));
    assert_null(strchr(strchr(cap.errors, '\n') + 1, '\n'));     /* one line */
    xu_elf_choice_dispose(&ch);
    unlink(path);
    free(img);
}

static void write_seed(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* XU_KERNEL_CORPUS=DIR: the seeds of tests/fuzz/corpus/fuzz_kernel/ */
static void test_write_corpus(void **state)
{
    static const struct mkks_sym ks[] = {
        { "fixed_percpu_data", 0, 'A' }, { "_stext", TEXT, 'T' },
        { "__sched_text_start", TEXT + 0x40, 't' }, { "schedule", TEXT + 0x80, 'T' },
        { "jiffies", TEXT + 0x100, 'D' }, { "_etext", TEXT + 0x200, 'T' },
    };
    static const unsigned int layouts[] = {
        MKKS_SEQS | MKKS_PERCPU, MKKS_PERCPU, MKKS_SEQS | MKKS_OFFSETS_AFTER, MKKS_ABSOLUTE,
    };
    const char *dir = getenv("XU_KERNEL_CORPUS");
    char name[64];
    size_t f, len;
    uint8_t *p;

    (void)state;
    if (!dir)
        skip();
    for (f = 0; f < NFORMATS; f++) {
        p = compressed_image(f, &len);
        snprintf(name, sizeof(name), "bzimage_%s", formats[f].name);
        write_seed(dir, name, p, len);
        free(p);
    }
    write_seed(dir, "vmlinux", vmlinux, vmlinux_len);
    for (f = 0; f < sizeof(layouts) / sizeof(layouts[0]); f++) {
        p = mkkallsyms(ks, sizeof(ks) / sizeof(ks[0]), layouts[f], 8, &len, NULL);
        assert_non_null(p);
        snprintf(name, sizeof(name), "kallsyms_layout%zu", f);
        write_seed(dir, name, p, len);
        free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_damaged_payloads),
        cmocka_unit_test(test_output_cap),
        cmocka_unit_test(test_not_elf_and_unknown),
        cmocka_unit_test(test_elf_find_bzimage),
        cmocka_unit_test(test_elf_find_prefers_debug_file),
        cmocka_unit_test(test_elf_find_unsupported),
        cmocka_unit_test(test_write_corpus),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
