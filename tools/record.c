/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.c - the default command: the options become a record job
 * (lib/record/), run with the real world; this file keeps what is the
 * terminal's: signals, the progress line, the summary line, and the one
 * mapping from the job's result to the exit status.
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_log.h"
#include "exit_codes.h"
#include "record.h"
#include "record/xu_record.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    stop_requested = sig;
}

/* SIGINT/SIGTERM/SIGHUP end sampling after the current tick; the output is
 * still written.  No SA_RESTART: the sampler's sleep must return early. */
static void install_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a closed stdout is a write error, not death */
}

/* ---- printing ---- */

struct ui {
    struct xu_log *log;
    double duration;
    int active;                 /* a progress line is on the terminal */
};

static void show_progress(void *ctx, const struct xu_sampler_stats *st)
{
    struct ui *ui = ctx;
    double rate = st->elapsed_s > 0 ? (double)st->ticks / st->elapsed_s : 0;

    if (ui->duration > 0)
        fprintf(stderr, "\rxen-uniprof: %" PRIu64 " samples, %.0f/s, %.0f s left   ",
                st->samples, rate, ui->duration > st->elapsed_s ? ui->duration - st->elapsed_s : 0);
    else
        fprintf(stderr, "\rxen-uniprof: %" PRIu64 " samples, %.0f/s, Ctrl-C to stop   ",
                st->samples, rate);
    ui->active = 1;
}

static void sampling_ended(void *ctx)
{
    struct ui *ui = ctx;

    if (ui->active)
        fputs("\r\033[K", stderr);
    ui->active = 0;
}

static void show_summary(void *ctx, const struct xu_record_summary *sum)
{
    struct ui *ui = ctx;
    const struct xu_sampler_stats *st = sum->stats;
    const struct xu_profile_totals *tot = sum->totals;
    char top_text[224] = "", why[160], hint[320], why_text[512] = "", skip_text[96] = "";

    if (sum->top)
        snprintf(top_text, sizeof(top_text), ", top: %s (%.1f%%%s)", sum->top, sum->top_share,
                 xu_record_top_note(sum));
    if (st->paused_by_other_ticks)
        snprintf(skip_text, sizeof(skip_text), ", %" PRIu64 " ticks skipped (the domain was "
                 "paused by someone else)", st->paused_by_other_ticks);
    xu_profile_incomplete_reasons(tot, why, sizeof(why));
    xu_record_incomplete_hint(sum, hint, sizeof(hint));
    if (why[0])
        snprintf(why_text, sizeof(why_text), " (incomplete: %s%s)", why, hint);
    xu_info(ui->log, "%" PRIu64 " samples in %.2f s (%.1f/s), %" PRIu64 " missed deadlines%s, "
            "paused median %.1f us p99 %.1f us, %.1f%% complete stacks%s%s -> %s",
            tot->samples, st->elapsed_s, st->elapsed_s > 0 ? (double)st->ticks / st->elapsed_s : 0.0,
            st->missed_deadlines, skip_text, (double)xu_hist_quantile(&st->paused_ns, 0.5) / 1e3,
            (double)xu_hist_quantile(&st->paused_ns, 0.99) / 1e3,
            100.0 * (double)xu_profile_complete_samples(tot) / (double)tot->samples,
            why_text, top_text, strcmp(sum->output, "-") == 0 ? "stdout" : sum->output);
    xu_record_jitter_hint(sum, hint, sizeof(hint));
    if (hint[0])
        xu_info(ui->log, "%s", hint);
}

/* The one mapping from a record result to the documented exit status. */
int xu_record_exit_status(enum xu_record_result r)
{
    switch (r) {
    case XU_RECORD_OK:            return XU_EXIT_OK;
    case XU_RECORD_FAILURE:       return XU_EXIT_FAILURE;
    case XU_RECORD_USAGE:         return XU_EXIT_USAGE;
    case XU_RECORD_NO_DOMAIN:     return XU_EXIT_NO_DOMAIN;
    case XU_RECORD_SYMBOLS:       return XU_EXIT_SYMBOLS;
    case XU_RECORD_PRIVILEGE:     return XU_EXIT_PRIVILEGE;
    case XU_RECORD_DOMAIN_ENDED:  return XU_EXIT_DOMAIN_ENDED;
    case XU_RECORD_XEN_MISMATCH:  return XU_EXIT_XEN_MISMATCH;
    case XU_RECORD_BAD_CORE:      return XU_EXIT_BAD_CORE;
    }
    return XU_EXIT_FAILURE;
}

/* An environment variable set to anything but empty or 0. */
static bool env_set(const char *name)
{
    const char *v = getenv(name);

    return v && *v && strcmp(v, "0") != 0;
}

int xu_record_options(const struct xu_options *o, struct xu_log *log,
                      volatile sig_atomic_t *stop, bool progress)
{
    struct ui ui = { .log = log, .duration = o->duration };
    struct xu_record_config job = {
        .domain = o->domain,
        .create = o->create,
        .destroy = o->destroy,
        .backend = o->backend,
        .frequency = o->frequency,
        .jitter = o->jitter,
        .spin = o->spin,
        .no_tasks = o->no_tasks,
        .duration = o->duration,
        .samples = o->samples,
        .max_depth = o->max_depth,
        .unwind = o->unwind,
        .roots = o->roots,
        .output = o->output,
        .format = o->format,
        .elf = o->elf,
        .stats = o->stats,
        /* the man page's ENVIRONMENT: comparisons and measurements */
        .no_batch = env_set("XEN_UNIPROF_NO_BATCH"),
        .no_pause = env_set("XEN_UNIPROF_NO_PAUSE"),
        .render = o->render,
    };
    struct xu_record_env env = {
        .log = log,
        .stop = stop,
        .sampled = sampling_ended,
        .written = show_summary,
        .ui_ctx = &ui,
    };

    if (progress) {
        env.progress = show_progress;
        env.progress_interval_s = 0.5;
    }
    return xu_record_exit_status(xu_record_run(&job, &env));
}

int xu_record(const struct xu_options *o)
{
    struct xu_log log;

    xu_cli_log_init(&log, XU_LOG_INFO, o->verbose, o->quiet);
    install_signals();
    if (o->all)
        return xu_record_all(o, &log, &stop_requested);
    return xu_record_options(o, &log, &stop_requested, !o->quiet && isatty(STDERR_FILENO));
}
