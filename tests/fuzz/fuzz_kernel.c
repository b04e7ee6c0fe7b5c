/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_kernel.c - a hostile Linux kernel image: the bzImage reader, every
 * decompressor, and the kallsyms reader.
 *
 * The input is read every way the tool reads a kernel: as a bzImage (its
 * header, its payload decompressed with a small cap, the vmlinux read for
 * symbols through xu_symtab_open, which falls back to its kallsyms), as a
 * compressed stream of each format, and as the bytes of a .rodata that may
 * hold kallsyms tables.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "symbols/xu_bzimage.h"
#include "symbols/xu_decompress.h"
#include "symbols/xu_kallsyms.h"
#include "symbols/xu_symbols.h"

/* Small caps: a bomb is found as well at 4 MiB as at 512. */
#define FUZZ_MAX_OUT (4u << 20)

static void kallsyms(const uint8_t *data, size_t size)
{
    struct xu_kallsyms k;
    size_t i;

    if (xu_kallsyms_read(data, size, &k, NULL, 0) < 0)
        return;
    /* every name must be a whole string in the pool: ASan sees each read */
    for (i = 0; i < k.n; i++)
        fprintf(xu_fuzz_sink(), "%c %s\n", k.syms[i].type, k.pool + k.syms[i].name);
    xu_kallsyms_dispose(&k);
}

static void vmlinux_symbols(const uint8_t *elf, size_t len)
{
    const char *path = xu_fuzz_as_file(elf, len);
    struct xu_symtab *st = NULL;

    if (!path || xu_symtab_open(path, xu_fuzz_log(), &st) < 0)
        return;
    xu_symtab_lookup(st, 0xffffffff81000000ULL);
    xu_symtab_free(st);
}

static void bzimage(const uint8_t *data, size_t size)
{
    uint8_t *out = NULL;
    size_t len = 0, off, plen;
    char err[160];

    xu_bzimage_payload(data, size, &off, &plen, err, sizeof(err));
    if (xu_bzimage_vmlinux(data, size, FUZZ_MAX_OUT, &out, &len, err, sizeof(err)) == 0)
        vmlinux_symbols(out, len);
    free(out);
}

static void streams(const uint8_t *data, size_t size)
{
    static const enum xu_compression all[] = {
        XU_COMP_GZIP, XU_COMP_XZ, XU_COMP_LZMA, XU_COMP_ZSTD, XU_COMP_LZ4, XU_COMP_BZIP2,
    };
    size_t i, len;
    uint8_t *out;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (xu_decompress(all[i], data, size, FUZZ_MAX_OUT, &out, &len, NULL, 0) == 0)
            free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (xu_bzimage_is(data, size))
        bzimage(data, size);
    else if (size >= 4 && data[0] == 0x7f)
        vmlinux_symbols(data, size);
    else
        streams(data, size);
    kallsyms(data, size);
    return 0;
}
