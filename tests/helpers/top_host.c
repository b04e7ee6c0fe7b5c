/* SPDX-License-Identifier: GPL-2.0-only */
/* top_host.c - a scripted host for `top --all` tests (see top_host.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "top_host.h"
#include "top_world.h"

static struct {
    struct top_host_dom doms[TOP_HOST_MAX];
    size_t n;
    unsigned long shows;        /* the parent's view's count */
} host;

void top_host_reset(void)
{
    memset(&host, 0, sizeof(host));
}

struct top_host_dom *top_host_add(uint32_t domid, const char *name, unsigned int flags)
{
    struct top_host_dom *d;

    if (host.n == TOP_HOST_MAX)
        return NULL;
    d = &host.doms[host.n++];
    *d = (struct top_host_dom){ .domid = domid, .name = name, .flags = flags };
    return d;
}

void top_host_shown(unsigned long n)
{
    host.shows = n;
}

/* ---- the parent's domain directory ---- */

static int host_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    size_t i;

    (void)d;
    out->v = calloc(TOP_HOST_MAX + 1, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    strcpy(out->v[0].name, "Domain-0");
    out->n = 1;
    for (i = 0; i < host.n; i++) {
        if (host.doms[i].appears > host.shows)
            continue;
        out->v[out->n].domid = host.doms[i].domid;
        strcpy(out->v[out->n].name, host.doms[i].name);
        out->n++;
    }
    return 0;
}

/* What the directory made last lists. */
static int (*listing)(struct xu_domdir *d, struct xu_domain_list *out) = host_list;

static int list_through(struct xu_domdir *d, struct xu_domain_list *out)
{
    return listing(d, out);
}

static void host_close(struct xu_domdir *d)
{
    (void)d;
}

static const struct xu_domdir_ops host_ops = {
    .name = "test-host",
    .list = list_through,
    .close = host_close,
};

int top_host_domdir_listing(struct xu_domdir **out,
                            int (*list)(struct xu_domdir *d, struct xu_domain_list *out),
                            struct xu_log *log)
{
    struct xu_domdir *d = calloc(1, sizeof(*d));

    if (!d)
        return -ENOMEM;
    listing = list;
    d->ops = &host_ops;
    d->log = log;
    *out = d;
    return 0;
}

int top_host_domdir_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    (void)flags;
    return top_host_domdir_listing(out, host_list, log);
}

/* ---- each child's world ---- */

static struct top_world world;      /* the child's own copy */

int top_host_child_env(void *ctx, const struct xu_domain_entry *d, struct xu_record_env *env)
{
    const struct top_host_dom *dom = NULL;
    size_t i;

    (void)ctx;
    for (i = 0; i < host.n; i++)
        if (host.doms[i].domid == d->domid)
            dom = &host.doms[i];
    if (!dom || top_world_init_domain(&world, dom->flags, dom->domid, dom->name) < 0)
        return 90;
    if (dom->no_elf)
        unlink(world.kernel);
    if (dom->ends_after)
        xu_sim_end_after(world.g.sim, dom->ends_after, 1);
    *env = world.env;
    return 0;
}

/* The guest let go (no pause held, nothing mapped), else 99. */
int top_host_child_done(void *ctx, const struct xu_domain_entry *d, int result)
{
    char why[256];

    (void)ctx;
    (void)d;
    if (top_world_fini(&world, why, sizeof(why)) < 0) {
        fprintf(stderr, "child %s: %s\n", d->name, why);
        return 99;
    }
    return result;
}
