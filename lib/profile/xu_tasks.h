/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_tasks.h - the tasks a recording's samples interrupted, interned, and
 * the names of the frames no code lives at (xu_walk.h's pseudo-frames).
 *
 * A sample of a Linux guest carries its task as its outermost frame,
 * xu_pc_task(i), i an index into this table, so the profile store keeps
 * stacks of PCs and nothing else.  The table is bounded (XU_TASKS_MAX
 * entries, no allocation): a guest that runs more distinct (pid, comm)
 * pairs than that has the rest counted together under XU_TASKS_OTHER.
 * Index XU_TASKS_UNKNOWN is a sample whose task could not be read (its
 * pointers led nowhere a task could be).  pid 0 is the idle task of every
 * CPU (comm swapper/N): one entry, named idle.
 *
 * The comm is the guest's: written into names with anything but printable
 * ASCII, ';' (folded's separator) and white space replaced by '_'.
 */
#ifndef XU_TASKS_H
#define XU_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/xu_walk.h"

#define XU_TASKS_MAX 1024
#define XU_TASK_COMM 16             /* Linux's TASK_COMM_LEN */
#define XU_TASKS_UNKNOWN 0u
#define XU_TASKS_OTHER (XU_TASKS_MAX + 1u)

#define XU_IDLE_FRAME "[idle]"
#define XU_TASK_UNKNOWN_FRAME "[task] unknown"
#define XU_TASK_OTHER_FRAME "[task] others"

#define XU_TASK_NAME_MAX 40        /* "[task] " + a 16-byte comm + "/" + a pid, NUL */

struct xu_task {
    int32_t pid;
    char comm[XU_TASK_COMM];        /* NUL-padded, not always NUL-terminated */
    char name[XU_TASK_NAME_MAX];    /* its frame's name, built once */
};

struct xu_tasks {
    uint32_t n;                     /* entries used, index 0 (unknown) included */
    uint64_t others;                /* interns that found the table full */
    struct xu_task t[XU_TASKS_MAX + 1];
};

void xu_tasks_init(struct xu_tasks *t);

/* The index of (pid, comm), added when new: XU_TASKS_OTHER when the table
 * is full.  pid 0 is the idle task whatever its comm. */
uint32_t xu_tasks_intern(struct xu_tasks *t, int32_t pid, const char comm[XU_TASK_COMM]);

/*
 * The name of a pseudo-frame (xu_pc_is_pseudo()): "[upcall]", "[user]",
 * "[task] comm/pid", "[idle]", "[task] unknown", "[task] others"; tasks
 * is NULL or the table the profile was recorded with (without it a task
 * is "[task] #i", built in buf: 19 bytes hold it).  NULL for an ordinary
 * PC.  A table's names live as long as the table.
 */
const char *xu_pseudo_frame_name(const struct xu_tasks *tasks, uint64_t pc, char *buf,
                                 size_t size);

#endif
