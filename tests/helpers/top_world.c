/* SPDX-License-Identifier: GPL-2.0-only */
/* top_world.c - the world of a `xen-uniprof top` test (see top_world.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ratio_kernel.h"
#include "target/xu_pause.h"
#include "top_world.h"
#include "fake_guardian.h"

#define DOMID TOP_WORLD_DOMID

/* The same code under other names, for a second domain of its own. */
static const char *const other_names[RATIO_KERNEL_NSYMS] = {
    "_start", "other_start", "other_loop", "other_1", "other_2", "other_3"
};

/* The domain directory: dom0 and the world's domain (web1, or the one
 * top_world_init_domain() names), and its kernel file. */
static const char *kernel_path;
static uint32_t world_domid = DOMID;
static char world_name[64] = "web1";

static int dd_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    (void)d;
    out->v = calloc(2, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    out->n = 2;
    out->v[0].domid = 0;
    strcpy(out->v[0].name, "Domain-0");
    out->v[1].domid = world_domid;
    snprintf(out->v[1].name, sizeof(out->v[1].name), "%s", world_name);
    return 0;
}

static int dd_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    (void)d;
    if (domid != world_domid)
        return -ESRCH;
    *out = strdup(kernel_path);
    return *out ? 0 : -ENOMEM;
}

/* --create: `xl create -p` leaves the new domain with one pause reference. */
static struct xu_sim *created_sim;
static int creates, destroys;

static int dd_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid)
{
    (void)d;
    (void)config;
    creates++;
    if (xu_sim_admin_pause(created_sim) < 0)
        return -EIO;
    *domid = world_domid;
    return 0;
}

static int dd_destroy(struct xu_domdir *d, uint32_t domid)
{
    (void)d;
    if (domid != world_domid)
        return -ESRCH;
    destroys++;
    return 0;
}

static void dd_close(struct xu_domdir *d)
{
    (void)d;
}

static const struct xu_domdir_ops dd_ops = {
    .name = "test",
    .list = dd_list,
    .kernel_path = dd_kernel_path,
    .create_paused = dd_create_paused,
    .destroy = dd_destroy,
    .close = dd_close,
};

static int dd_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    struct xu_domdir *d = calloc(1, sizeof(*d));

    (void)flags;
    if (!d)
        return -ENOMEM;
    d->ops = &dd_ops;
    d->log = log;
    *out = d;
    return 0;
}

static void cap_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct top_world *w = ctx;

    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "log %d: %s\n", (int)level, msg);
    if (level == XU_LOG_ERROR && w->errors++ == 0)
        snprintf(w->first_error, sizeof(w->first_error), "%s", msg);
    if (level == XU_LOG_WARN)
        w->warnings++;
}

static uint64_t fc_now(void *ctx)
{
    return ((struct top_world *)ctx)->fake_now;
}

static void fc_sleep_until(void *ctx, uint64_t deadline)
{
    struct top_world *w = ctx;

    if (deadline > w->fake_now)
        w->fake_now = deadline;
}

int top_world_init(struct top_world *w, unsigned int flags)
{
    return top_world_init_domain(w, flags, DOMID, "web1");
}

int top_world_init_domain(struct top_world *w, unsigned int flags, uint32_t domid,
                          const char *name)
{
    struct xu_vcpu_regs regs;
    int i;

    memset(w, 0, sizeof(*w));
    world_domid = domid;
    snprintf(world_name, sizeof(world_name), "%s", name);
    strcpy(w->dir, "/tmp/xu-top-XXXXXX");
    if (!mkdtemp(w->dir))
        return -1;
    snprintf(w->kernel, sizeof(w->kernel), "%s/vmlinux", w->dir);
    kernel_path = w->kernel;
    if (ratio_kernel_write(w->kernel, flags & TOP_WORLD_OTHER_NAMES ? other_names : NULL,
                           0) < 0)
        return -1;
    /* function_1, function_2, function_3 in the ratio 1:3:6 */
    if (sim_guest_init(&w->g, XU_GUEST_PV, 1, 0) < 0 ||
        sim_guest_chain(&w->g, 0, ratio_kernel_in_f1, RATIO_KERNEL_DEPTH, &regs) < 0 ||
        xu_sim_push_state(w->g.sim, 0, &regs) < 0 ||
        sim_guest_chain(&w->g, 1, ratio_kernel_in_f2, RATIO_KERNEL_DEPTH, &regs) < 0)
        return -1;
    for (i = 0; i < 3; i++)
        if (xu_sim_push_state(w->g.sim, 0, &regs) < 0)
            return -1;
    if (sim_guest_chain(&w->g, 2, ratio_kernel_in_f3, RATIO_KERNEL_DEPTH, &regs) < 0)
        return -1;
    for (i = 0; i < 6; i++)
        if (xu_sim_push_state(w->g.sim, 0, &regs) < 0)
            return -1;
    /* always running (or runnable), a millisecond of CPU per tick */
    if (xu_sim_push_vstate(w->g.sim, 0, flags & TOP_WORLD_RUNNABLE ? XU_VSTATE_RUNNABLE :
                           XU_VSTATE_RUNNING, 1000000) < 0)
        return -1;
    xu_sim_register(w->g.sim, domid);
    created_sim = w->g.sim;
    creates = destroys = 0;
    fake_guardian_reset();

    w->log.emit = cap_emit;
    w->log.ctx = w;
    w->log.min_level = XU_LOG_DEBUG;
    w->env.log = &w->log;
    w->env.backend = &xu_sim_ops;
    w->env.domdir_open = dd_open;
    w->env.guardian_start = fake_guardian_start;
    w->env.guardian_stop = fake_guardian_stop;
    if (flags & TOP_WORLD_FAKE_CLOCK) {
        w->fake_now = 1000000000ULL;
        w->clock.now_ns = fc_now;
        w->clock.sleep_until_ns = fc_sleep_until;
        w->clock.ctx = w;
        w->env.clock = &w->clock;
    }
    return 0;
}

uint64_t top_world_pauses(struct top_world *w)
{
    struct xu_sim_counters c;

    xu_sim_get_counters(w->g.sim, &c);
    return c.pauses;
}

int top_world_fini(struct top_world *w, char *why, size_t len)
{
    struct xu_sim_counters c;
    DIR *d;
    struct dirent *de;
    char p[512];
    int rc = 0;

    xu_sim_get_counters(w->g.sim, &c);
    if (c.pause_depth != 0 || c.pauses != c.unpauses) {
        snprintf(why, len, "the guest is left paused (%u held, %llu pauses, %llu unpauses)",
                 (unsigned)c.pause_depth, (unsigned long long)c.pauses,
                 (unsigned long long)c.unpauses);
        rc = -1;
    } else if (c.maps != c.unmaps) {
        snprintf(why, len, "%llu frames left mapped", (unsigned long long)(c.maps - c.unmaps));
        rc = -1;
    } else if (fake_guardian.starts != fake_guardian.stops ||
               (fake_guardian.starts && fake_guardian.word_at_stop != XU_PAUSE_RUNNING)) {
        snprintf(why, len, "guardian started %d times, stopped %d, word %u", fake_guardian.starts,
                 fake_guardian.stops, (unsigned)fake_guardian.word_at_stop);
        rc = -1;
    }
    xu_sim_register(NULL, 0);
    sim_guest_fini(&w->g);
    d = opendir(w->dir);
    while (d && (de = readdir(d))) {
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(p, sizeof(p), "%s/%s", w->dir, de->d_name);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(w->dir);
    return rc;
}
