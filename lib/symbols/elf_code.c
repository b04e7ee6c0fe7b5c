/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf_code.c - the executable sections of the guest's ELF, read once.
 *
 * Sections rather than segments: a kernel's code may share a segment with
 * data, and its sections say exactly which bytes are instructions.  A
 * NOBITS section has no bytes and is skipped; ranges are kept sorted so a
 * lookup is a binary search.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/xu_elf_code.h"

struct xu_elf_code {
    struct xu_code_range r[XU_UNWIND_MAX_RANGES];
    uint8_t *bytes[XU_UNWIND_MAX_RANGES];
    unsigned int n;
    uint64_t entry;
    unsigned int machine;
};

void xu_elf_code_free(struct xu_elf_code *c)
{
    unsigned int i;

    if (!c)
        return;
    for (i = 0; i < c->n; i++)
        free(c->bytes[i]);
    free(c);
}

/* Insert [start, start + size) with its bytes, keeping r[] sorted. */
static int add_range(struct xu_elf_code *c, uint64_t start, uint64_t size, const void *data)
{
    unsigned int i;
    uint8_t *copy = malloc(size);

    if (!copy)
        return -ENOMEM;
    memcpy(copy, data, size);
    for (i = c->n; i > 0 && c->r[i - 1].start > start; i--) {
        c->r[i] = c->r[i - 1];
        c->bytes[i] = c->bytes[i - 1];
    }
    c->r[i].start = start;
    c->r[i].end = start + size;
    c->bytes[i] = copy;
    c->n++;
    return 0;
}

static int read_code(struct xu_elf_code *c, Elf *elf, const char *path, struct xu_log *log)
{
    GElf_Ehdr eh;
    Elf_Scn *scn = NULL;
    uint64_t total = 0;
    unsigned int skipped = 0;
    int rc;

    if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || gelf_getclass(elf) != ELFCLASS64)
        return -ENOEXEC;
    c->entry = eh.e_entry;
    c->machine = eh.e_machine;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;

        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
            !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type == SHT_NOBITS || sh.sh_size == 0)
            continue;
        if (sh.sh_addr + sh.sh_size < sh.sh_addr || c->n == XU_UNWIND_MAX_RANGES ||
            sh.sh_size > XU_ELF_CODE_MAX_BYTES - total) {
            skipped++;
            continue;
        }
        d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size != sh.sh_size) {
            skipped++;
            continue;
        }
        rc = add_range(c, sh.sh_addr, sh.sh_size, d->d_buf);
        if (rc < 0)
            return rc;
        total += sh.sh_size;
    }
    if (skipped)
        xu_warn(log, "%s: %u executable section(s) past the bounds (%u sections, %u MiB) or "
                "unreadable were left out: returns into them count as not after a call",
                path, skipped, XU_UNWIND_MAX_RANGES, XU_ELF_CODE_MAX_BYTES >> 20);
    return c->n ? 0 : -ENODATA;
}

int xu_elf_code_open(const char *path, struct xu_log *log, struct xu_elf_code **out)
{
    struct xu_elf_code *c = NULL;
    Elf *elf = NULL;
    int fd, rc;

    *out = NULL;
    elf_version(EV_CURRENT);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    c = calloc(1, sizeof(*c));
    if (!c) {
        rc = -ENOMEM;
        goto out;
    }
    elf = elf_begin(fd, ELF_C_READ, NULL);
    rc = elf ? read_code(c, elf, path, log) : -ENOEXEC;
    if (rc == 0) {
        *out = c;
        c = NULL;
    }
out:
    if (elf)
        elf_end(elf);
    close(fd);
    xu_elf_code_free(c);
    return rc;
}

const struct xu_code_range *xu_elf_code_ranges(const struct xu_elf_code *c, unsigned int *n)
{
    *n = c->n;
    return c->r;
}

const uint8_t *xu_elf_code_before(const struct xu_elf_code *c, uint64_t addr, size_t n)
{
    unsigned int lo = 0, hi = c->n;

    while (lo < hi) {
        unsigned int mid = lo + (hi - lo) / 2;

        if (addr <= c->r[mid].start)
            hi = mid;
        else if (addr > c->r[mid].end)
            lo = mid + 1;
        else
            return addr - c->r[mid].start >= n ? c->bytes[mid] + (addr - c->r[mid].start - n)
                                               : NULL;
    }
    return NULL;
}

uint64_t xu_elf_code_entry(const struct xu_elf_code *c)
{
    return c->entry;
}

unsigned int xu_elf_code_machine(const struct xu_elf_code *c)
{
    return c->machine;
}
