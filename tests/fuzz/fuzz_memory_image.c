/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_memory_image.c - a hostile running kernel read from its memory: the
 * reader of a kernel's image in guest memory (xu_linux_memory_image.h: where
 * the image starts, the pages read with their gaps, kallsyms in them, the
 * ranges its linker symbols name) on a simulated guest whose kernel window
 * holds the input, and then every reader of the ELF it writes: the symbols
 * (kallsyms from its .rodata, lookups over its text, each of which must fall
 * inside the symbol it names), the ORC tables, and the BTF and kallsyms
 * layouts of a Linux image.
 *
 * The input is
 *
 *   header  struct in_header: which of the region's first 32 pages are not
 *           mapped, the page the anchor points into (0xffff: no anchor), and
 *           a page mapped that many pages past the region (0: none)
 *   region  the rest: up to REGION_PAGES pages of the kernel's window from
 *           _text's usual address, mapped but for the header's holes
 *
 * tests/unit/symbols/test_linux_memory_image writes seeds of this form
 * (XU_MEMIMAGE_CORPUS=DIR).
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "sim_guest.h"
#include "symbols/xu_linux_image.h"
#include "symbols/xu_linux_memory_image.h"
#include "symbols/xu_symbols.h"
#include "unwind/xu_orc.h"

#define REGION 0xffffffff81000000ULL
#define REGION_PAGES 64u
#define PAGE 4096u

struct in_header {
    uint32_t unmapped;
    uint16_t anchor, far;
};

static void lookups(const struct xu_symtab *st, uint64_t lo, uint64_t hi)
{
    uint64_t a;

    for (a = lo; a < hi && a - lo < REGION_PAGES * PAGE; a += 0x40) {
        const struct xu_symbol *s = xu_symtab_lookup(st, a);

        if (s && (!s->name || !s->name[0] || a < s->start || a - s->start >= s->size))
            __builtin_trap();
    }
}

/* Every reader of an image on the file written. */
static void read_file(const char *path, const struct xu_linux_memory_image *img)
{
    struct xu_symtab *st = NULL;
    struct xu_orc_table *orc = NULL;
    struct xu_linux_image li;
    struct xu_orc_entry e;
    uint64_t a, start;

    if (xu_symtab_open_flags(path, EM_X86_64, 0, xu_fuzz_log(), &st) == 0) {
        lookups(st, img->text, img->etext);
        xu_symtab_free(st);
    }
    if (xu_orc_open(path, xu_fuzz_log(), &orc) == 0) {
        for (a = img->text; a < img->etext && a - img->text < REGION_PAGES * PAGE; a += 0x10)
            if (xu_orc_lookup(orc, a, &e, &start) && start > a)
                __builtin_trap();
        xu_orc_free(orc);
    }
    xu_linux_image_open(path, &li);
}

static int lay(struct sim_guest *g, const struct in_header *h, const uint8_t *data, size_t size)
{
    size_t pages = (size + PAGE - 1) / PAGE, i;

    for (i = 0; i < pages; i++) {
        uint64_t va = REGION + i * PAGE;
        size_t n = size - i * PAGE < PAGE ? size - i * PAGE : PAGE;

        if (i < 32 && (h->unmapped & (1u << i)))
            continue;
        if (xu_sim_map_range(g->sim, g->root, va, PAGE) < 0 ||
            xu_sim_write(g->sim, g->root, va, data + i * PAGE, n) < 0)
            return -1;
    }
    if (h->far && xu_sim_map_range(g->sim, g->root, REGION + (pages + h->far) * (uint64_t)PAGE,
                                   PAGE) < 0)
        return -1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t pc = REGION + 0x100;
    struct xu_linux_memory_image img;
    struct in_header h;
    struct sim_guest g;
    struct xu_target t;
    struct xu_vcpu_regs r;
    struct xu_mem *m = NULL;
    char err[256], *path = NULL;
    uint64_t anchor;
    bool open = false;
    int fd = -1;

    if (size < sizeof(h))
        return 0;
    memcpy(&h, data, sizeof(h));
    data += sizeof(h);
    size -= sizeof(h);
    if (size > REGION_PAGES * PAGE)
        size = REGION_PAGES * PAGE;
    anchor = h.anchor == 0xffff ? 0 : REGION + (uint64_t)(h.anchor % REGION_PAGES) * PAGE;
    if (sim_guest_init(&g, XU_GUEST_PVH, 1, 2 * REGION_PAGES + 64) < 0)
        return 0;
    if (lay(&g, &h, data, size) < 0 || xu_sim_target_open(g.sim, &t, xu_fuzz_log()) < 0)
        goto out;
    open = true;
    m = xu_mem_new(&t, NULL);
    if (!m || sim_guest_chain(&g, 0, &pc, 1, &r) < 0)
        goto out;
    xu_mem_begin(m);
    xu_mem_set_context(m, &r);
    if (xu_linux_memory_image_read(m, anchor, &fd, &path, &img, err, sizeof(err)) == 0) {
        if (fd < 0 || !path || img.read > XU_LINUX_MEM_IMAGE_MAX || img.text >= img.etext ||
            img.text < img.start || img.etext > img.start + img.read)
            __builtin_trap();
        read_file(path, &img);
    } else if (fd >= 0 || path) {
        __builtin_trap();
    }
out:
    if (fd >= 0)
        close(fd);
    free(path);
    xu_mem_free(m);
    if (open)
        xu_target_close(&t);
    sim_guest_fini(&g);
    return 0;
}
