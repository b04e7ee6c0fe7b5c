/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * all.c - `xen-uniprof top --all`: a child per domain sending its windows
 * (xu_top_wire.h), the parent merging them into snapshots (xu_top_all.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "top/xu_top_all.h"
#include "util/xu_clock.h"

/* ---- the child: one domain's xu_top_run(), its windows on the pipe ---- */

struct child {
    FILE *out;
    struct xu_log_prefixed log; /* the domain before each message, and why no symbols */
};

static int child_show(void *ctx, const struct xu_top_snapshot *s)
{
    struct child *c = ctx;
    const char *why = c->log.last_problem[0] ? c->log.last_problem
                                             : "no ELF was found from its kernel";

    return xu_top_wire_write(c->out, s, s->symbols ? NULL : why) < 0;
}

/* A domain in the parent (the fleet's member, m->data). */
struct member {
    struct xu_domain_entry dom;
    struct xu_top_wire_reader rd;
    struct xu_top_wire_window last;
    bool fresh;                 /* a window since the last snapshot */
    bool distrusted;
};

struct all {
    const struct xu_top_all_config *cfg;
    const struct xu_record_env *env;
    const struct xu_top_all_view *view;
    struct xu_log *log;
    double start_s, last_show_s;
    unsigned long index;
    enum xu_top_sort sort;      /* the view may change it */
    struct member *members[XU_FLEET_MAX];   /* alive, in start order */
    size_t n;
    int error;
};

static int run_child(void *ctx, const struct xu_fleet_member *m, int fd,
                     volatile sig_atomic_t *stop)
{
    struct all *a = ctx;
    struct xu_top_config top = a->cfg->top;
    struct xu_record_env env = *a->env;
    struct xu_top_view view = { 0 };
    struct child c;
    int rc;

    if (a->cfg->child_env && (rc = a->cfg->child_env(a->cfg->child_ctx, &m->dom, &env)) != 0)
        return rc;
    c.out = fdopen(fd, "w");
    if (!c.out)
        return XU_RECORD_FAILURE;
    xu_fleet_child_log(&c.log, env.log, m);
    env.log = &c.log.log;
    env.stop = stop;
    top.record.domain = m->id;
    top.record.elf = NULL;
    top.iterations = 0;         /* the parent counts the snapshots */
    view.show = child_show;
    view.ctx = &c;
    rc = (int)xu_top_run(&top, &env, &view);
    fclose(c.out);
    if (a->cfg->child_done)
        rc = a->cfg->child_done(a->cfg->child_ctx, &m->dom, rc);
    return rc;
}

/* ---- the parent ---- */

static int cmp_rows(const void *x, const void *y, enum xu_top_sort by)
{
    const struct xu_top_all_row *a = x, *b = y;
    uint64_t ka = by == XU_TOP_SORT_TOTAL ? a->total : a->self;
    uint64_t kb = by == XU_TOP_SORT_TOTAL ? b->total : b->self;
    uint64_t la = by == XU_TOP_SORT_TOTAL ? a->self : a->total;
    uint64_t lb = by == XU_TOP_SORT_TOTAL ? b->self : b->total;
    int d;

    if (ka != kb)
        return ka > kb ? -1 : 1;
    if (la != lb)
        return la > lb ? -1 : 1;
    d = strcmp(a->domain, b->domain);
    if (d || a->function == b->function)
        return d;
    if (!a->function || !b->function)
        return a->function ? 1 : -1;
    return strcmp(a->function, b->function);
}

static int by_self(const void *x, const void *y)
{
    return cmp_rows(x, y, XU_TOP_SORT_SELF);
}

static int by_total(const void *x, const void *y)
{
    return cmp_rows(x, y, XU_TOP_SORT_TOTAL);
}

static int by_domid(const void *x, const void *y)
{
    const struct xu_top_all_domain *a = x, *b = y;

    return a->domid < b->domid ? -1 : a->domid > b->domid;
}

static bool done(const struct all *a)
{
    return a->cfg->top.iterations && a->index >= a->cfg->top.iterations;
}

/* The snapshot of the members' fresh windows; non-zero: stop. */
static int show(struct all *a)
{
    struct xu_top_all_domain doms[XU_FLEET_MAX];
    struct xu_top_all_row *rows = NULL;
    struct xu_top_all_snapshot s;
    size_t i, j, n = 0, cap = 0;
    int rc = 0;

    /* the windows still in the pipes once the count is reached */
    if (done(a))
        return 1;

    memset(&s, 0, sizeof(s));
    for (i = 0; i < a->n; i++) {
        struct member *mb = a->members[i];

        if (mb->fresh)
            cap += mb->last.n + 1;
    }
    if (cap && !(rows = calloc(cap, sizeof(*rows)))) {
        xu_error(a->log, "out of memory");
        a->error = -ENOMEM;
        return 1;
    }
    for (i = 0; i < a->n; i++) {
        struct member *mb = a->members[i];
        const char *name = mb->dom.name;

        doms[i].domid = mb->dom.domid;
        doms[i].name = name;
        doms[i].w = mb->fresh ? &mb->last : NULL;
        if (!mb->fresh)
            continue;
        s.samples += mb->last.samples;
        rows[n++] = (struct xu_top_all_row){ name, NULL, 0, mb->last.samples };
        for (j = 0; j < mb->last.n; j++)
            rows[n++] = (struct xu_top_all_row){ name, mb->last.rows[j].name,
                                                 mb->last.rows[j].self, mb->last.rows[j].total };
    }
    if (n > 1)
        qsort(rows, n, sizeof(*rows), a->sort == XU_TOP_SORT_TOTAL ? by_total : by_self);
    if (a->n > 1)
        qsort(doms, a->n, sizeof(*doms), by_domid);
    s.index = ++a->index;
    s.elapsed_s = xu_clock_now_s(NULL) - a->start_s;
    s.domains = doms;
    s.nr_domains = a->n;
    s.rows = rows;
    s.n = n;
    rc = a->view->show(a->view->ctx, &s);
    free(rows);
    for (i = 0; i < a->n; i++)
        a->members[i]->fresh = false;
    a->last_show_s = xu_clock_now_s(NULL);
    return rc || done(a);
}

static void on_started(void *ctx, struct xu_fleet_member *m)
{
    struct all *a = ctx;
    struct member *mb = calloc(1, sizeof(*mb));

    m->data = mb;
    if (!mb) {
        /* not heard: the reader is missing */
        xu_error(a->log, "out of memory: domain %" PRIu32 " is not shown", m->dom.domid);
        return;
    }
    mb->dom = m->dom;
    a->members[a->n++] = mb;
}

static void take_window(void *ctx, struct xu_top_wire_window *w)
{
    struct member *mb = ctx;

    /* a child speaks for its own domain only */
    if (w->domid != mb->dom.domid) {
        mb->distrusted = true;
        return;
    }
    xu_top_wire_window_move(&mb->last, w);
    mb->fresh = true;
}

static bool all_fresh(const struct all *a)
{
    size_t i;

    for (i = 0; i < a->n; i++)
        if (!a->members[i]->fresh)
            return false;
    return a->n > 0;
}

static int on_data(void *ctx, struct xu_fleet_member *m, const char *buf, size_t n)
{
    struct all *a = ctx;
    struct member *mb = m->data;

    if (!mb)
        return 0;
    if (xu_top_wire_feed(&mb->rd, buf, n, take_window, mb) < 0 || mb->distrusted) {
        xu_warn(a->log, "domain %" PRIu32 " (%s): its sampler's report is malformed: "
                "stopping it", m->dom.domid, m->dom.name);
        mb->distrusted = true;
        return -1;
    }
    return all_fresh(a) ? show(a) : 0;
}

static void on_ended(void *ctx, struct xu_fleet_member *m, int status, bool stopped)
{
    struct all *a = ctx;
    struct member *mb = m->data;
    size_t i;

    for (i = 0; i < a->n; i++) {
        if (a->members[i] == mb) {
            memmove(&a->members[i], &a->members[i + 1], (a->n - i - 1) * sizeof(*a->members));
            a->n--;
            break;
        }
    }
    if (a->view->ended)
        a->view->ended(a->view->ctx, m->dom.domid, m->dom.name, status, stopped);
    if (mb) {
        xu_top_wire_reader_dispose(&mb->rd);
        xu_top_wire_window_dispose(&mb->last);
        free(mb);
    }
}

static int on_tick(void *ctx)
{
    struct all *a = ctx;
    size_t i;
    bool any = false;

    if (a->view->poll && a->view->poll(a->view->ctx, &a->sort))
        return 1;
    if (xu_clock_now_s(NULL) - a->last_show_s < XU_TOP_ALL_LATE * a->cfg->top.interval_s)
        return 0;
    for (i = 0; i < a->n; i++)
        any |= a->members[i]->fresh;
    /* late domains are listed as waiting; with none at all, nothing to show */
    return any ? show(a) : 0;
}

enum xu_record_result xu_top_all_run(const struct xu_top_all_config *cfg,
                                     const struct xu_record_env *env,
                                     const struct xu_top_all_view *view)
{
    static const struct xu_fleet_ops ops = {
        .child = run_child,
        .started = on_started,
        .data = on_data,
        .ended = on_ended,
        .tick = on_tick,
    };
    static const struct xu_record_env real_env;
    struct xu_fleet_config fc = { 0 };
    struct all a;
    int rc;

    if (!(cfg->top.interval_s > 0) || !view || !view->show)
        return XU_RECORD_USAGE;
    memset(&a, 0, sizeof(a));
    a.cfg = cfg;
    a.env = env ? env : &real_env;
    a.view = view;
    a.log = a.env->log ? a.env->log : xu_log_default();
    a.start_s = a.last_show_s = xu_clock_now_s(NULL);
    a.sort = cfg->top.sort;
    fc.domdir_open = a.env->domdir_open;
    fc.log = a.log;
    fc.stop = a.env->stop;
    fc.pipes = true;
    fc.follow = true;
    fc.poll_s = cfg->top.interval_s / 2;
    fc.stop_wait_s = XU_TOP_ALL_STOP_WAIT_S;
    if (view->poll && view->poll_s > 0 && view->poll_s < fc.poll_s)
        fc.tick_s = view->poll_s;
    fc.ops = &ops;
    fc.ctx = &a;
    rc = xu_fleet_run(&fc);
    if (rc == -EACCES || rc == -EPERM)
        return XU_RECORD_PRIVILEGE;
    return rc < 0 || a.error ? XU_RECORD_FAILURE : XU_RECORD_OK;
}

void xu_top_all_print_batch(FILE *f, const struct xu_top_all_snapshot *s, size_t max_rows)
{
    size_t i, n = s->n;

    fprintf(f, "xen-uniprof top: snapshot %lu at %.2f s, %zu domain%s, %" PRIu64 " samples\n",
            s->index, s->elapsed_s, s->nr_domains, s->nr_domains == 1 ? "" : "s", s->samples);
    for (i = 0; i < s->nr_domains; i++) {
        const struct xu_top_all_domain *d = &s->domains[i];
        const struct xu_top_wire_window *w = d->w;

        if (!w) {
            fprintf(f, "domain %" PRIu32 " (%s): waiting for its first window\n", d->domid,
                    d->name);
            continue;
        }
        fprintf(f, "domain %" PRIu32 " (%s): %u vCPU%s, rate %.1f/s (%g Hz asked), %" PRIu64
                " samples, ", d->domid, d->name, w->vcpus, w->vcpus == 1 ? "" : "s", w->rate,
                w->frequency, w->samples);
        if (w->samples)
            fprintf(f, "%.1f%% complete\n", 100.0 * (double)w->complete / (double)w->samples);
        else
            fprintf(f, "- complete\n");
        if (!w->symbols)
            fprintf(f, "domain %" PRIu32 " (%s): no symbols, functions are shown by address: "
                    "%s\n", d->domid, d->name, w->why[0] ? w->why : "no ELF");
    }
    fprintf(f, "\n  SELF%%  TOTAL%%  FUNCTION\n");
    if (max_rows && n > max_rows)
        n = max_rows;
    for (i = 0; i < n; i++) {
        const struct xu_top_all_row *r = &s->rows[i];
        double self = s->samples ? 100.0 * (double)r->self / (double)s->samples : 0;
        double total = s->samples ? 100.0 * (double)r->total / (double)s->samples : 0;

        if (r->function)
            fprintf(f, "%7.1f %7.1f  %s:%s\n", self, total, r->domain, r->function);
        else
            fprintf(f, "%7.1f %7.1f  %s\n", self, total, r->domain);
    }
    if (n < s->n)
        fprintf(f, "  (%zu more)\n", s->n - n);
    fputc('\n', f);
    fflush(f);
}
