/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * view.c - the views every writer shares (--weight, --state): which
 * samples a profile shows by their vCPU's state, and what they weigh.
 * See xu_output.h for the contract.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "output/xu_output.h"

static enum xu_weight weight_of(const struct xu_output_ctx *ctx)
{
    return ctx->opts ? ctx->opts->weight : XU_WEIGHT_SAMPLES;
}

static enum xu_state_view view_of(const struct xu_output_ctx *ctx)
{
    return ctx->opts ? ctx->opts->states : XU_STATES_ALL;
}

bool xu_output_in_view(const struct xu_output_ctx *ctx, const struct xu_stack *s)
{
    switch (view_of(ctx)) {
    case XU_STATES_ONCPU:
        return s->state == XU_VSTATE_RUNNING;
    case XU_STATES_OFFCPU:
        return xu_vstate_off_cpu(s->state);
    case XU_STATES_ALL:
    case XU_STATES_SPLIT:
        break;
    }
    return true;
}

uint64_t xu_output_weight(const struct xu_output_ctx *ctx, const struct xu_stack *s)
{
    if (!xu_output_in_view(ctx, s))
        return 0;
    if (weight_of(ctx) == XU_WEIGHT_CPU)
        return s->cpu_ns / 1000 + (s->cpu_ns % 1000 >= 500);
    return s->count;
}

const char *xu_output_weight_unit(const struct xu_output_ctx *ctx)
{
    return weight_of(ctx) == XU_WEIGHT_CPU ? "µs of CPU time" : "samples";
}

static const char *const state_frames[XU_VSTATE__COUNT] = {
    [XU_VSTATE_UNKNOWN] = "[unknown]",
    [XU_VSTATE_RUNNING] = "[running]",
    [XU_VSTATE_RUNNABLE] = "[runnable]",
    [XU_VSTATE_BLOCKED] = "[blocked]",
    [XU_VSTATE_OFFLINE] = "[offline]",
};

const char *xu_output_state_frame(const struct xu_output_ctx *ctx, const struct xu_stack *s)
{
    if (view_of(ctx) != XU_STATES_SPLIT)
        return NULL;
    return (unsigned)s->state < XU_VSTATE__COUNT ? state_frames[s->state] : "[unknown]";
}

bool xu_output_off_cpu_frame(const char *name)
{
    return strcmp(name, state_frames[XU_VSTATE_RUNNABLE]) == 0 ||
           strcmp(name, state_frames[XU_VSTATE_BLOCKED]) == 0;
}

int xu_weight_from_name(const char *name)
{
    if (strcmp(name, "samples") == 0)
        return XU_WEIGHT_SAMPLES;
    if (strcmp(name, "cpu") == 0)
        return XU_WEIGHT_CPU;
    return -1;
}

static const char *const view_names[] = {
    [XU_STATES_ALL] = "all",
    [XU_STATES_ONCPU] = "oncpu",
    [XU_STATES_OFFCPU] = "offcpu",
    [XU_STATES_SPLIT] = "split",
};

int xu_state_view_from_name(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++)
        if (strcmp(name, view_names[i]) == 0)
            return (int)i;
    return -1;
}

const char *xu_state_view_name(enum xu_state_view v)
{
    return (unsigned)v < sizeof(view_names) / sizeof(view_names[0]) ? view_names[v] : "all";
}

void xu_output_view_check(const struct xu_output_ctx *ctx)
{
    struct xu_profile_totals t;
    size_t k, n = xu_profile_nr_stacks(ctx->profile);
    uint64_t kept = 0;

    if (!ctx->opts || (ctx->opts->states == XU_STATES_ALL &&
                       ctx->opts->weight == XU_WEIGHT_SAMPLES))
        return;
    for (k = 0; k < n && kept == 0; k++)
        kept += xu_output_weight(ctx, xu_profile_stack(ctx->profile, k));
    xu_profile_get_totals(ctx->profile, &t);
    if (kept || t.samples == 0)
        return;
    xu_warn(ctx->log, "--state=%s%s leaves nothing of %" PRIu64 " samples: %s",
            xu_state_view_name(ctx->opts->states),
            ctx->opts->weight == XU_WEIGHT_CPU ? " --weight=cpu" : "", t.samples,
            t.by_state[XU_VSTATE_UNKNOWN] == t.samples ?
            "no sample's vCPU state is known (a raw trace of format 1 or folded stacks, "
            "or a backend that cannot read states)" :
            ctx->opts->weight == XU_WEIGHT_CPU ? "the samples it shows used no CPU time" :
            "no sample is in the states it shows");
}
