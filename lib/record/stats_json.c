/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_json.c - the --stats file: one JSON object per run, for scripts and
 * the lab's judges.  Its field names and order are an interface.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/function_ids.h"
#include "record/xu_record.h"
#include "util/xu_atomic_file.h"

/* A JSON string of s (invalid UTF-8 from a hostile name becomes U+FFFD);
 * NULL is written as "". */
static void json_string(FILE *f, const char *s)
{
    xu_fput_json(f, s ? s : "");
}

/* "name": {min, median, p99, max, mean} of a histogram of nanoseconds. */
static void write_hist(FILE *f, const char *name, const struct xu_hist *h)
{
    fprintf(f, "  \"%s\": {\"min\": %" PRIu64 ", \"median\": %" PRIu64 ", \"p99\": %" PRIu64
            ", \"max\": %" PRIu64 ", \"mean\": %.0f},\n", name, h->min, xu_hist_quantile(h, 0.5),
            xu_hist_quantile(h, 0.99), h->max, h->count ? (double)h->sum / (double)h->count : 0.0);
}

/*
 * Samples by state (what the profile holds), then per vCPU the ticks it
 * spent in each state (every tick counts for every vCPU, sampled or not),
 * their mean lateness, their paused windows summed, the time they stand for
 * (the run's elapsed time shared out per tick), and the CPU time Xen
 * accounted to it between its first and last read (null when no read
 * succeeded: a backend without states).
 */
static void write_states(FILE *f, const struct xu_sampler_stats *st,
                         const struct xu_profile_totals *tot)
{
    double per_tick = st->ticks ? st->elapsed_s / (double)st->ticks : 0.0;
    unsigned int v, k, n = st->vcpus < XU_MAX_VCPUS ? st->vcpus : XU_MAX_VCPUS;

    fprintf(f, "  \"samples_by_state\": {");
    for (k = 0; k < XU_VSTATE__COUNT; k++)
        fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", xu_vstate_name((enum xu_vstate)k),
                tot->by_state[k]);
    fprintf(f, "},\n  \"cpu_ns_sampled\": %" PRIu64 ",\n  \"vcpu_states\": [", tot->cpu_ns);
    for (v = 0; v < n; v++) {
        const struct xu_vcpu_tally *ty = &st->per_vcpu[v];

        fprintf(f, "%s\n    {\"vcpu\": %u, \"ticks\": {", v ? "," : "", v);
        for (k = 0; k < XU_VSTATE__COUNT; k++)
            fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", xu_vstate_name((enum xu_vstate)k),
                    ty->ticks[k]);
        fprintf(f, "}, \"late_us_mean\": {");
        for (k = 0; k < XU_VSTATE__COUNT; k++)
            fprintf(f, "%s\"%s\": %.1f", k ? ", " : "", xu_vstate_name((enum xu_vstate)k),
                    ty->ticks[k] ? (double)ty->late_ns[k] / (double)ty->ticks[k] / 1e3 : 0.0);
        fprintf(f, "}, \"paused_s\": {");
        for (k = 0; k < XU_VSTATE__COUNT; k++)
            fprintf(f, "%s\"%s\": %.6f", k ? ", " : "", xu_vstate_name((enum xu_vstate)k),
                    (double)ty->paused_ns[k] / 1e9);
        fprintf(f, "}, \"time_s\": {");
        for (k = 0; k < XU_VSTATE__COUNT; k++)
            fprintf(f, "%s\"%s\": %.6f", k ? ", " : "", xu_vstate_name((enum xu_vstate)k),
                    (double)ty->ticks[k] * per_tick);
        if (ty->cpu_seen)
            fprintf(f, "}, \"cpu_ns\": %" PRIu64 "}", ty->cpu_last_ns - ty->cpu_first_ns);
        else
            fprintf(f, "}, \"cpu_ns\": null}");
    }
    fprintf(f, "%s],\n", n ? "\n  " : "");
}

int xu_record_write_stats(const char *path, const struct xu_output_meta *meta,
                          const struct xu_sampler_stats *st,
                          const struct xu_profile_totals *tot, const char *output,
                          enum xu_record_result result, struct xu_log *log)
{
    struct xu_atomic_file *af = xu_atomic_open(path);
    FILE *f;
    int i, rc;

    if (!af) {
        xu_error(log, "--stats: cannot create %s: %s", path, strerror(errno));
        return -errno;
    }
    f = af->f;
    fprintf(f, "{\n  \"domid\": %" PRIu32 ",\n  \"domain\": ", meta->domid);
    json_string(f, meta->domain_name);
    fprintf(f, ",\n  \"guest_type\": \"%s\",\n  \"guest_arch\": \"%s\",\n  \"backend\": ",
            meta->guest_type ? meta->guest_type : "unknown",
            meta->guest_arch ? meta->guest_arch : "unknown");
    json_string(f, meta->backend);
    fprintf(f, ",\n  \"elf\": ");
    json_string(f, meta->elf_path);
    fprintf(f, ",\n  \"output\": ");
    json_string(f, output);
    fprintf(f, ",\n  \"frequency_hz\": %.3f,\n  \"duration_s\": %.6f,\n", meta->frequency_hz,
            st->elapsed_s);
    fprintf(f, "  \"vcpus\": %u,\n  \"ticks\": %" PRIu64 ",\n  \"samples\": %" PRIu64 ",\n",
            st->vcpus, st->ticks, st->samples);
    fprintf(f, "  \"missed_deadlines\": %" PRIu64 ",\n  \"paused_by_other_ticks\": %" PRIu64
            ",\n  \"regs_failures\": %" PRIu64 ",\n  \"tasks_unknown\": %" PRIu64 ",\n",
            st->missed_deadlines, st->paused_by_other_ticks, st->regs_failures,
            st->tasks_unknown);
    fprintf(f, "  \"hypercalls\": %" PRIu64 ",\n  \"hypercalls_per_tick\": %.2f,\n"
            "  \"batched_ticks\": %" PRIu64 ",\n", st->hypercalls,
            st->ticks ? (double)st->hypercalls / (double)st->ticks : 0.0, st->batched_ticks);
    fprintf(f, "  \"distinct_stacks\": %" PRIu64 ",\n  \"dropped_samples\": %" PRIu64 ",\n",
            tot->stacks, tot->dropped);
    fprintf(f, "  \"walks\": {");
    for (i = 0; i < XU_WALK__COUNT; i++)
        fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", xu_walk_end_name((enum xu_walk_end)i),
                tot->by_end[i]);
    fprintf(f, "},\n");
    write_hist(f, "paused_ns", &st->paused_ns);
    write_hist(f, "late_ns", &st->late_ns);
    write_states(f, st, tot);
    fprintf(f, "  \"stop_reason\": \"%s\",\n  \"exit_code\": %d\n}\n",
            xu_stop_reason_name(st->reason), (int)result);
    rc = xu_atomic_commit(af);
    if (rc < 0)
        xu_error(log, "--stats: cannot write %s: %s", path, strerror(-rc));
    return rc;
}
