/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_report.c - the "report" format: top functions by self and total
 * samples, as a table that fits an 80-column terminal.
 *
 * Self counts the samples a function was the innermost frame of; total
 * counts the samples it appears in anywhere, once per sample however often
 * it recurses.  Ties are broken by name so the text is the same every run.
 *
 * Views: with --weight=cpu the figures are microseconds of CPU time
 * instead of samples; --state=oncpu/offcpu leave samples out, and split
 * gives one pair of tables per state (per vCPU and state with per_vcpu).
 * When the profile knows states, a table of them per vCPU comes first:
 * samples in each state and the CPU time they stand for.
 *
 * Functions inlined into others (from the ELF's DWARF) are counted as
 * functions of their own, marked "_[i]"; the innermost one of the
 * innermost frame gets the self samples.  With --lines a function at each
 * source line is its own row, shown with its file's base name and line.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "function_ids.h"

#define REPORT_TOP 20
#define REPORT_COLS 79          /* one short of 80: no wrap on any terminal */
#define NUM_COLS 37             /* "%9 %6.2f%% %9 %6.2f%%  " */
#define NAME_COLS (REPORT_COLS - NUM_COLS)

struct func_count {
    uint64_t self, total;
    size_t stamp;               /* last stack counted in total, + 1 */
};

struct report {
    const struct xu_output_ctx *ctx;
    struct xu_funcs fn;
    uint32_t *ids;              /* scratch: one stack's functions */
    struct func_count *counts;
    size_t cap;
    struct sort_entry *order;
};

struct sort_entry {
    uint64_t value;
    const char *name;
    uint32_t id;
};

static int ensure_counts(struct report *r, size_t n)
{
    size_t ncap;
    struct func_count *c;

    if (n <= r->cap)
        return 0;
    ncap = r->cap ? r->cap : 256;
    while (ncap < n)
        ncap *= 2;
    c = realloc(r->counts, ncap * sizeof(*c));
    if (!c)
        return -ENOMEM;
    memset(c + r->cap, 0, (ncap - r->cap) * sizeof(*c));
    r->counts = c;
    r->cap = ncap;
    return 0;
}

/* Print name in at most NAME_COLS columns (one per code point), "..." when cut. */
static void put_name(FILE *f, const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t cols = 0, total = 0, n;
    const unsigned char *p;

    for (p = s; *p; total++) {
        n = xu_utf8_seq_len(p);
        p += n ? n : 1;
    }
    for (p = s; *p; cols++) {
        if (total > NAME_COLS && cols == NAME_COLS - 3) {
            fputs("...", f);
            break;
        }
        n = xu_utf8_seq_len(p);
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            putc('?', f);
            p++;
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
    }
    putc('\n', f);
}

/* The function's name, and with --lines where it is: "name_[i] file.c:17". */
static void put_row_name(FILE *f, const struct report *r, uint32_t id, const char *label)
{
    const struct xu_func_src *src = &r->fn.src[id];
    const char *base;
    char *shown;

    if (!r->fn.split_lines || !src->file) {
        put_name(f, label);
        return;
    }
    base = strrchr(src->file, '/');
    base = base ? base + 1 : src->file;
    if (asprintf(&shown, "%s%s %s:%" PRIu32, src->plain, src->inlined ? "_[i]" : "", base,
                 src->line) < 0) {
        put_name(f, label);
        return;
    }
    put_name(f, shown);
    free(shown);
}

static int cmp_entries(const void *a, const void *b)
{
    const struct sort_entry *ea = a, *eb = b;

    if (ea->value != eb->value)
        return ea->value > eb->value ? -1 : 1;
    return strcmp(ea->name, eb->name);
}

/* r->order[0..n) := the functions with a non-zero count, largest first,
 * ties by name; returns n. */
static size_t order_by(struct report *r, size_t nfuncs, bool by_total)
{
    size_t i, n = 0;

    for (i = 0; i < nfuncs; i++) {
        uint64_t v = by_total ? r->counts[i].total : r->counts[i].self;

        if (v)
            r->order[n++] = (struct sort_entry){ v, xu_funcs_name(&r->fn, (uint32_t)i),
                                                 (uint32_t)i };
    }
    qsort(r->order, n, sizeof(*r->order), cmp_entries);
    return n;
}

static void print_table(FILE *f, struct report *r, size_t nfuncs, uint64_t samples,
                        bool by_total, const char *what)
{
    size_t i, n = order_by(r, nfuncs, by_total);

    fprintf(f, "Top functions by %s %s%s%s%s\n", by_total ? "total" : "self",
            r->ctx->opts && r->ctx->opts->weight == XU_WEIGHT_CPU ? "CPU time (\xc2\xb5s)" :
            "samples", what[0] ? " (" : "", what, what[0] ? ")" : "");
    fprintf(f, "%9s %7s %9s %7s  %s\n", "Self", "Self%", "Total", "Total%", "Function");
    for (i = 0; i < n && i < REPORT_TOP; i++) {
        const struct func_count *c = &r->counts[r->order[i].id];

        fprintf(f, "%9" PRIu64 " %6.2f%% %9" PRIu64 " %6.2f%%  ", c->self,
                100.0 * (double)c->self / (double)samples, c->total,
                100.0 * (double)c->total / (double)samples);
        put_row_name(f, r, r->order[i].id, r->order[i].name);
    }
    if (n == 0)
        fputs("  (none)\n", f);
}

/*
 * Self and total counts of one group of stacks into r->counts, r->order
 * sized for every function; *samples and *incomplete summed.
 */
static int count_group(struct report *r, const struct xu_stack *const *stacks, size_t nr,
                       uint64_t *samples, uint64_t *incomplete, size_t *nfuncs)
{
    size_t k;
    uint32_t i, depth;
    long id, n;

    *samples = *incomplete = 0;
    if (r->cap)
        memset(r->counts, 0, r->cap * sizeof(*r->counts));
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = stacks[k];
        uint64_t w = xu_output_weight(r->ctx, s);

        if (w == 0)
            continue;
        *samples += w;
        if (xu_stack_incomplete(s))
            *incomplete += w;
        depth = s->depth > XU_OUTPUT_MAX_FRAMES ? XU_OUTPUT_MAX_FRAMES : s->depth;
        n = xu_funcs_stack(&r->fn, s, depth - 1, r->ids, XU_OUTPUT_MAX_FRAMES);
        if (n < 0)
            return -ENOMEM;
        /* outermost first: the last is where the sample was */
        for (i = 0; i < (uint32_t)n; i++) {
            id = r->ids[i];
            if (ensure_counts(r, (size_t)id + 1) < 0)
                return -ENOMEM;
            if (i + 1 == (uint32_t)n)
                r->counts[id].self += w;
            if (r->counts[id].stamp != k + 1) {
                r->counts[id].stamp = k + 1;
                r->counts[id].total += w;
            }
        }
    }
    *nfuncs = xu_funcs_count(&r->fn);
    if (ensure_counts(r, *nfuncs) < 0)
        return -ENOMEM;
    free(r->order);
    r->order = malloc((*nfuncs ? *nfuncs : 1) * sizeof(*r->order));
    return r->order ? 0 : -ENOMEM;
}

/* One group of stacks (all of them, or one vCPU's): count and print. */
static int report_group(FILE *f, struct report *r, const struct xu_stack *const *stacks,
                        size_t nr, const char *what)
{
    uint64_t samples, incomplete;
    size_t nfuncs;
    int rc;

    rc = count_group(r, stacks, nr, &samples, &incomplete, &nfuncs);
    if (rc < 0)
        return rc;
    if (what[0]) {
        fprintf(f, "\n%s: %" PRIu64 " %s", what, samples, xu_output_weight_unit(r->ctx));
        if (incomplete)
            fprintf(f, ", %" PRIu64 " incomplete walks (%.2f%%)", incomplete,
                    100.0 * (double)incomplete / (double)samples);
        fputc('\n', f);
    }
    fputc('\n', f);
    if (samples == 0)
        return 0;
    print_table(f, r, nfuncs, samples, false, what);
    fputc('\n', f);
    print_table(f, r, nfuncs, samples, true, what);
    return 0;
}

static int cmp_vcpu(const void *a, const void *b)
{
    const struct xu_stack *sa = *(const struct xu_stack *const *)a;
    const struct xu_stack *sb = *(const struct xu_stack *const *)b;

    if (sa->vcpu != sb->vcpu)
        return sa->vcpu < sb->vcpu ? -1 : 1;
    /* Stacks of one vCPU keep insertion order: qsort is not stable. */
    return sa < sb ? -1 : sa > sb;
}

/* Stacks by state, then insertion order (one pair of tables per state). */
static int cmp_state(const void *a, const void *b)
{
    const struct xu_stack *sa = *(const struct xu_stack *const *)a;
    const struct xu_stack *sb = *(const struct xu_stack *const *)b;

    if (sa->state != sb->state)
        return sa->state < sb->state ? -1 : 1;
    return sa < sb ? -1 : sa > sb;
}

/* By vCPU, then state, then insertion order. */
static int cmp_vcpu_state(const void *a, const void *b)
{
    const struct xu_stack *sa = *(const struct xu_stack *const *)a;
    const struct xu_stack *sb = *(const struct xu_stack *const *)b;

    if (sa->vcpu != sb->vcpu)
        return sa->vcpu < sb->vcpu ? -1 : 1;
    return cmp_state(a, b);
}

static void print_header(FILE *f, const struct xu_output_ctx *ctx)
{
    const struct xu_output_meta *m = ctx->meta;
    struct xu_profile_totals t;
    uint64_t incomplete;

    xu_profile_get_totals(ctx->profile, &t);
    fputs("xen-uniprof report", f);
    if (m && m->backend) {
        fprintf(f, ": domain %" PRIu32, m->domid);
        if (m->domain_name)
            fprintf(f, " (%s)", m->domain_name);
    }
    fputc('\n', f);
    if (m && m->duration_s > 0)
        fprintf(f, "Duration: %.2f s at %.0f Hz\n", m->duration_s, m->frequency_hz);
    fprintf(f, "Samples: %" PRIu64 " in %" PRIu64 " distinct stacks", t.samples, t.stacks);
    incomplete = t.samples - xu_profile_complete_samples(&t);
    if (incomplete && t.samples)
        fprintf(f, ", %" PRIu64 " incomplete walks (%.2f%%)", incomplete,
                100.0 * (double)incomplete / (double)t.samples);
    if (t.dropped)
        fprintf(f, ", %" PRIu64 " dropped (too many distinct stacks)", t.dropped);
    fputc('\n', f);
    if (ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU)
        fprintf(f, "Weight: CPU time each vCPU consumed since its previous tick (\xc2\xb5s)\n");
    if (ctx->opts && ctx->opts->states != XU_STATES_ALL)
        fprintf(f, "States: %s\n", ctx->opts->states == XU_STATES_ONCPU ? "running only" :
                ctx->opts->states == XU_STATES_OFFCPU ? "runnable and blocked only" :
                "one table per state");
}

/*
 * Per vCPU: samples in each state and the CPU time they stand for, over the
 * whole profile (the view does not apply: it is what the view chooses from).
 * Only when some sample's state is known.  stacks sorted by vCPU.
 */
static void print_states(FILE *f, const struct xu_output_ctx *ctx,
                         const struct xu_stack *const *stacks, size_t nr)
{
    static const enum xu_vstate cols[] = { XU_VSTATE_RUNNING, XU_VSTATE_RUNNABLE,
                                           XU_VSTATE_BLOCKED, XU_VSTATE_UNKNOWN };
    struct xu_profile_totals t;
    size_t i, start, c;

    xu_profile_get_totals(ctx->profile, &t);
    if (t.by_state[XU_VSTATE_UNKNOWN] == t.samples)
        return;
    fprintf(f, "\nvCPU states (samples; CPU time consumed since each vCPU's previous tick)\n");
    fprintf(f, "%6s %9s %9s %9s %9s %14s\n", "vCPU", "running", "runnable", "blocked",
            "unknown", "CPU time (ms)");
    for (start = 0; start < nr; start = i) {
        uint64_t by[XU_VSTATE__COUNT] = { 0 }, cpu_ns = 0;

        for (i = start; i < nr && stacks[i]->vcpu == stacks[start]->vcpu; i++) {
            if ((unsigned)stacks[i]->state < XU_VSTATE__COUNT)
                by[stacks[i]->state] += stacks[i]->count;
            cpu_ns += stacks[i]->cpu_ns;
        }
        fprintf(f, "%6" PRIu32, stacks[start]->vcpu);
        for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
            fprintf(f, " %9" PRIu64, by[cols[c]]);
        fprintf(f, " %14.3f\n", (double)cpu_ns / 1e6);
    }
}

static int report_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct report r = { .ctx = ctx };
    const struct xu_stack **stacks = NULL;
    size_t nr = xu_profile_nr_stacks(ctx->profile), i, start;
    bool group_vcpu, group_state;
    char what[48];
    int rc = 0;

    xu_funcs_init(&r.fn, ctx);
    stacks = malloc((nr ? nr : 1) * sizeof(*stacks));
    r.ids = malloc(XU_OUTPUT_MAX_FRAMES * sizeof(*r.ids));
    if (!stacks || !r.ids || ensure_counts(&r, 256) < 0) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < nr; i++)
        stacks[i] = xu_profile_stack(ctx->profile, i);
    print_header(f, ctx);
    qsort(stacks, nr, sizeof(*stacks), cmp_vcpu);
    print_states(f, ctx, stacks, nr);
    group_vcpu = ctx->opts && ctx->opts->per_vcpu;
    group_state = ctx->opts && ctx->opts->states == XU_STATES_SPLIT;
    if (!group_vcpu && !group_state) {
        rc = report_group(f, &r, stacks, nr, "");
        goto out;
    }
    if (group_state)    /* already by vCPU alone otherwise */
        qsort(stacks, nr, sizeof(*stacks), group_vcpu ? cmp_vcpu_state : cmp_state);
    for (start = 0; start < nr; start = i) {
        for (i = start; i < nr && (!group_vcpu || stacks[i]->vcpu == stacks[start]->vcpu) &&
             (!group_state || stacks[i]->state == stacks[start]->state); i++)
            ;
        if (group_vcpu && group_state)
            snprintf(what, sizeof(what), "vCPU %" PRIu32 " %s", stacks[start]->vcpu,
                     xu_output_state_frame(ctx, stacks[start]));
        else if (group_vcpu)
            snprintf(what, sizeof(what), "vCPU %" PRIu32, stacks[start]->vcpu);
        else
            snprintf(what, sizeof(what), "%s", xu_output_state_frame(ctx, stacks[start]));
        rc = report_group(f, &r, stacks + start, i - start, what);
        if (rc < 0)
            goto out;
    }
out:
    if (rc == 0 && ferror(f))
        rc = -EIO;
    if (rc < 0)
        xu_error(ctx->log, "report: %s", strerror(-rc));
    free(stacks);
    free(r.counts);
    free(r.order);
    free(r.ids);
    xu_funcs_dispose(&r.fn);
    return rc;
}

int xu_output_top_function(const struct xu_output_ctx *ctx, char *name, size_t len,
                           double *share)
{
    struct report r = { .ctx = ctx };
    const struct xu_stack **stacks = NULL;
    size_t nr = xu_profile_nr_stacks(ctx->profile), i, nfuncs;
    uint64_t samples, incomplete;
    int rc;

    *share = 0;
    if (len)
        name[0] = '\0';
    xu_funcs_init(&r.fn, ctx);
    stacks = malloc((nr ? nr : 1) * sizeof(*stacks));
    r.ids = malloc(XU_OUTPUT_MAX_FRAMES * sizeof(*r.ids));
    if (!stacks || !r.ids) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < nr; i++)
        stacks[i] = xu_profile_stack(ctx->profile, i);
    rc = count_group(&r, stacks, nr, &samples, &incomplete, &nfuncs);
    if (rc < 0)
        goto out;
    rc = 0;
    if (samples == 0 || order_by(&r, nfuncs, false) == 0)
        goto out;
    snprintf(name, len, "%s", r.order[0].name);
    *share = 100.0 * (double)r.order[0].value / (double)samples;
    rc = 1;
out:
    free(stacks);
    free(r.counts);
    free(r.order);
    free(r.ids);
    xu_funcs_dispose(&r.fn);
    return rc;
}

const struct xu_output_ops xu_output_report = {
    .name = "report",
    .extensions = ".txt .report",
    .description = "top functions by self and total samples, for a terminal",
    .write = report_write,
};
