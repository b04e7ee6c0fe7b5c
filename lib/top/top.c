/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top.c - the live view's run: the record run in its live mode, a snapshot
 * at the end of each window, and the batch mode's text (see xu_top.h).
 *
 * Everything here happens between ticks, with the guest running: the
 * sampler calls the record run's live hook, which calls on_live() below.
 * Vouching, symbolising and aggregating a window therefore never lengthen
 * a pause; they only delay the next tick (counted as missed deadlines when
 * they take longer than a period).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "top/xu_top.h"

struct run {
    const struct xu_top_config *cfg;
    const struct xu_top_view *view;
    struct xu_log *log;
    struct xu_top_symcache *cache;
    struct xu_top_table table;
    enum xu_top_sort sort;
    double frequency;           /* the sampler reads it between ticks */
    unsigned long index;
    double window_start_s;
    uint64_t prev_ticks, prev_missed, prev_paused_by_other;
    struct xu_hist prev_paused, window_paused;
    int error;                  /* a failure of our own (memory), logged */
};

void xu_top_print_batch(FILE *f, const struct xu_top_snapshot *s, size_t max_rows)
{
    const struct xu_top_table *t = s->table;
    size_t i, n = t->n;
    char complete[32];

    if (s->samples)
        snprintf(complete, sizeof(complete), "%.1f%%",
                 100.0 * (double)s->complete / (double)s->samples);
    else
        snprintf(complete, sizeof(complete), "-");
    fprintf(f, "xen-uniprof top: snapshot %lu at %.2f s, domain %" PRIu32 " (%s), %u vCPU%s\n",
            s->index, s->elapsed_s, s->domid, s->label, s->vcpus, s->vcpus == 1 ? "" : "s");
    fprintf(f, "rate %.1f/s (%g Hz asked), %" PRIu64 " missed, paused median %.1f us, "
            "%" PRIu64 " samples, %s complete\n", s->rate, s->frequency, s->missed,
            (double)s->paused_median_ns / 1e3, s->samples, complete);
    if (s->paused_by_other)
        fprintf(f, "paused by someone else at %" PRIu64 " deadlines (xl pause?): nothing "
                "sampled then\n", s->paused_by_other);
    if (!s->symbols)
        fprintf(f, "no symbols: functions are shown by address\n");
    fprintf(f, "\n  SELF%%  TOTAL%%  FUNCTION\n");
    if (max_rows && n > max_rows)
        n = max_rows;
    for (i = 0; i < n; i++)
        fprintf(f, "%7.1f %7.1f  %s\n", 100.0 * (double)t->rows[i].self / (double)t->samples,
                100.0 * (double)t->rows[i].total / (double)t->samples, t->rows[i].name);
    if (n < t->n)
        fprintf(f, "  (%zu more)\n", t->n - n);
    fputc('\n', f);
    fflush(f);
}

/* The paused-time histogram of the window's ticks: the run's minus the
 * run's at the previous window end (the run's min and max bound it). */
static uint64_t window_median(struct run *r, const struct xu_hist *cur)
{
    struct xu_hist *w = &r->window_paused;
    size_t i;

    w->count = cur->count - r->prev_paused.count;
    w->sum = cur->sum - r->prev_paused.sum;
    w->min = cur->min;
    w->max = cur->max;
    for (i = 0; i < XU_HIST_BUCKETS; i++)
        w->buckets[i] = cur->buckets[i] - r->prev_paused.buckets[i];
    return xu_hist_quantile(w, 0.5);
}

/* The stored samples whose walk counts as complete (the totals would also
 * count those a full profile dropped, which the table does not show). */
static uint64_t complete_samples(const struct xu_profile *p)
{
    size_t i, n = xu_profile_nr_stacks(p);
    uint64_t c = 0;

    for (i = 0; i < n; i++)
        if (xu_walk_complete(xu_profile_stack(p, i)->end))
            c += xu_profile_stack(p, i)->count;
    return c;
}

static int snapshot(struct run *r, const struct xu_record_live *lv)
{
    const struct xu_sampler_stats *st = lv->stats;
    struct xu_top_snapshot s;
    uint64_t *addrs = NULL;
    long n;
    int rc;

    /* the ELF's verdict, then names for the window's addresses */
    xu_record_live_vouch(lv);
    n = xu_profile_unique_addrs(lv->profile, &addrs);
    if (n < 0 || xu_top_symcache_fill(r->cache, addrs, (size_t)n) < 0 ||
        xu_top_table_build(&r->table, lv->profile, r->cache) < 0) {
        free(addrs);
        xu_error(r->log, "out of memory");
        r->error = -ENOMEM;
        return 1;
    }
    free(addrs);
    xu_top_table_sort(&r->table, r->sort);

    memset(&s, 0, sizeof(s));
    s.index = ++r->index;
    s.domid = lv->domid;
    s.label = lv->label;
    s.vcpus = st->vcpus;
    s.backend = lv->backend;
    s.frequency = r->frequency;
    s.elapsed_s = st->elapsed_s;
    s.window_s = st->elapsed_s - r->window_start_s;
    s.ticks = st->ticks - r->prev_ticks;
    s.missed = st->missed_deadlines - r->prev_missed;
    s.paused_by_other = st->paused_by_other_ticks - r->prev_paused_by_other;
    if (s.window_s > 0)
        s.rate = (double)(s.index == 1 && s.ticks ? s.ticks - 1 : s.ticks) / s.window_s;
    s.samples = r->table.samples;
    s.complete = complete_samples(lv->profile);
    s.paused_median_ns = window_median(r, &st->paused_ns);
    s.symbols = lv->symtab != NULL;
    s.table = &r->table;
    s.profile = lv->profile;
    s.cache = r->cache;
    rc = r->view->show(r->view->ctx, &s);

    /* the next window starts empty */
    xu_profile_clear(lv->profile);
    r->window_start_s = st->elapsed_s;
    r->prev_ticks = st->ticks;
    r->prev_missed = st->missed_deadlines;
    r->prev_paused_by_other = st->paused_by_other_ticks;
    r->prev_paused = st->paused_ns;
    if (rc)
        return rc;
    return r->cfg->iterations && r->index >= r->cfg->iterations;
}

static int on_live(void *ctx, const struct xu_record_live *lv)
{
    struct run *r = ctx;
    int rc;

    if (!r->cache) {
        rc = xu_top_symcache_new(&r->cache, lv->symtab, r->cfg->cache_entries,
                                 r->cfg->record.render.raw_names ? XU_SYMBOLIZER_RAW_NAMES : 0);
        if (rc < 0) {
            xu_error(r->log, "out of memory");
            r->error = rc;
            return 1;
        }
        xu_top_symcache_set_tasks(r->cache, lv->tasks);
    }
    if (r->view->poll && (rc = r->view->poll(r->view->ctx, &r->sort, &r->frequency)) != 0)
        return rc;
    /* a nanosecond's slack for the clock's conversion to seconds */
    if (lv->stats->elapsed_s - r->window_start_s < r->cfg->interval_s - 1e-9)
        return 0;
    return snapshot(r, lv);
}

enum xu_record_result xu_top_run(const struct xu_top_config *cfg,
                                 const struct xu_record_env *env,
                                 const struct xu_top_view *view)
{
    static const struct xu_record_env real_env;
    struct xu_record_config job = cfg->record;
    struct xu_record_env live_env = env ? *env : real_env;
    struct run *r;
    enum xu_record_result ec;

    if (!(cfg->interval_s > 0) || !view || !view->show)
        return XU_RECORD_USAGE;
    r = calloc(1, sizeof(*r));
    if (!r) {
        xu_error(live_env.log ? live_env.log : xu_log_default(), "out of memory");
        return XU_RECORD_FAILURE;
    }
    r->cfg = cfg;
    r->view = view;
    r->log = live_env.log ? live_env.log : xu_log_default();
    r->sort = cfg->sort;
    r->frequency = cfg->record.frequency;
    xu_hist_init(&r->prev_paused);

    job.live = true;
    live_env.live = on_live;
    live_env.progress = NULL;
    live_env.written = NULL;
    live_env.sampled = NULL;
    live_env.frequency_now = &r->frequency;
    live_env.ui_ctx = r;
    live_env.progress_interval_s = view->poll && view->poll_s > 0 && view->poll_s < cfg->interval_s
                                   ? view->poll_s : cfg->interval_s;
    ec = xu_record_run(&job, &live_env);
    if (r->error && ec == XU_RECORD_OK)
        ec = XU_RECORD_FAILURE;
    xu_top_table_dispose(&r->table);
    xu_top_symcache_free(r->cache);
    free(r);
    return ec;
}
