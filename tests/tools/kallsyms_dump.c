/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kallsyms_dump - every symbol of a Linux kernel's kallsyms tables, as
 * "ADDRESS TYPE NAME" lines like System.map, read by xen-uniprof's own
 * readers from a bzImage or a vmlinux.  For tests/tools/linux_kallsyms.sh,
 * which compares them with the System.map of the same build.
 * Usage: kallsyms_dump FILE.  Exit 0, 1 on any failure (one line why).
 */
#include "config.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_bzimage.h"
#include "symbols/xu_compressed.h"
#include "symbols/xu_kallsyms.h"

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *p = NULL;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && n <= (long)XU_MAX_KERNEL_BYTES &&
        fseek(f, 0, SEEK_SET) == 0 && (p = malloc((size_t)n)) &&
        fread(p, 1, (size_t)n, f) == (size_t)n) {
        *len = (size_t)n;
    } else {
        free(p);
        p = NULL;
    }
    fclose(f);
    return p;
}

static int dump(const uint8_t *ro, size_t len)
{
    struct xu_kallsyms k;
    char err[192];
    size_t i;

    if (xu_kallsyms_read(ro, len, &k, err, sizeof(err)) < 0) {
        fprintf(stderr, "kallsyms_dump: %s\n", err);
        return 1;
    }
    fprintf(stderr, "kallsyms_dump: %zu symbols (%s)\n", k.n, k.layout);
    for (i = 0; i < k.n; i++)
        printf("%016llx %c %s\n", (unsigned long long)k.syms[i].addr, k.syms[i].type,
               k.pool + k.syms[i].name);
    xu_kallsyms_dispose(&k);
    return 0;
}

int main(int argc, char **argv)
{
    uint8_t *file, *vmlinux = NULL;
    size_t len = 0, vlen = 0, shstrndx;
    Elf *elf = NULL;
    Elf_Scn *scn = NULL;
    char err[192];
    int rc = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: kallsyms_dump BZIMAGE|VMLINUX\n");
        return 2;
    }
    file = slurp(argv[1], &len);
    if (!file) {
        fprintf(stderr, "kallsyms_dump: cannot read %s\n", argv[1]);
        return 1;
    }
    if (xu_bzimage_is(file, len)) {
        if (xu_bzimage_vmlinux(file, len, XU_MAX_KERNEL_BYTES, &vmlinux, &vlen, err,
                               sizeof(err)) < 0) {
            fprintf(stderr, "kallsyms_dump: %s: %s\n", argv[1], err);
            goto out;
        }
    } else {
        vmlinux = file;
        vlen = len;
        file = NULL;
    }
    elf_version(EV_CURRENT);
    elf = elf_memory((char *)vmlinux, vlen);
    if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0) {
        fprintf(stderr, "kallsyms_dump: %s: not an ELF file\n", argv[1]);
        goto out;
    }
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        const char *name;
        Elf_Data *d;

        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            strcmp(name, ".rodata") != 0)
            continue;
        d = elf_getdata(scn, NULL);
        if (d && d->d_buf)
            rc = dump(d->d_buf, d->d_size);
        break;
    }
    if (!scn)
        fprintf(stderr, "kallsyms_dump: %s has no .rodata\n", argv[1]);
out:
    if (elf)
        elf_end(elf);
    free(file);
    free(vmlinux);
    return rc;
}
