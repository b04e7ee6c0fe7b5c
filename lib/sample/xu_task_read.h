/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_task_read.h - the Linux task a stopped vCPU was running, read while
 * the guest is paused.
 *
 * The per-CPU base the vCPU holds (xu_vcpu_regs.kernel_percpu: the
 * kernel's GS base, the swapped one in user mode), plus the per-CPU offset
 * of the current task pointer (from the image's kallsyms), gives the
 * address of that pointer; the task's pid and comm lie at the offsets the
 * image's BTF gives (struct xu_linux_task_layout).  Three reads through
 * the guest's page tables (the kernel's, in user mode too: see below), no
 * allocation.  Everything read is the guest's: a base or pointer outside
 * the kernel half, a read that faults, a pid out of Linux's range or a
 * comm without its NUL is "unknown", never an error.
 *
 * A vCPU whose tables do not map the kernel's data (Linux's page-table
 * isolation gives user mode its own PGD, the 4 KiB page after the kernel's
 * 8 KiB-aligned one, which the kernel's entry and exit code also run on
 * around their switch) is read again through the kernel's half of that pair
 * when the first read faults (xu_vcpu_kpti_kernel()).  A 64-bit PV vCPU in
 * user mode needs no such guess: its kernel table is root_hi.
 */
#ifndef XU_TASK_READ_H
#define XU_TASK_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/xu_mem.h"
#include "profile/xu_tasks.h"
#include "symbols/xu_btf.h"
#include "target/xu_target.h"

#define XU_LINUX_PID_MAX 4194304        /* PID_MAX_LIMIT on 64-bit kernels */

/*
 * The task of the vCPU whose registers are regs.  true with *pid and comm
 * (NUL-padded) filled, false when unknown.  Leaves m's context at regs
 * (the caller's walk set it there already).
 */
bool xu_task_read_linux(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                        const struct xu_linux_task_layout *l, int32_t *pid,
                        char comm[XU_TASK_COMM]);

#endif
