/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.c - reading an `xl dump-core` file (see xu_core.h): its ELF header
 * and sections, the Xen notes, the vCPU contexts and the index from frame
 * numbers to its pages.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/elfnote.h>

#include "core/core_priv.h"

/* The dump-core header's magic (xenctrl.h's XC_CORE_MAGIC and _HVM). */
#define CORE_MAGIC_PV  0xF00FEBEDULL
#define CORE_MAGIC_HVM 0xF00FEBEEULL
#define CORE_INVALID   (~(uint64_t)0)
#define NOTE_NAME      "Xen"

struct section {
    uint64_t off, size, entsize;
    bool present;
};

/* What the parse found, before the core is built from it. */
struct layout {
    const uint8_t *buf;
    size_t len;
    const char *name;
    struct xu_log *log;
    uint16_t machine;
    struct section note, prstatus, pages, p2m, pfn;
    uint64_t magic, nr_vcpus, nr_pages, page_size;
    bool have_header;
    unsigned int xen_major, xen_minor;
};

const char *xu_core_error_name(enum xu_core_error e)
{
    switch (e) {
    case XU_CORE_OK:        return "ok";
    case XU_CORE_NOT_ELF:   return "not an ELF file";
    case XU_CORE_NOT_CORE:  return "not an xl dump-core file";
    case XU_CORE_TRUNCATED: return "truncated";
    case XU_CORE_ARCH:      return "unsupported architecture";
    case XU_CORE_NO_VCPUS:  return "no vCPU contexts";
    case XU_CORE_MALFORMED: return "malformed";
    }
    return "unknown";
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

/* [off, off + size) inside the file, without overflow. */
static bool in_file(const struct layout *l, uint64_t off, uint64_t size)
{
    return off <= l->len && size <= l->len - off;
}

static int refuse(const struct layout *l, enum xu_core_error e, enum xu_core_error *err,
                  const char *why)
{
    *err = e;
    xu_error(l->log, "%s: %s: %s", l->name, xu_core_error_name(e), why);
    return -EINVAL;
}

static int read_ehdr(struct layout *l, Elf64_Ehdr *eh, enum xu_core_error *err)
{
    if (l->len < EI_NIDENT || memcmp(l->buf, ELFMAG, SELFMAG) != 0)
        return refuse(l, XU_CORE_NOT_ELF, err, "no ELF magic");
    if (l->buf[EI_CLASS] != ELFCLASS64 || l->buf[EI_DATA] != ELFDATA2LSB)
        return refuse(l, XU_CORE_NOT_CORE, err, "xl dump-core writes 64-bit little-endian "
                      "ELF files, this one is not");
    if (l->len < sizeof(*eh))
        return refuse(l, XU_CORE_TRUNCATED, err, "the ELF header is cut short");
    memcpy(eh, l->buf, sizeof(*eh));
    if (eh->e_type != ET_CORE)
        return refuse(l, XU_CORE_NOT_CORE, err, "an ELF file but not a core (e_type is not "
                      "ET_CORE): give the guest's kernel with -e and its core with --core");
    if (eh->e_shnum == 0 || eh->e_shnum > XU_CORE_MAX_SECTIONS ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum)
        return refuse(l, XU_CORE_NOT_CORE, err, "no usable section table");
    if (!in_file(l, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        return refuse(l, XU_CORE_TRUNCATED, err, "the section table lies past the end of "
                      "the file");
    l->machine = eh->e_machine;
    return 0;
}

/* The section called name among the section headers, into *s. */
static void take_section(struct layout *l, const char *name, const Elf64_Shdr *sh)
{
    static const struct { const char *name; size_t field; } known[] = {
        { ".note.Xen",     offsetof(struct layout, note) },
        { ".xen_prstatus", offsetof(struct layout, prstatus) },
        { ".xen_pages",    offsetof(struct layout, pages) },
        { ".xen_p2m",      offsetof(struct layout, p2m) },
        { ".xen_pfn",      offsetof(struct layout, pfn) },
    };
    size_t i;

    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        struct section *dst = (struct section *)((char *)l + known[i].field);

        if (strcmp(name, known[i].name) != 0 || dst->present)
            continue;
        dst->off = sh->sh_offset;
        dst->size = sh->sh_size;
        dst->entsize = sh->sh_entsize;
        dst->present = true;
    }
}

static int read_sections(struct layout *l, const Elf64_Ehdr *eh, enum xu_core_error *err)
{
    Elf64_Shdr strtab, sh;
    unsigned int i;

    memcpy(&strtab, l->buf + eh->e_shoff + (uint64_t)eh->e_shstrndx * sizeof(sh), sizeof(sh));
    if (!in_file(l, strtab.sh_offset, strtab.sh_size))
        return refuse(l, XU_CORE_TRUNCATED, err, "the section names lie past the end of "
                      "the file");
    for (i = 1; i < eh->e_shnum; i++) {
        const char *names = (const char *)l->buf + strtab.sh_offset;

        memcpy(&sh, l->buf + eh->e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
        if (sh.sh_name >= strtab.sh_size ||
            !memchr(names + sh.sh_name, '\0', strtab.sh_size - sh.sh_name))
            continue;
        take_section(l, names + sh.sh_name, &sh);
    }
    if (!l->note.present)
        return refuse(l, XU_CORE_NOT_CORE, err, "no .note.Xen section (a core, but not one "
                      "written by xl dump-core)");
    if (!in_file(l, l->note.off, l->note.size))
        return refuse(l, XU_CORE_TRUNCATED, err, ".note.Xen lies past the end of the file");
    return 0;
}

static void take_note(struct layout *l, uint32_t type, const uint8_t *desc, uint32_t descsz)
{
    if (type == XEN_ELFNOTE_DUMPCORE_HEADER && descsz >= 32 && !l->have_header) {
        l->magic = rd64(desc);
        l->nr_vcpus = rd64(desc + 8);
        l->nr_pages = rd64(desc + 16);
        l->page_size = rd64(desc + 24);
        l->have_header = true;
    } else if (type == XEN_ELFNOTE_DUMPCORE_XEN_VERSION && descsz >= 16) {
        l->xen_major = (unsigned int)(rd64(desc) & 0xffff);
        l->xen_minor = (unsigned int)(rd64(desc + 8) & 0xffff);
    }
}

/* The notes named "Xen" in .note.Xen, at most XU_CORE_MAX_NOTES of them. */
static int read_notes(struct layout *l, enum xu_core_error *err)
{
    const uint8_t *p = l->buf + l->note.off;
    uint64_t left = l->note.size;
    unsigned int n;

    for (n = 0; n < XU_CORE_MAX_NOTES && left >= 12; n++) {
        uint32_t namesz = rd32(p), descsz = rd32(p + 4), type = rd32(p + 8);
        uint64_t name_len = ((uint64_t)namesz + 3) & ~3ULL;
        uint64_t desc_len = ((uint64_t)descsz + 3) & ~3ULL;

        if (name_len > left - 12 || desc_len > left - 12 - name_len)
            break;
        if (namesz == sizeof(NOTE_NAME) && memcmp(p + 12, NOTE_NAME, sizeof(NOTE_NAME)) == 0)
            take_note(l, type, p + 12 + name_len, descsz);
        p += 12 + name_len + desc_len;
        left -= 12 + name_len + desc_len;
    }
    if (!l->have_header)
        return refuse(l, XU_CORE_NOT_CORE, err, ".note.Xen holds no dump-core header note");
    if (l->magic != CORE_MAGIC_PV && l->magic != CORE_MAGIC_HVM)
        return refuse(l, XU_CORE_NOT_CORE, err, "the dump-core header's magic is neither "
                      "PV's nor HVM's");
    if (l->page_size != XU_PAGE_SIZE)
        return refuse(l, XU_CORE_MALFORMED, err, "its pages are not 4 KiB");
    return 0;
}

/* The sections the walk needs, checked against the file and each other. */
static int check_sections(struct layout *l, enum xu_core_error *err)
{
    bool pv = l->magic == CORE_MAGIC_PV;
    const struct section *map = pv ? &l->p2m : &l->pfn;

    if (!l->prstatus.present || l->prstatus.size == 0 || l->nr_vcpus == 0)
        return refuse(l, XU_CORE_NO_VCPUS, err, "its .xen_prstatus section is missing or "
                      "empty (the dump could read no vCPU's registers)");
    if (!in_file(l, l->prstatus.off, l->prstatus.size))
        return refuse(l, XU_CORE_TRUNCATED, err, ".xen_prstatus lies past the end of the file");
    if (!l->pages.present || !map->present)
        return refuse(l, XU_CORE_MALFORMED, err, pv ?
                      "a PV core without .xen_pages and .xen_p2m" :
                      "an HVM core without .xen_pages and .xen_pfn");
    if (!in_file(l, l->pages.off, l->pages.size) || !in_file(l, map->off, map->size))
        return refuse(l, XU_CORE_TRUNCATED, err, "its pages or their map lie past the end of "
                      "the file (the dump did not finish?)");
    return 0;
}

static int layout_read(struct layout *l, enum xu_core_error *err)
{
    Elf64_Ehdr eh;
    int rc;

    if ((rc = read_ehdr(l, &eh, err)) < 0)
        return rc;
    if (!xu_core_arch_by_machine(l->machine)) {
        char why[160];

        snprintf(why, sizeof(why), "a core of ELF machine %u; this build reads %s cores",
                 (unsigned int)l->machine, xu_core_arch_names());
        return refuse(l, XU_CORE_ARCH, err, why);
    }
    if ((rc = read_sections(l, &eh, err)) < 0)
        return rc;
    if ((rc = read_notes(l, err)) < 0)
        return rc;
    return check_sections(l, err);
}

static int cmp_entry(const void *a, const void *b)
{
    const struct xu_core_entry *x = a, *y = b;

    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->page < y->page ? -1 : x->page > y->page;
}

/* Frame -> page, sorted by frame; map entries all ones are pages not dumped. */
static int build_index(struct xu_core *c, const struct layout *l)
{
    bool pv = c->type == XU_GUEST_PV;
    const struct section *map = pv ? &l->p2m : &l->pfn;
    uint64_t stride = pv ? 16 : 8, n, i;

    n = l->pages.size / XU_PAGE_SIZE;
    if (map->size / stride < n)
        n = map->size / stride;
    if (l->nr_pages < n)
        n = l->nr_pages;
    c->entries = n ? calloc(n, sizeof(*c->entries)) : NULL;
    if (n && !c->entries)
        return -ENOMEM;
    for (i = 0; i < n; i++) {
        const uint8_t *e = l->buf + map->off + i * stride;
        uint64_t frame = pv ? rd64(e + 8) : rd64(e);

        if (frame == CORE_INVALID || (pv && rd64(e) == CORE_INVALID)) {
            c->invalid++;
            continue;
        }
        c->entries[c->nr_entries].frame = frame;
        c->entries[c->nr_entries].page = i;
        c->nr_entries++;
    }
    c->nr_pages = n;
    if (c->nr_entries > 1)
        qsort(c->entries, c->nr_entries, sizeof(*c->entries), cmp_entry);
    return 0;
}

static int decode_vcpus(struct xu_core *c, const struct layout *l, enum xu_core_error *err)
{
    const struct xu_core_arch *a = c->arch;
    uint64_t entsize = l->prstatus.entsize ? l->prstatus.entsize : a->context_size;
    uint64_t n = l->prstatus.size / entsize, i;
    uint8_t *tmp;

    if (entsize < a->context_size)
        return refuse(l, XU_CORE_MALFORMED, err, "its vCPU contexts are smaller than the "
                      "architecture's");
    if (n > l->nr_vcpus)
        n = l->nr_vcpus;
    if (n > XU_MAX_VCPUS)
        n = XU_MAX_VCPUS;
    if (n == 0)
        return refuse(l, XU_CORE_NO_VCPUS, err, "its .xen_prstatus holds less than one "
                      "vCPU context");
    c->vcpus = calloc(n, sizeof(*c->vcpus));
    tmp = malloc(a->context_size);
    if (!c->vcpus || !tmp) {
        free(tmp);
        return -ENOMEM;
    }
    /* copied out first: a context in the file need not be aligned */
    for (i = 0; i < n; i++) {
        memcpy(tmp, l->buf + l->prstatus.off + i * entsize, a->context_size);
        a->decode(tmp, c->type != XU_GUEST_PV, &c->vcpus[i]);
    }
    c->nr_vcpus = (unsigned int)n;
    free(tmp);
    return 0;
}

int xu_core_parse(const void *buf, size_t len, const char *name, struct xu_log *log,
                  struct xu_core **out, enum xu_core_error *err)
{
    struct layout l = { .buf = buf, .len = len, .name = name ? name : "core", .log = log };
    struct xu_core *c = NULL;
    enum xu_core_error dummy;
    int rc;

    *out = NULL;
    if (!err)
        err = &dummy;
    *err = XU_CORE_OK;
    if ((rc = layout_read(&l, err)) < 0)
        return rc;
    if (!(c = calloc(1, sizeof(*c))))
        return -ENOMEM;
    c->buf = buf;
    c->pages_off = l.pages.off;
    c->arch = xu_core_arch_by_machine(l.machine);
    c->type = l.magic == CORE_MAGIC_PV ? XU_GUEST_PV : XU_GUEST_HVM;
    c->xen_major = l.xen_major;
    c->xen_minor = l.xen_minor;
    if ((rc = decode_vcpus(c, &l, err)) < 0 || (rc = build_index(c, &l)) < 0)
        goto out;
    xu_debug(log, "%s: %s core, %u vCPU contexts, %" PRIu64 " pages (%" PRIu64 " not dumped)",
             l.name, c->type == XU_GUEST_PV ? "PV" : "HVM", c->nr_vcpus, c->nr_pages,
             c->invalid);
    *out = c;
    c = NULL;
out:
    xu_core_free(c);
    if (rc == -ENOMEM)
        xu_error(log, "%s: out of memory", l.name);
    return rc;
}

void xu_core_free(struct xu_core *c)
{
    if (!c)
        return;
    free(c->vcpus);
    free(c->entries);
    free(c);
}

void xu_core_get_info(const struct xu_core *c, struct xu_core_info *out)
{
    memset(out, 0, sizeof(*out));
    out->arch = c->arch->ops;
    out->type = c->type;
    out->nr_vcpus = c->nr_vcpus;
    out->nr_pages = c->nr_pages;
    out->invalid_entries = c->invalid;
    out->xen_major = c->xen_major;
    out->xen_minor = c->xen_minor;
}

const struct xu_vcpu_regs *xu_core_vcpu(const struct xu_core *c, unsigned int i)
{
    return i < c->nr_vcpus ? &c->vcpus[i] : NULL;
}

const void *xu_core_frame(const struct xu_core *c, uint64_t frame)
{
    size_t lo = 0, hi = c->nr_entries;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->entries[mid].frame < frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= c->nr_entries || c->entries[lo].frame != frame)
        return NULL;
    return c->buf + c->pages_off + c->entries[lo].page * XU_PAGE_SIZE;
}
