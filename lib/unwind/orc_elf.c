/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orc_elf.c - the ORC sections of a vmlinux, and the facts about it that
 * choose their layout: the kernel's version string and its text's span
 * (see xu_orc.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unwind/xu_orc.h"

/* The largest file read (lib/symbols reads kernels up to 512 MiB too). */
#define MAX_FILE_BYTES (512ULL << 20)
#define BANNER "Linux version "
/* occurrences of BANNER looked at before giving up on the version */
#define MAX_BANNERS 64

/* "Linux version X.Y" anywhere in the image (linux_banner): X << 8 | Y,
 * 0 when there is none that parses. */
static unsigned int kernel_version(const uint8_t *p, size_t len)
{
    const size_t blen = sizeof(BANNER) - 1;
    size_t at = 0;
    int tries;

    for (tries = 0; tries < MAX_BANNERS && at < len; tries++) {
        const uint8_t *hit = memmem(p + at, len - at, BANNER, blen);
        unsigned int major = 0, minor = 0;
        size_t i, digits;

        if (!hit)
            break;
        i = (size_t)(hit - p) + blen;
        at = i;
        for (digits = 0; i < len && p[i] >= '0' && p[i] <= '9' && digits < 3; i++, digits++)
            major = major * 10 + (p[i] - '0');
        if (!digits || i >= len || p[i] != '.')
            continue;
        for (i++, digits = 0; i < len && p[i] >= '0' && p[i] <= '9' && digits < 3;
             i++, digits++)
            minor = minor * 10 + (p[i] - '0');
        if (digits && major >= 2 && major < 100 && minor < 256)
            return major << 8 | minor;
    }
    return 0;
}

/* A section's bytes inside the image, checked against its size. */
static const uint8_t *section_bytes(const uint8_t *image, size_t size, const GElf_Shdr *sh,
                                    size_t *len)
{
    if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
        return NULL;
    *len = (size_t)sh->sh_size;
    return image + sh->sh_offset;
}

static int find_sections(Elf *elf, const uint8_t *image, size_t size,
                         struct xu_orc_sections *s)
{
    Elf_Scn *scn = NULL;
    size_t shstrndx, count = 0;
    bool text = false;

    if (elf_getshdrstrndx(elf, &shstrndx) < 0)
        return -ENOEXEC;
    while ((scn = elf_nextscn(elf, scn)) && count++ < 65536) {
        GElf_Shdr sh;
        const char *name;

        if (!gelf_getshdr(scn, &sh))
            continue;
        if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) == (SHF_ALLOC | SHF_EXECINSTR) &&
            sh.sh_size && sh.sh_addr <= UINT64_MAX - sh.sh_size) {
            if (!text || sh.sh_addr < s->text_start)
                s->text_start = sh.sh_addr;
            if (!text || sh.sh_addr + sh.sh_size > s->text_end)
                s->text_end = sh.sh_addr + sh.sh_size;
            text = true;
        }
        name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!name)
            continue;
        if (strcmp(name, ".orc_unwind_ip") == 0 && !s->ip) {
            s->ip = section_bytes(image, size, &sh, &s->ip_len);
            s->ip_addr = sh.sh_addr;
        } else if (strcmp(name, ".orc_unwind") == 0 && !s->orc) {
            s->orc = section_bytes(image, size, &sh, &s->orc_len);
        } else if (strcmp(name, ".orc_header") == 0 && !s->header) {
            s->header = section_bytes(image, size, &sh, &s->header_len);
        }
    }
    return text ? 0 : -ENODATA;
}

int xu_orc_from_memory(const void *image, size_t size, struct xu_orc_table **out,
                       char *err, size_t err_size)
{
    struct xu_orc_sections s = { 0 };
    Elf *elf = NULL;
    GElf_Ehdr eh;
    int rc;

    *out = NULL;
    elf_version(EV_CURRENT);
    /* libelf only reads an image opened ELF_C_READ: the cast is safe */
    elf = elf_memory((char *)image, size);
    if (!elf || elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS64 ||
        !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64) {
        if (err && err_size)
            snprintf(err, err_size, "not an ELF64 x86-64 file");
        rc = -ENOEXEC;
        goto out;
    }
    rc = find_sections(elf, image, size, &s);
    if (rc < 0 || !s.ip || !s.orc) {
        if (err && err_size)
            snprintf(err, err_size, "no ORC tables (.orc_unwind_ip, .orc_unwind)");
        rc = rc < 0 && rc != -ENODATA ? rc : -ENODATA;
        goto out;
    }
    s.version = kernel_version(image, size);
    rc = xu_orc_from_sections(&s, out, err, err_size);
out:
    if (elf)
        elf_end(elf);
    return rc;
}

int xu_orc_open(const char *path, struct xu_log *log, struct xu_orc_table **out)
{
    char err[192] = "";
    void *map = MAP_FAILED;
    struct stat sb;
    int fd, rc;

    *out = NULL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fstat(fd, &sb) < 0) {
        rc = -errno;
        goto out;
    }
    if (sb.st_size <= 0 || (uint64_t)sb.st_size > MAX_FILE_BYTES) {
        rc = sb.st_size <= 0 ? -ENOEXEC : -E2BIG;
        goto out;
    }
    map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        rc = -errno;
        goto out;
    }
    rc = xu_orc_from_memory(map, (size_t)sb.st_size, out, err, sizeof(err));
    if (rc < 0)
        xu_debug(log, "%s: %s", path, err[0] ? err : xu_orc_strerror(rc));
out:
    if (map != MAP_FAILED)
        munmap(map, (size_t)sb.st_size);
    close(fd);
    return rc;
}
