/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_vstate.h - what a vCPU was doing when it was sampled.
 *
 * Xen's XEN_DOMCTL_getvcpuinfo says online, blocked and running per vCPU.
 * A sample without that answer (a backend that cannot ask, a trace written
 * before the state was recorded) is XU_VSTATE_UNKNOWN, never guessed.
 * Backends produce it, profiles, readers and writers carry it: so it lives
 * here, below all of them, like xu_walk.h.
 */
#ifndef XU_VSTATE_H
#define XU_VSTATE_H

#include <stdbool.h>
#include <stddef.h>

enum xu_vstate {
    XU_VSTATE_UNKNOWN = 0,  /* not asked, or the question failed */
    XU_VSTATE_RUNNING,      /* on a physical CPU */
    XU_VSTATE_RUNNABLE,     /* wants a CPU, waits for the scheduler */
    XU_VSTATE_BLOCKED,      /* waits for an event (halted, idle) */
    XU_VSTATE_OFFLINE,      /* down: never sampled, only counted */
    XU_VSTATE__COUNT
};

/* "running", "runnable", "blocked", "offline", "unknown". */
const char *xu_vstate_name(enum xu_vstate s);
/* The state named name (as xu_vstate_name() spells it), or XU_VSTATE__COUNT. */
enum xu_vstate xu_vstate_from_name(const char *name, size_t len);

/*
 * From getvcpuinfo's three flags, in this order: a vCPU that is not online
 * is offline whatever else it says; blocked wins over running (Xen sets
 * both for a moment while a vCPU blocks); neither is runnable.
 */
static inline enum xu_vstate xu_vstate_from_flags(bool online, bool blocked, bool running)
{
    if (!online)
        return XU_VSTATE_OFFLINE;
    if (blocked)
        return XU_VSTATE_BLOCKED;
    if (running)
        return XU_VSTATE_RUNNING;
    return XU_VSTATE_RUNNABLE;
}

/* Off-CPU: the vCPU wanted to, or could, run but held no CPU. */
static inline bool xu_vstate_off_cpu(enum xu_vstate s)
{
    return s == XU_VSTATE_RUNNABLE || s == XU_VSTATE_BLOCKED;
}

#endif
