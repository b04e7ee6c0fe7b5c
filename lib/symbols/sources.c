/* SPDX-License-Identifier: GPL-2.0-only */
/* sources.c - the symbol sources for ELF files without .symtab (symtab_source.h). */
#include "config.h"

#include <stddef.h>

#include "symbols/symtab_source.h"

const struct xu_symtab_source *const xu_symtab_sources[] = {
    &xu_symtab_source_kallsyms,
    NULL,
};
