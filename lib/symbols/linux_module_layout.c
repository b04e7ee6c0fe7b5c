/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_module_layout.c - where a Linux kernel keeps its list of loaded
 * modules and each module's name, text and symbols, from its BTF and its
 * kallsyms (see xu_linux_modules.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "symbols/xu_linux_modules.h"
#include "util/xu_log.h"

/* enum mod_mem_type from 6.4: MOD_TEXT 0 ... MOD_INIT_TEXT 4, of 7 */
#define MOD_MEM_TYPES 7
#define MOD_INIT_TEXT 4

/* The list head: a data symbol named modules (several files may have a
 * static of that name; the kernel's own is global data, D). */
static bool list_head(const struct xu_kallsyms *k, uint64_t *addr)
{
    bool found = false;
    size_t i;

    for (i = 0; i < k->n; i++) {
        char t = k->syms[i].type;

        if (strcmp(k->pool + k->syms[i].name, "modules") != 0)
            continue;
        if (t == 'D') {
            *addr = k->syms[i].addr;
            return true;
        }
        if (!found && (t == 'd' || t == 'b' || t == 'B')) {
            *addr = k->syms[i].addr;
            found = true;
        }
    }
    return found;
}

/* base and size members of the struct type id, at outer + offset. */
static bool base_size(const struct xu_btf *b, uint32_t id, const char *size_name, uint32_t at,
                      uint32_t *base, uint32_t *size, uint32_t *size_bytes)
{
    struct xu_btf_member mb, ms;

    if (xu_btf_member(b, id, "base", &mb) < 0 || xu_btf_member(b, id, size_name, &ms) < 0 ||
        mb.size != 8 || (ms.size != 4 && ms.size != 8))
        return false;
    *base = at + mb.offset;
    *size = at + ms.offset;
    *size_bytes = ms.size;
    return true;
}

/* The text ranges: 6.1 to 6.3's core_layout and init_layout, or 6.4's mem[]. */
static int text(const struct xu_btf *b, uint32_t mod, struct xu_linux_module_layout *out)
{
    struct xu_btf_member core, init, mem;
    uint32_t mm, sb, elem;

    if (xu_btf_member(b, mod, "core_layout", &core) == 0 &&
        xu_btf_member(b, mod, "init_layout", &init) == 0 &&
        base_size(b, core.type, "text_size", core.offset, &out->text_base[0],
                  &out->text_size[0], &out->text_size_bytes) &&
        base_size(b, init.type, "text_size", init.offset, &out->text_base[1],
                  &out->text_size[1], &sb) && sb == out->text_size_bytes) {
        out->text_from = "core_layout";
        return 0;
    }
    mm = xu_btf_find(b, XU_BTF_STRUCT, "module_memory");
    if (mm && xu_btf_member(b, mod, "mem", &mem) == 0 && mem.size % MOD_MEM_TYPES == 0) {
        elem = mem.size / MOD_MEM_TYPES;
        if (base_size(b, mm, "size", mem.offset, &out->text_base[0], &out->text_size[0],
                      &out->text_size_bytes) &&
            base_size(b, mm, "size", mem.offset + MOD_INIT_TEXT * elem, &out->text_base[1],
                      &out->text_size[1], &sb) && sb == out->text_size_bytes) {
            out->text_from = "mem[MOD_TEXT]";
            return 0;
        }
    }
    return -ENOENT;
}

static int kallsyms(const struct xu_btf *b, uint32_t mod, struct xu_linux_module_layout *out)
{
    struct xu_btf_member ks, sym, num, str;
    uint32_t mk = xu_btf_find(b, XU_BTF_STRUCT, "mod_kallsyms");

    if (!mk || xu_btf_member(b, mod, "kallsyms", &ks) < 0 || ks.size != 8 ||
        xu_btf_member(b, mk, "symtab", &sym) < 0 || sym.size != 8 ||
        xu_btf_member(b, mk, "num_symtab", &num) < 0 || (num.size != 4 && num.size != 8) ||
        xu_btf_member(b, mk, "strtab", &str) < 0 || str.size != 8)
        return -ENOENT;
    out->kallsyms_offset = ks.offset;
    out->ks_symtab = sym.offset;
    out->ks_num = num.offset;
    out->ks_num_bytes = num.size;
    out->ks_strtab = str.offset;
    return 0;
}

/* The module's own ORC tables, where the kernel unwinds with ORC: optional. */
static void orc(const struct xu_btf *b, uint32_t mod, struct xu_linux_module_layout *out)
{
    struct xu_btf_member arch, num, ip, un;

    if (xu_btf_member(b, mod, "arch", &arch) < 0 ||
        xu_btf_member(b, arch.type, "num_orcs", &num) < 0 || num.size != 4 ||
        xu_btf_member(b, arch.type, "orc_unwind_ip", &ip) < 0 || ip.size != 8 ||
        xu_btf_member(b, arch.type, "orc_unwind", &un) < 0 || un.size != 8)
        return;
    out->has_orc = true;
    out->orc_num = arch.offset + num.offset;
    out->orc_ip = arch.offset + ip.offset;
    out->orc_unwind = arch.offset + un.offset;
}

int xu_linux_module_layout(const struct xu_btf *b, const struct xu_kallsyms *k,
                           struct xu_linux_module_layout *out, char *err, size_t err_size)
{
    struct xu_btf_member list, name;
    uint32_t mod = xu_btf_find(b, XU_BTF_STRUCT, "module");

    memset(out, 0, sizeof(*out));
    if (!k || !list_head(k, &out->modules)) {
        xu_errbuf_printf(err, err_size, "kallsyms has no data symbol modules");
        return -ENOENT;
    }
    if (!mod || xu_btf_member(b, mod, "list", &list) < 0 || list.size != 16 ||
        xu_btf_member(b, mod, "name", &name) < 0 || name.size == 0) {
        xu_errbuf_printf(err, err_size, "BTF has no struct module with list and name");
        return -ENOENT;
    }
    out->list_offset = list.offset;
    out->name_offset = name.offset;
    out->name_size = name.size < XU_MODULE_NAME_LEN ? name.size : XU_MODULE_NAME_LEN;
    if (text(b, mod, out) < 0) {
        xu_errbuf_printf(err, err_size, "BTF's struct module has neither core_layout's nor "
                         "mem[]'s text base and size");
        return -ENOENT;
    }
    if (kallsyms(b, mod, out) < 0) {
        xu_errbuf_printf(err, err_size, "BTF has no struct mod_kallsyms with symtab, "
                         "num_symtab and strtab");
        return -ENOENT;
    }
    orc(b, mod, out);
    return 0;
}
