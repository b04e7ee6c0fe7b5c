/* SPDX-License-Identifier: GPL-2.0-only */
/* task_read.c - the current Linux task of a paused vCPU (see xu_task_read.h). */
#include "config.h"

#include <string.h>

#include "sample/xu_task_read.h"

static bool kernel_half(uint64_t va)
{
    return (int64_t)va < 0;
}

/* The reads, through m's current context. */
static bool read_task(struct xu_mem *m, uint64_t percpu, const struct xu_linux_task_layout *l,
                      int32_t *pid, char comm[XU_TASK_COMM])
{
    uint64_t task;
    uint32_t raw_pid;
    char buf[XU_TASK_COMM];
    size_t n = l->comm_size < XU_TASK_COMM ? l->comm_size : XU_TASK_COMM;

    if (xu_mem_read_u64(m, percpu + l->current_task, &task) < 0)
        return false;
    if (!kernel_half(task) || (task & 7) != 0)
        return false;
    if (xu_mem_read(m, task + l->pid_offset, &raw_pid, sizeof(raw_pid)) < 0 ||
        raw_pid > XU_LINUX_PID_MAX)
        return false;
    memset(buf, 0, sizeof(buf));
    if (xu_mem_read(m, task + l->comm_offset, buf, n) < 0 || memchr(buf, '\0', n) == NULL)
        return false;
    *pid = (int32_t)raw_pid;
    memcpy(comm, buf, sizeof(buf));
    return true;
}

bool xu_task_read_linux(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                        const struct xu_linux_task_layout *l, int32_t *pid,
                        char comm[XU_TASK_COMM])
{
    struct xu_vcpu_regs kernel;
    bool ok;

    if (!l || !l->current_from || l->pid_size != 4 || l->comm_size == 0 ||
        !kernel_half(regs->kernel_percpu) || !kernel_half(regs->kernel_percpu + l->current_task))
        return false;
    if (read_task(m, regs->kernel_percpu, l, pid, comm))
        return true;
    if (!xu_vcpu_kpti_kernel(regs, &kernel))
        return false;
    xu_mem_set_context(m, &kernel);
    ok = read_task(m, regs->kernel_percpu, l, pid, comm);
    xu_mem_set_context(m, regs);
    return ok;
}
