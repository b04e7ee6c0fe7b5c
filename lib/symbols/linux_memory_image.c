// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux_memory_image.c - a running x86-64 Linux kernel's image read from the
 * guest's memory, written as an ELF of the sections its readers want
 * (xu_linux_memory_image.h).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_elf_code.h"
#include "symbols/xu_elf_synth.h"
#include "symbols/xu_kallsyms.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_linux_memory_image.h"

#define PAGE 4096ULL

/* What the file holds, each range named by the kernel's own linker symbols. */
static const struct want {
    const char *lo, *hi, *section;
    uint32_t type;
    uint64_t flags;
} wants[] = {
    { "_text", "_etext", ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR },
    { "__start_rodata", "__end_rodata", ".rodata", SHT_PROGBITS, SHF_ALLOC },
    { "__start_notes", "__stop_notes", ".notes", SHT_NOTE, SHF_ALLOC },
    { "__start_BTF", "__stop_BTF", ".BTF", SHT_PROGBITS, SHF_ALLOC },
    { "__start_orc_unwind_ip", "__stop_orc_unwind_ip", ".orc_unwind_ip", SHT_PROGBITS, SHF_ALLOC },
    { "__start_orc_unwind", "__stop_orc_unwind", ".orc_unwind", SHT_PROGBITS, SHF_ALLOC },
    { "__start_orc_header", "__stop_orc_header", ".orc_header", SHT_PROGBITS, SHF_ALLOC },
    /* freed after boot: its range only, for the ORC entries of its code and the
     * boot path's frames there (xu_elf_code_freed()) */
    { "__init_begin", "__init_end", XU_ELF_FREED_CODE_SECTION, SHT_NOBITS,
      SHF_ALLOC | SHF_EXECINSTR },
};
#define NWANTS (sizeof(wants) / sizeof(wants[0]))
enum { W_TEXT, W_RODATA, W_NOTES, W_BTF, W_ORC_IP, W_ORC, W_ORC_HEADER, W_INIT };

/* A guest range, 0/0 when kallsyms does not name it or it is not inside the read. */
struct range {
    uint64_t lo, hi;
};

static bool mapped(struct xu_mem *m, uint64_t va)
{
    uint64_t frame;

    return xu_mem_translate(m, va, &frame) == XU_MEM_OK;
}

/* The lowest mapped 2 MiB block of the run holding anchor (or the window's first
 * mapped block); 0 when the window maps nothing. */
static uint64_t find_start(struct xu_mem *m, uint64_t anchor)
{
    const uint64_t block = XU_KASLR_X86_ALIGN;
    uint64_t b;

    if (!xu_kaslr_x86_in_window(anchor) || !mapped(m, anchor & ~(block - 1))) {
        anchor = 0;
        for (b = XU_KASLR_X86_WINDOW_LO; b < XU_KASLR_X86_WINDOW_HI && !anchor; b += block)
            if (mapped(m, b))
                anchor = b;
        if (!anchor)
            return 0;
    }
    b = anchor & ~(block - 1);
    while (b > XU_KASLR_X86_WINDOW_LO && mapped(m, b - block))
        b -= block;
    return b;
}

/* Room for len more bytes at off in *buf (*cap bytes), grown by doubling up to
 * XU_LINUX_MEM_IMAGE_MAX: an image is tens of MiB, a hostile guest's window no more. */
static int room(uint8_t **buf, uint64_t *cap, uint64_t off, uint64_t len)
{
    uint64_t want = *cap ? *cap : 8ULL << 20;
    uint8_t *p;

    if (off + len <= *cap)
        return 0;
    while (want < off + len)
        want *= 2;
    if (want > XU_LINUX_MEM_IMAGE_MAX)
        want = XU_LINUX_MEM_IMAGE_MAX;
    p = realloc(*buf, want);
    if (!p)
        return -ENOMEM;
    *buf = p;
    *cap = want;
    return 0;
}

/* Pages from start into *buf until the gap, the window's end or the bound; the length
 * without the trailing unmapped pages into *len.  0 or -ENOMEM. */
static int read_pages(struct xu_mem *m, uint64_t start, uint8_t **buf, uint64_t *len,
                      uint64_t *unmapped)
{
    uint64_t end = XU_KASLR_X86_WINDOW_HI - start, off, gap = 0, cap = 0;

    if (end > XU_LINUX_MEM_IMAGE_MAX)
        end = XU_LINUX_MEM_IMAGE_MAX;
    *unmapped = 0;
    for (off = 0; off < end && gap < XU_LINUX_MEM_IMAGE_GAP; off += PAGE) {
        if (room(buf, &cap, off, PAGE) < 0)
            return -ENOMEM;
        if (xu_mem_read(m, start + off, *buf + off, PAGE) == 0) {
            gap = 0;
            continue;
        }
        memset(*buf + off, 0, PAGE);
        gap += PAGE;
        *unmapped += PAGE;
    }
    *unmapped -= gap;
    *len = off - gap;
    return 0;
}

/* Each want's range from kallsyms, kept only whole and in order inside [start, end). */
static void find_ranges(const struct xu_kallsyms *k, uint64_t start, uint64_t end,
                        struct range *r)
{
    bool lo_seen[NWANTS] = { false }, hi_seen[NWANTS] = { false };
    size_t i, w;

    memset(r, 0, NWANTS * sizeof(*r));
    for (i = 0; i < k->n; i++) {
        const char *name = k->pool + k->syms[i].name;

        if (name[0] != '_')
            continue;
        for (w = 0; w < NWANTS; w++) {
            if (!lo_seen[w] && strcmp(name, wants[w].lo) == 0) {
                lo_seen[w] = true;
                r[w].lo = k->syms[i].addr;
            } else if (!hi_seen[w] && strcmp(name, wants[w].hi) == 0) {
                hi_seen[w] = true;
                r[w].hi = k->syms[i].addr;
            }
        }
    }
    for (w = 0; w < NWANTS; w++) {
        /* a range without bytes need only lie in the kernel's window */
        uint64_t hi = wants[w].type == SHT_NOBITS ? XU_KASLR_X86_WINDOW_HI : end;

        if (!lo_seen[w] || !hi_seen[w] || r[w].lo < start || r[w].lo >= r[w].hi ||
            r[w].hi > hi)
            r[w] = (struct range){ 0, 0 };
    }
    if (!r[W_ORC_IP].hi || !r[W_ORC].hi)
        r[W_ORC_IP] = r[W_ORC] = r[W_ORC_HEADER] = (struct range){ 0, 0 };
}

static int write_file(const uint8_t *buf, uint64_t start, uint64_t len, const struct range *r,
                      int *fd, char **mem_path)
{
    struct xu_elf_synth_section secs[NWANTS];
    size_t w, n = 0;

    for (w = 0; w < NWANTS; w++) {
        struct range x = r[w];

        /* without the data symbols, kallsyms is somewhere after the text */
        if (w == W_RODATA && !x.hi)
            x = (struct range){ r[W_TEXT].hi, start + len };
        if (!x.hi)
            continue;
        secs[n++] = (struct xu_elf_synth_section){
            .name = wants[w].section, .type = wants[w].type, .flags = wants[w].flags,
            .addr = x.lo, .size = x.hi - x.lo,
            .data = wants[w].type == SHT_NOBITS ? NULL : buf + (x.lo - start) };
    }
    return xu_elf_synth_memfd(secs, n, EM_X86_64, r[W_TEXT].lo, fd, mem_path);
}

int xu_linux_memory_image_read(struct xu_mem *m, uint64_t anchor, int *fd, char **mem_path,
                               struct xu_linux_memory_image *out, char *err, size_t err_size)
{
    struct xu_kallsyms k = { 0 };
    struct range r[NWANTS];
    char why[160];
    uint8_t *buf = NULL;
    uint64_t len = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    *fd = -1;
    *mem_path = NULL;
    out->start = find_start(m, anchor);
    if (!out->start) {
        snprintf(err, err_size, "the guest maps nothing where an x86-64 kernel runs");
        return -ENOENT;
    }
    rc = read_pages(m, out->start, &buf, &len, &out->unmapped);
    if (rc < 0) {
        snprintf(err, err_size, "out of memory");
        goto out;
    }
    out->read = len;
    rc = xu_kallsyms_read(buf, len, &k, why, sizeof(why));
    if (rc < 0) {
        snprintf(err, err_size, "no kallsyms tables in the %" PRIu64 " KiB mapped from %#"
                 PRIx64 " (%s)", len >> 10, out->start, why);
        goto out;
    }
    out->symbols = k.n;
    out->layout = k.layout;
    find_ranges(&k, out->start, out->start + len, r);
    if (!r[W_TEXT].hi) {
        snprintf(err, err_size, "kallsyms (%zu symbols) names no _text and _etext inside "
                 "the %" PRIu64 " KiB read from %#" PRIx64, k.n, len >> 10, out->start);
        rc = -ENODATA;
        goto out;
    }
    out->text = r[W_TEXT].lo;
    out->etext = r[W_TEXT].hi;
    out->notes = r[W_NOTES].hi != 0;
    out->btf = r[W_BTF].hi != 0;
    out->orc = r[W_ORC].hi != 0;
    rc = write_file(buf, out->start, len, r, fd, mem_path);
    if (rc < 0)
        snprintf(err, err_size, "cannot write the image read: %s", strerror(-rc));
out:
    xu_kallsyms_dispose(&k);
    free(buf);
    return rc;
}
