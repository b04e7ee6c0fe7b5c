/* SPDX-License-Identifier: GPL-2.0-only */
/* tasks.c - the task table and the pseudo-frames' names (see xu_tasks.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile/xu_tasks.h"

void xu_tasks_init(struct xu_tasks *t)
{
    memset(t, 0, sizeof(*t));
    t->t[XU_TASKS_UNKNOWN].pid = -1;
    t->n = 1;
}

/* The guest's comm as a frame may hold it: printable, no ';', no space. */
static void clean_comm(const char comm[XU_TASK_COMM], char out[XU_TASK_COMM + 1])
{
    size_t i;

    for (i = 0; i < XU_TASK_COMM && comm[i]; i++)
        out[i] = comm[i] > ' ' && comm[i] < 0x7f && comm[i] != ';' ? comm[i] : '_';
    out[i] = '\0';
}

static void name(struct xu_task *t)
{
    char comm[XU_TASK_COMM + 1];

    if (t->pid == 0) {
        snprintf(t->name, sizeof(t->name), "%s", XU_IDLE_FRAME);
        return;
    }
    clean_comm(t->comm, comm);
    snprintf(t->name, sizeof(t->name), "[task] %s/%" PRId32, comm[0] ? comm : "?", t->pid);
}

uint32_t xu_tasks_intern(struct xu_tasks *t, int32_t pid, const char comm[XU_TASK_COMM])
{
    char key[XU_TASK_COMM] = { 0 };
    uint32_t i;

    if (pid < 0)
        return XU_TASKS_UNKNOWN;
    /* every CPU's idle task is one: the comm says which CPU it runs on */
    if (pid != 0)
        memcpy(key, comm, sizeof(key));
    for (i = 1; i < t->n && i <= XU_TASKS_MAX; i++)
        if (t->t[i].pid == pid && memcmp(t->t[i].comm, key, sizeof(key)) == 0)
            return i;
    if (t->n > XU_TASKS_MAX) {
        t->others++;
        return XU_TASKS_OTHER;
    }
    t->t[t->n].pid = pid;
    memcpy(t->t[t->n].comm, key, sizeof(key));
    name(&t->t[t->n]);
    return t->n++;
}

static const char *task_name(const struct xu_tasks *tasks, uint32_t i, char *buf, size_t size)
{
    if (i == XU_TASKS_UNKNOWN)
        return XU_TASK_UNKNOWN_FRAME;
    if (i == XU_TASKS_OTHER)
        return XU_TASK_OTHER_FRAME;
    if (!tasks || i >= tasks->n || i > XU_TASKS_MAX) {
        snprintf(buf, size, "[task] #%" PRIu32, i);
        return buf;
    }
    return tasks->t[i].name;
}

const char *xu_pseudo_frame_name(const struct xu_tasks *tasks, uint64_t pc, char *buf,
                                 size_t size)
{
    if (pc == XU_PC_UPCALL)
        return XU_UPCALL_FRAME;
    if (pc == XU_PC_USER)
        return XU_USER_FRAME;
    if (xu_pc_is_task(pc))
        return task_name(tasks, xu_pc_task_index(pc), buf, size);
    return NULL;
}
