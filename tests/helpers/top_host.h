/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_host.h - a scripted host for `xen-uniprof top --all` tests: the
 * parent's domain directory lists the domains a test adds (dom0 first),
 * and each domain's child process builds its own simulated guest
 * (top_world.h) through the run's child_env hook and checks it was let go
 * through child_done.  One host at a time.
 */
#ifndef TOP_HOST_H
#define TOP_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "record/xu_record.h"

#define TOP_HOST_MAX 4

struct top_host_dom {
    uint32_t domid;
    const char *name;
    unsigned int flags;         /* TOP_WORLD_* of its guest */
    unsigned long appears;      /* listed once this many snapshots were shown */
    bool no_elf;                /* its kernel file is missing */
    uint64_t ends_after;        /* destroyed after this many pauses (0: never) */
};

/* No domains, no snapshots shown. */
void top_host_reset(void);
/* A domain (at most TOP_HOST_MAX), to adjust further through the pointer. */
struct top_host_dom *top_host_add(uint32_t domid, const char *name, unsigned int flags);
/* The view showed its n-th snapshot (domains that appear later follow it). */
void top_host_shown(unsigned long n);

/* env->domdir_open of the parent. */
int top_host_domdir_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log);
/* A directory whose listing is list's, for hosts of other shapes. */
int top_host_domdir_listing(struct xu_domdir **out,
                            int (*list)(struct xu_domdir *d, struct xu_domain_list *out),
                            struct xu_log *log);
/* xu_top_all_config's child_env and child_done: the child's simulated
 * domain, then 99 when its guest is left paused or mapped (else result). */
int top_host_child_env(void *ctx, const struct xu_domain_entry *d, struct xu_record_env *env);
int top_host_child_done(void *ctx, const struct xu_domain_entry *d, int result);

#endif
