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
#include <stdbool.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/xu_elf_code.h"
#include "symbols/xu_linux_alternatives.h"

struct xu_elf_code {
    struct xu_code_range r[XU_UNWIND_MAX_RANGES];
    uint8_t *bytes[XU_UNWIND_MAX_RANGES];
    unsigned int n;
    uint64_t entry;
    unsigned int machine;
    uint64_t xen_entry[XU_ELF_CODE_MAX_ENTRIES];    /* what Xen's notes name */
    unsigned int nr_xen_entry;
    uint64_t *patched_call;     /* returns after calls the kernel patches in, sorted */
    size_t nr_patched_call;
    struct xu_code_range freed[XU_ELF_CODE_MAX_FREED];  /* XU_ELF_FREED_CODE_SECTION */
    unsigned int nr_freed;
};

/* Xen's ELF note types (xen/include/public/elfnote.h) and the legacy
 * "__xen_guest" section: where Xen starts a PV guest, and a PVH one. */
#define XEN_NOTE_NAME       "Xen"
#define XEN_ELFNOTE_ENTRY   1
#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define XEN_GUEST_SECTION   "__xen_guest"
#define XEN_GUEST_MAX       4096

void xu_elf_code_free(struct xu_elf_code *c)
{
    unsigned int i;

    if (!c)
        return;
    for (i = 0; i < c->n; i++)
        free(c->bytes[i]);
    free(c->patched_call);
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

static void add_xen_entry(struct xu_elf_code *c, uint64_t addr)
{
    unsigned int i;

    for (i = 0; i < c->nr_xen_entry; i++)
        if (c->xen_entry[i] == addr)
            return;
    if (c->nr_xen_entry < XU_ELF_CODE_MAX_ENTRIES)
        c->xen_entry[c->nr_xen_entry++] = addr;
}

/* A note's address: Xen reads a 4- or 8-byte little-endian word. */
static void xen_note(struct xu_elf_code *c, const GElf_Nhdr *nh, const char *name,
                     const uint8_t *desc)
{
    uint64_t v = 0;
    unsigned int i;

    if (nh->n_namesz != sizeof(XEN_NOTE_NAME) || memcmp(name, XEN_NOTE_NAME, nh->n_namesz) ||
        (nh->n_type != XEN_ELFNOTE_ENTRY && nh->n_type != XEN_ELFNOTE_PHYS32_ENTRY) ||
        (nh->n_descsz != 4 && nh->n_descsz != 8))
        return;
    for (i = 0; i < nh->n_descsz; i++)
        v |= (uint64_t)desc[i] << (8 * i);
    add_xen_entry(c, v);
}

static void read_notes(struct xu_elf_code *c, Elf_Scn *scn)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t off = 0, next, name_off, desc_off;
    GElf_Nhdr nh;

    /* gelf_getnote checks every note lies inside d and always advances */
    while (d && d->d_buf && off < d->d_size &&
           (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > off) {
        xen_note(c, &nh, (const char *)d->d_buf + name_off, (const uint8_t *)d->d_buf + desc_off);
        off = next;
    }
}

/* The legacy string: "GUEST_OS=...,ENTRY=0x...,..." (hex or decimal). */
static void read_xen_guest(struct xu_elf_code *c, Elf_Scn *scn)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    char buf[XEN_GUEST_MAX + 1];
    size_t len;
    char *p, *end;
    uint64_t v;

    if (!d || !d->d_buf)
        return;
    len = d->d_size < XEN_GUEST_MAX ? d->d_size : XEN_GUEST_MAX;
    memcpy(buf, d->d_buf, len);
    buf[len] = '\0';
    for (p = buf; (p = strstr(p, "ENTRY=")); p += 6) {
        if (p != buf && p[-1] != ',')
            continue;       /* VIRT_ENTRY and the like are other keys */
        errno = 0;
        v = strtoull(p + 6, &end, 0);
        if (errno == 0 && end != p + 6)
            add_xen_entry(c, v);
    }
}

/* A section of code the guest freed (XU_ELF_FREED_CODE_SECTION), its range kept. */
static void read_freed(struct xu_elf_code *c, const GElf_Shdr *sh)
{
    if ((sh->sh_flags & SHF_EXECINSTR) && sh->sh_size &&
        sh->sh_addr + sh->sh_size > sh->sh_addr && c->nr_freed < XU_ELF_CODE_MAX_FREED)
        c->freed[c->nr_freed++] = (struct xu_code_range){ sh->sh_addr,
                                                          sh->sh_addr + sh->sh_size };
}

static void read_entries(struct xu_elf_code *c, Elf *elf)
{
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    const char *name;

    if (elf_getshdrstrndx(elf, &shstrndx) < 0)
        shstrndx = 0;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;

        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_NOBITS) {
            if (shstrndx && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
                strcmp(name, XU_ELF_FREED_CODE_SECTION) == 0)
                read_freed(c, &sh);
            continue;
        }
        if (sh.sh_type == SHT_NOTE)
            read_notes(c, scn);
        else if (shstrndx && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
                 strcmp(name, XEN_GUEST_SECTION) == 0)
            read_xen_guest(c, scn);
    }
}

static int read_code(struct xu_elf_code *c, Elf *elf, const char *path, struct xu_log *log)
{
    GElf_Ehdr eh;
    Elf_Scn *scn = NULL;
    uint64_t total = 0;
    unsigned int skipped = 0;
    int rc;

    /* either class: a 32-bit guest's code is read as a 64-bit one's */
    if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
        (gelf_getclass(elf) != ELFCLASS64 && gelf_getclass(elf) != ELFCLASS32))
        return -ENOEXEC;
    /* an ARM ELF's entry in Thumb code has bit 0 set, as its symbols do:
     * the code starts at the even address */
    c->entry = eh.e_machine == EM_ARM ? eh.e_entry & ~(uint64_t)1 : eh.e_entry;
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
    read_entries(c, elf);
    if (eh.e_machine == EM_X86_64 &&
        (rc = xu_linux_alt_call_returns(elf, c, &c->patched_call, &c->nr_patched_call)) < 0)
        return rc;
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

static bool in_code(const struct xu_elf_code *c, uint64_t addr)
{
    unsigned int i;

    for (i = 0; i < c->n; i++)
        if (addr >= c->r[i].start && addr < c->r[i].end)
            return true;
    return false;
}

unsigned int xu_elf_code_entries(const struct xu_elf_code *c, uint64_t *out)
{
    unsigned int i, k, n = 0;

    if (in_code(c, c->entry))
        out[n++] = c->entry;
    for (i = 0; i < c->nr_xen_entry; i++) {
        for (k = 0; k < n && out[k] != c->xen_entry[i]; k++)
            ;
        if (k == n && in_code(c, c->xen_entry[i]) && n < XU_ELF_CODE_MAX_ENTRIES)
            out[n++] = c->xen_entry[i];
    }
    return n;
}

/* Whether one of the n ranges would wrap around the address space, moved by slide. */
static bool ranges_wrap(const struct xu_code_range *r, unsigned int n, int64_t slide)
{
    uint64_t d = (uint64_t)slide;
    unsigned int i;

    for (i = 0; i < n; i++)
        if ((slide > 0 && r[i].end + d < r[i].end) ||
            (slide < 0 && r[i].start + d > r[i].start))
            return true;
    return false;
}

static void ranges_move(struct xu_code_range *r, unsigned int n, int64_t slide)
{
    unsigned int i;

    for (i = 0; i < n; i++) {
        r[i].start += (uint64_t)slide;
        r[i].end += (uint64_t)slide;
    }
}

int xu_elf_code_relocate(struct xu_elf_code *c, int64_t slide)
{
    uint64_t d = (uint64_t)slide;
    unsigned int i;

    if (!c || slide == 0)
        return 0;
    if (ranges_wrap(c->r, c->n, slide) || ranges_wrap(c->freed, c->nr_freed, slide))
        return -ERANGE;
    ranges_move(c->freed, c->nr_freed, slide);
    /* entries outside the code (a physical one, PVH's) name no code to move */
    if (in_code(c, c->entry))
        c->entry += d;
    for (i = 0; i < c->nr_xen_entry; i++)
        if (in_code(c, c->xen_entry[i]))
            c->xen_entry[i] += d;
    ranges_move(c->r, c->n, slide);
    /* all inside the code just moved: none wraps */
    for (i = 0; i < c->nr_patched_call; i++)
        c->patched_call[i] += d;
    return 0;
}

bool xu_elf_code_freed(const struct xu_elf_code *c, uint64_t addr)
{
    unsigned int i;

    for (i = 0; c && i < c->nr_freed; i++)
        if (addr >= c->freed[i].start && addr < c->freed[i].end)
            return true;
    return false;
}

bool xu_elf_code_patched_call(const struct xu_elf_code *c, uint64_t ra)
{
    size_t lo = 0, hi = c ? c->nr_patched_call : 0;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->patched_call[mid] == ra)
            return true;
        if (c->patched_call[mid] < ra)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

unsigned int xu_elf_code_machine(const struct xu_elf_code *c)
{
    return c->machine;
}
