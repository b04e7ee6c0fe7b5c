/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_btf.c - a hostile .BTF: the BTF reader on the input as BTF data
 * (or, for an ELF file, on its .BTF section), then the queries a profile
 * makes of it: struct task_struct's pid and comm, struct pcpu_hot's
 * current_task, the layout of a Linux task with and without kallsyms.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "symbols/xu_btf.h"

static void query(const struct xu_btf *b)
{
    static char pool[] = "current_task\0pcpu_hot";
    static struct xu_kallsyms_sym syms[] = { { 0x1fb80, 13, 'A' } };
    const struct xu_kallsyms k = { syms, 1, pool, "fuzz" };
    struct xu_linux_task_layout l;
    struct xu_btf_member m;
    uint32_t id;

    id = xu_btf_find(b, XU_BTF_STRUCT, "task_struct");
    xu_btf_member(b, id, "pid", &m);
    xu_btf_member(b, id, "comm", &m);
    id = xu_btf_find(b, XU_BTF_UNION, "");
    xu_btf_member(b, id, "x", &m);
    xu_linux_task_layout(b, &k, &l, NULL, 0);
    xu_linux_task_layout(b, NULL, &l, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_btf *b = NULL;

    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0) {
        if (xu_btf_from_elf(data, size, &b, NULL, 0) < 0)
            return 0;
    } else if (xu_btf_read(data, size, &b, NULL, 0) < 0) {
        return 0;
    }
    query(b);
    xu_btf_free(b);
    return 0;
}
