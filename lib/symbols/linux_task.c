/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_task.c - where a Linux kernel keeps the current task's pid and
 * comm, from its BTF and its kallsyms (see xu_btf.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "symbols/xu_btf.h"
#include "util/xu_log.h"

/* The address of the symbol name in k, false when it has none. */
static bool symbol(const struct xu_kallsyms *k, const char *name, uint64_t *addr)
{
    size_t i;

    for (i = 0; i < k->n; i++)
        if (strcmp(k->pool + k->syms[i].name, name) == 0) {
            *addr = k->syms[i].addr;
            return true;
        }
    return false;
}

/* The per-CPU pointer to the current task: the variable current_task (to
 * 6.1), or pcpu_hot's member of that name (6.2 on). */
static int current_task(const struct xu_btf *b, const struct xu_kallsyms *k,
                        struct xu_linux_task_layout *out, char *err, size_t err_size)
{
    struct xu_btf_member m;
    uint32_t hot;
    uint64_t at;

    if (symbol(k, "current_task", &at)) {
        out->current_task = at;
        out->current_from = "current_task";
        return 0;
    }
    hot = xu_btf_find(b, XU_BTF_STRUCT, "pcpu_hot");
    if (hot && symbol(k, "pcpu_hot", &at) && xu_btf_member(b, hot, "current_task", &m) == 0) {
        out->current_task = at + m.offset;
        out->current_from = "pcpu_hot.current_task";
        return 0;
    }
    xu_errbuf_printf(err, err_size, "kallsyms has neither current_task nor pcpu_hot (with BTF's "
                     "struct pcpu_hot)");
    return -ENOENT;
}

int xu_linux_task_layout(const struct xu_btf *b, const struct xu_kallsyms *k,
                         struct xu_linux_task_layout *out, char *err, size_t err_size)
{
    struct xu_btf_member pid, comm;
    uint32_t task = xu_btf_find(b, XU_BTF_STRUCT, "task_struct");

    memset(out, 0, sizeof(*out));
    if (!task) {
        xu_errbuf_printf(err, err_size, "BTF has no struct task_struct");
        return -ENOENT;
    }
    if (xu_btf_member(b, task, "pid", &pid) < 0 || xu_btf_member(b, task, "comm", &comm) < 0 ||
        pid.size != 4 || comm.size == 0) {
        xu_errbuf_printf(err, err_size, "BTF's struct task_struct has no 4-byte pid or no comm");
        return -ENOENT;
    }
    out->pid_offset = pid.offset;
    out->pid_size = pid.size;
    out->comm_offset = comm.offset;
    out->comm_size = comm.size;
    return k ? current_task(b, k, out, err, err_size) : 0;
}
