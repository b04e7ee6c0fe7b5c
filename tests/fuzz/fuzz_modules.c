/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_modules.c - a hostile Linux module list: the module reader
 * (xu_linux_modules.h) on a simulated guest whose kernel data comes from
 * the input, and lookups in the table it builds; then the modules' own ORC
 * tables read from the same list (struct module's num_orcs, orc_unwind_ip
 * and orc_unwind 8, 16 and 24 bytes past its kallsyms pointer) and chained
 * after a kernel's, and lookups through them.
 *
 * The input is
 *
 *   header  the layout (struct in_header: struct module's and struct
 *           mod_kallsyms's offsets, the widths of the sizes, and where the
 *           list head lies in the region)
 *   region  the rest: up to REGION_LEN bytes of kernel memory at REGION,
 *           which is all that is mapped (the list, the modules, their
 *           symbols and names, as the input's pointers say)
 *
 * tests/unit/symbols/test_linux_modules writes seeds of this form
 * (XU_MODULES_CORPUS=DIR).
 */
#include "config.h"

#include <elf.h>
#include <string.h>

#include "fuzz.h"
#include "sim_guest.h"
#include "symbols/xu_linux_modules.h"
#include "unwind/xu_orc.h"

#define REGION 0xffff888000200000ULL
#define REGION_LEN 0x10000u

struct in_header {
    uint16_t head, list, name, name_size;
    uint16_t base[2], size[2], kallsyms, symtab, num, strtab;
    uint8_t size_bytes, num_bytes, pad[2];
};

static void lookups(const struct xu_symtab *st)
{
    uint64_t a;

    /* the module area in steps: every answer must be a name */
    for (a = 0xffffffffc0000000ULL; a < 0xffffffffc0100000ULL; a += 0x80) {
        const struct xu_symbol *s = xu_symtab_lookup(st, a);

        if (s && (!s->name || !s->name[0] || a < s->start || a - s->start >= s->size))
            __builtin_trap();
    }
}

/* A kernel's table of one entry, for the modules' to chain after. */
static struct xu_orc_table *kernel_orc(void)
{
    static const uint8_t ip[4] = { 0 }, orc[6] = { 16, 0, 0, 0, XU_ORC_REG_SP, 0 };
    const struct xu_orc_sections sec = {
        .ip = ip, .ip_len = 4, .ip_addr = 0xffffffff81000000ULL, .orc = orc, .orc_len = 6,
        .text_start = 0xffffffff81000000ULL, .text_end = 0xffffffff81001000ULL,
        .layout_given = true, .layout = XU_ORC_LAYOUT_4_14,
    };
    struct xu_orc_table *t = NULL;

    xu_orc_from_sections(&sec, &t, NULL, 0);
    return t;
}

static void orc_lookups(struct xu_mem *m, const struct xu_linux_module_layout *l,
                        const struct xu_vcpu_regs *r)
{
    struct xu_linux_modules_stats st;
    struct xu_orc_table *k = kernel_orc();
    struct xu_orc_entry e;
    uint64_t a, start;

    if (!k)
        return;
    xu_mem_begin(m);
    xu_mem_set_context(m, r);
    if (xu_linux_modules_read_orc(m, l, k, &st) == 0) {
        if (st.orc_tables > 2 * XU_MODULES_MAX)
            __builtin_trap();
        /* the module area, and the region (where a seed puts a module's text) */
        for (a = 0xffffffffc0000000ULL; a < 0xffffffffc0100000ULL; a += 0x40)
            if (xu_orc_lookup(k, a, &e, &start) && start > a)
                __builtin_trap();
        for (a = REGION; a < REGION + REGION_LEN; a += 0x10)
            if (xu_orc_lookup(k, a, &e, &start) && start > a)
                __builtin_trap();
    }
    xu_orc_free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t chain[] = { SIM_TEXT_BASE + 0x1010, SIM_TEXT_BASE + 0x10 };
    struct xu_linux_module_layout l = { 0 };
    struct xu_linux_modules_stats st;
    struct xu_symtab *tab = NULL;
    struct in_header h;
    struct sim_guest g;
    struct xu_target t;
    struct xu_vcpu_regs r;
    struct xu_mem *m = NULL;
    bool open = false;

    if (size < sizeof(h))
        return 0;
    memcpy(&h, data, sizeof(h));
    data += sizeof(h);
    size -= sizeof(h);
    if (size > REGION_LEN)
        size = REGION_LEN;
    l.modules = REGION + (h.head & ~7u);
    l.list_offset = h.list;
    l.name_offset = h.name;
    l.name_size = h.name_size % (XU_MODULE_NAME_LEN + 1);
    l.text_base[0] = h.base[0];
    l.text_base[1] = h.base[1];
    l.text_size[0] = h.size[0];
    l.text_size[1] = h.size[1];
    l.text_size_bytes = h.size_bytes & 1 ? 8 : 4;
    l.kallsyms_offset = h.kallsyms;
    l.ks_symtab = h.symtab;
    l.ks_num = h.num;
    l.ks_num_bytes = h.num_bytes & 1 ? 8 : 4;
    l.ks_strtab = h.strtab;
    l.has_orc = true;
    l.orc_num = h.kallsyms + 8u;
    l.orc_ip = h.kallsyms + 16u;
    l.orc_unwind = h.kallsyms + 24u;
    if (sim_guest_init(&g, XU_GUEST_PVH, 1, 0) < 0)
        return 0;
    if (xu_sim_map_range(g.sim, g.root, REGION, REGION_LEN) < 0 ||
        (size && xu_sim_write(g.sim, g.root, REGION, data, size) < 0) ||
        xu_sim_target_open(g.sim, &t, xu_fuzz_log()) < 0)
        goto out;
    open = true;
    m = xu_mem_new(&t, NULL);
    if (!m || sim_guest_chain(&g, 0, chain, 2, &r) < 0)
        goto out;
    xu_mem_begin(m);
    xu_mem_set_context(m, &r);
    if (xu_linux_modules_read(m, &l, EM_X86_64, &tab, &st) == 0 && tab) {
        if (st.modules > XU_MODULES_MAX || st.symbols > XU_MODULES_MAX_SYMS)
            __builtin_trap();
        lookups(tab);
    }
    orc_lookups(m, &l, &r);
out:
    xu_symtab_free(tab);
    xu_mem_free(m);
    if (open)
        xu_target_close(&t);
    sim_guest_fini(&g);
    return 0;
}
