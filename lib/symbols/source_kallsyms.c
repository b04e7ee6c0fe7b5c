/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source_kallsyms.c - function symbols of a Linux vmlinux without .symtab,
 * from the kernel's own kallsyms tables in its .rodata (xu_kallsyms.h).
 *
 * Only function symbols (t, T, w, W) are kept, each sized up to the next
 * symbol of any type at a higher address, as the kernel itself sizes them
 * (kallsyms_lookup_size_offset); symbols outside the file's executable
 * sections are dropped by the sink.  They are added in the table's order,
 * so that of several names at one address the first, the one the kernel's
 * own lookups return, names it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "symbols/symtab_source.h"
#include "symbols/xu_elf_section.h"
#include "symbols/xu_kallsyms.h"

static Elf_Data *rodata(Elf *elf)
{
    GElf_Shdr sh;
    Elf_Scn *scn = xu_elf_progbits_named(elf, ".rodata", &sh);

    return scn ? elf_getdata(scn, NULL) : NULL;
}

static int add_functions(const struct xu_kallsyms *k, struct xu_symtab_sink *sink, size_t *added)
{
    size_t i, j = 0;
    int rc;

    *added = 0;
    for (i = 0; i < k->n; i++) {
        const struct xu_kallsyms_sym *s = &k->syms[i];
        uint64_t size = 0;

        if (!xu_kallsyms_is_function(s->type) || !k->pool[s->name])
            continue;
        if (j <= i)
            j = i + 1;
        while (j < k->n && k->syms[j].addr <= s->addr)     /* sorted: j only rises */
            j++;
        if (j < k->n)
            size = k->syms[j].addr - s->addr;
        rc = xu_symtab_sink_add(sink, k->pool + s->name, s->addr, size, true);
        if (rc == -E2BIG)
            break;
        if (rc < 0)
            return rc;
        (*added)++;
    }
    return 0;
}

static int read_kallsyms(Elf *elf, const char *path, struct xu_log *log,
                         struct xu_symtab_sink *sink, char *why, size_t why_size)
{
    struct xu_kallsyms k;
    Elf_Data *d = rodata(elf);
    size_t added = 0;
    int rc;

    if (!d || !d->d_buf || d->d_size == 0) {
        snprintf(why, why_size, "no .rodata to look for kallsyms in");
        return -ENODATA;
    }
    rc = xu_kallsyms_read(d->d_buf, d->d_size, &k, why, why_size);
    if (rc < 0)
        return rc;
    rc = add_functions(&k, sink, &added);
    if (rc == 0 && added == 0) {
        snprintf(why, why_size, "kallsyms tables (%zu symbols) without a function in the "
                 "file's text", k.n);
        rc = -ENODATA;
    }
    if (rc == 0)
        xu_debug(log, "%s: %zu function symbols of %zu from kallsyms (%s)", path, added, k.n,
                 k.layout);
    xu_kallsyms_dispose(&k);
    return rc;
}

const struct xu_symtab_source xu_symtab_source_kallsyms = {
    .name = "kallsyms",
    .read = read_kallsyms,
};
