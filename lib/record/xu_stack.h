/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_stack.h - where every vCPU is right now: `xen-uniprof stack`.
 *
 * A live domain is paused once per snapshot through the one pause policy
 * (target/xu_pause.h), with the record run's guardian watching; while it
 * is paused every online vCPU's registers are read and its stack walked
 * into raw addresses, then it runs again.  A core file written by
 * `xl dump-core` is the same, through the core target (core/xu_core.h):
 * its pause does nothing.  Afterwards the walks are vouched for by the ELF
 * and symbolised (inlined functions and source lines from its DWARF), and
 * printed as text or JSON (the schema is in the man page).
 *
 * The domain and ELF search, the unwinder choice, the guardian and the
 * results are the record run's (xu_record.h).
 */
#ifndef XU_STACK_H
#define XU_STACK_H

#include <stdbool.h>
#include <stdio.h>

#include "record/xu_record.h"

#define XU_STACK_MAX_SNAPSHOTS 10000

struct xu_stack_config {
    const char *domain;         /* live: name or domid */
    const char *core;           /* a core file instead of a live domain */
    const char *backend;        /* live: NULL for the best built one */
    const char *elf;            /* NULL: the domain's kernel (live), none (core) */
    unsigned int max_depth;
    enum xu_unwind_choice unwind;
    const char *roots;
    unsigned int snapshots;     /* -n: 1 or more */
    double interval;            /* -d: seconds between snapshots */
    bool json;
    struct xu_output_options render;    /* no_inline, raw_names */
};

/*
 * Run the job, printing to out.  env as for xu_record_run() (its backend,
 * domdir_open, clock, stop, guardian_start/stop and log are used).  The
 * results are the record run's, and XU_RECORD_BAD_CORE for a core file
 * that cannot be read.
 */
enum xu_record_result xu_stack_run(const struct xu_stack_config *cfg,
                                   const struct xu_record_env *env, FILE *out);

#endif
