/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_world.h - the world of a `xen-uniprof top` test: the ratio guest of
 * test_record.c (function_1, function_2 and function_3 in the ratio 1:3:6,
 * under main_loop, start_kernel and _start, on one vCPU) as a simulated
 * domain "web1" (domid 5) with its kernel file in a directory of its own,
 * a domain directory that knows it, a guardian that is not a process, and
 * either a clock that does not wait or the real one.  One world at a time
 * (the domain directory's callbacks have no context of their own).
 */
#ifndef TOP_WORLD_H
#define TOP_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "record/xu_record.h"
#include "sim_guest.h"

#define TOP_WORLD_DOMID 5

struct top_world {
    struct sim_guest g;
    struct xu_log log;              /* counts what the run logs */
    unsigned int errors, warnings;
    char first_error[512];
    uint64_t fake_now;
    struct xu_clock clock;
    struct xu_record_env env;       /* backend, domain directory, guardian, log, clock */
    char dir[64];
    char kernel[256];               /* the domain's kernel file (unlink it: no ELF) */
};

/* flags of top_world_init() */
#define TOP_WORLD_FAKE_CLOCK (1u << 0)  /* the env's clock does not wait (else the real one) */
#define TOP_WORLD_RUNNABLE   (1u << 1)  /* the vCPU reads as runnable, not running (as
                                         * a domain someone else paused shows it) */
#define TOP_WORLD_OTHER_NAMES (1u << 2) /* the kernel's functions are other_start,
                                         * other_loop, other_1, other_2, other_3 */

/* A world.  0 or -1. */
int top_world_init(struct top_world *w, unsigned int flags);
/* The same guest as domain domid called name (one of the domains of a
 * `top --all` test, in a child process of its own).  0 or -1. */
int top_world_init_domain(struct top_world *w, unsigned int flags, uint32_t domid,
                          const char *name);
/* The guest's pause references and mappings left, the guardian's starts
 * and stops: 0 when nothing is held, the guardian stopped as often as
 * started and its word RUNNING; -1 with why.  Removes the directory. */
int top_world_fini(struct top_world *w, char *why, size_t len);
/* How many times the guest was paused (the sim's counter). */
uint64_t top_world_pauses(struct top_world *w);

#endif
