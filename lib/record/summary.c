/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.c - the words the summary line adds for a user to act on: why
 * stacks are not complete and what to try, and what a top function that
 * is the hypercall page means, and what a guest that blocks asks of the
 * ticks (see xu_record.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "record/xu_record.h"

/* Below this share of the samples, incomplete stacks are strays (a walk
 * caught mid-prologue, an event at the wrong instant) that no option cures:
 * advice would only mislead. */
#define HINT_MIN_INCOMPLETE_PCT 1.0

void xu_record_incomplete_hint(const struct xu_record_summary *sum, char *buf, size_t size)
{
    const struct xu_profile_totals *t = sum->totals;
    unsigned int e, best = XU_WALK__COUNT;

    buf[0] = '\0';
    if (t->samples == 0 || 100.0 * (double)(t->samples - xu_profile_complete_samples(t)) <
                           HINT_MIN_INCOMPLETE_PCT * (double)t->samples)
        return;
    for (e = 0; e < XU_WALK__COUNT; e++)
        if (!xu_walk_complete((enum xu_walk_end)e) && t->by_end[e] &&
            (best == XU_WALK__COUNT || t->by_end[e] > t->by_end[best]))
            best = e;
    switch (best) {
    case XU_WALK_NOT_ROOT:
        if (sum->outermost && strcmp(sum->outermost, "hypercall_page") == 0)
            snprintf(buf, size, "; %.0f%% of those end in the hypercall page: its caller was "
                     "not found (no frame record there; --unwind=cfi reads the ELF's CFI)",
                     sum->outermost_share);
        else if (sum->outermost)
            snprintf(buf, size, "; %.0f%% of those end in %s, which is neither the ELF's entry "
                     "code nor a known thread start: if the guest's threads begin there, "
                     "pass --roots=+%s", sum->outermost_share, sum->outermost, sum->outermost);
        break;
    case XU_WALK_NOT_CALL:
    case XU_WALK_BAD_FRAME:
        /* advice about frame pointers only where they were what was followed */
        if (sum->unwinder && strcmp(sum->unwinder, "fp") == 0)
            snprintf(buf, size, "; the frame pointers look broken (a build without them?): "
                     "--unwind=cfi or auto follow the ELF's CFI instead");
        break;
    case XU_WALK_DEPTH:
        snprintf(buf, size, "; stacks are deeper than --max-depth");
        break;
    default:
        break;
    }
}

/* Of the samples, the share that found a vCPU blocked from which the
 * summary speaks of the ticks' spacing. */
#define HINT_MIN_BLOCKED_PCT 10.0

const char *xu_record_top_note(const struct xu_record_summary *sum)
{
    if (!sum->top || strcmp(sum->top, "hypercall_page") != 0)
        return "";
    return ": idle, blocked in Xen; --state=split shows it under [blocked], and the busy "
           "code beside it";
}

/* A guest that works and then blocks for a fixed time has its work stretched
 * by every pause that lands in it, and its cycle can fall into step with
 * strictly periodic ticks, which then meet its phases unevenly (points of
 * share in the lab's blocking guests); ticks spaced at random break the step. */
void xu_record_jitter_hint(const struct xu_record_summary *sum, char *buf, size_t size)
{
    const struct xu_profile_totals *t = sum->totals;
    double blocked;

    buf[0] = '\0';
    if (sum->jitter > 0 || t->samples == 0)
        return;
    blocked = 100.0 * (double)t->by_state[XU_VSTATE_BLOCKED] / (double)t->samples;
    if (blocked < HINT_MIN_BLOCKED_PCT)
        return;
    snprintf(buf, size, "%.0f%% of the samples found the guest blocked: a guest that works "
             "and blocks can fall into step with strictly periodic ticks, and --jitter=0.5 "
             "spaces them at random", blocked);
}
