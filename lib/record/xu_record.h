/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_record.h - profiling a live domain, as one library call.
 *
 * xu_record_run() is the whole of `xen-uniprof DOMAIN`: pick the backend,
 * find the domain (or create it paused), choose the output, find the
 * symbol ELF, choose the unwinder, start the guardian, check the ELF
 * against the running kernel, sample, symbolise, write the output and the
 * statistics.  What it needs from the world comes in through struct
 * xu_record_env, so a test runs the same path against the simulated guest,
 * a directory of its own, and a clock that does not wait.
 *
 * Every failure ends in one message through env->log (or the backend's
 * own line, for a Xen version mismatch) and one result.  The results are
 * xen-uniprof's documented exit statuses, number for number; the CLI maps
 * them in one place (tools/record.c).
 */
#ifndef XU_RECORD_H
#define XU_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "output/xu_output.h"
#include "profile/xu_profile.h"
#include "sample/xu_guardian.h"
#include "sample/xu_sampler.h"
#include "target/xu_target.h"
#include "util/xu_clock.h"
#include "util/xu_log.h"
#include "xen/xu_domain.h"

enum xu_record_result {
    XU_RECORD_OK = 0,               /* profile written */
    XU_RECORD_FAILURE = 1,          /* a Xen call, the output, no samples, left paused */
    XU_RECORD_USAGE = 2,            /* the configuration cannot work (format, backend) */
    XU_RECORD_NO_DOMAIN = 3,        /* no such domain, or dom0 */
    XU_RECORD_SYMBOLS = 4,          /* no usable symbol ELF */
    XU_RECORD_PRIVILEGE = 5,        /* Xen or the domain directory refused us */
    XU_RECORD_DOMAIN_ENDED = 6,     /* shut down or destroyed while sampling; written */
    XU_RECORD_XEN_MISMATCH = 7,     /* the hypervisor rejects our interface version */
    XU_RECORD_BAD_CORE = 8,         /* stack --core: the file cannot be opened or read as a core */
};

enum xu_unwind_choice {
    XU_UNWIND_AUTO = 0,         /* a kernel's ORC tables where the ELF has them, else CFI
                                 * where it has some, else an AArch32 ELF's EHABI
                                 * tables, frame pointers elsewhere */
    XU_UNWIND_FP,               /* frame pointers only */
    XU_UNWIND_CFI,              /* DWARF CFI only */
    XU_UNWIND_ORC,              /* a Linux kernel's ORC tables only */
    XU_UNWIND_EHABI,            /* an AArch32 ELF's ARM EHABI tables only */
};

/* The --unwind names of every command, in one table (lib/record/choose.c):
 * 0 with *out, -1 for a name not known. */
int xu_record_unwind_parse(const char *name, enum xu_unwind_choice *out);
#define XU_RECORD_UNWIND_NAMES "auto, fp, cfi, orc or ehabi"

/* The job: what the command line asked for. */
struct xu_record_config {
    const char *domain;         /* name or domid; ignored with create */
    const char *create;         /* an xl config: create the domain paused, profile from boot */
    bool destroy;               /* destroy the created domain at the end */
    const char *backend;        /* NULL: the best built one (unless env->backend) */
    double frequency;           /* Hz */
    double jitter;              /* xu_sampler_config.jitter */
    bool spin;                  /* xu_sampler_config.spin */
    bool no_tasks;              /* a Linux kernel's samples without their task (see record.c) */
    double duration;            /* seconds; 0: until stopped or the domain ends */
    unsigned long samples;      /* stop after this many; 0: no limit */
    unsigned int max_depth;
    enum xu_unwind_choice unwind;
    const char *roots;          /* where a complete stack may start (xu_roots_parse); NULL: defaults */
    const char *output;         /* NULL: "<domain><ext of the format>"; "-": stdout */
    const char *format;         /* NULL: from the output's extension, else svg */
    const char *elf;            /* NULL: found from the domain's kernel */
    const char *stats;          /* NULL, or where the run's statistics go (JSON) */
    bool no_batch;              /* pause and read each vCPU in separate calls (comparisons) */
    bool no_pause;              /* xu_sampler_config.no_pause: a measurement, not a mode */
    /*
     * A live view instead of a file (xen-uniprof top): no output is chosen
     * nor written, an ELF that cannot be found leaves the frames as
     * addresses (as for the raw format), and the samples go to env->live
     * while sampling goes on.  output, format, stats and destroy are ignored.
     */
    bool live;
    struct xu_output_options render;
};

struct xu_symtab;
struct xu_elf_code;
struct xu_arch_ops;

/* What a live view is given between ticks, guest running. */
struct xu_tasks;

struct xu_record_live {
    /* The samples since the view last emptied it (xu_profile_clear(), which
     * the view calls once it has taken a window's worth: the run never
     * empties it).  Its walks are as the unwinder left them until
     * xu_record_live_vouch(). */
    struct xu_profile *profile;
    const struct xu_sampler_stats *stats;   /* since sampling started */
    const struct xu_symtab *symtab;         /* NULL: no ELF, frames stay addresses */
    const struct xu_tasks *tasks;           /* a Linux guest's tasks, or NULL */
    uint32_t domid;
    const char *label;                      /* the domain's name, or what was asked for */
    const char *backend;
    double frequency;                       /* Hz asked for, now */
    /* for xu_record_live_vouch() */
    const struct xu_elf_code *code;
    const struct xu_arch_ops *arch;
    const char *const *roots;
};

/*
 * Judge lv->profile's finished walks against the ELF, as a recording does
 * before it writes (no ELF code: none counts as complete).  The profile
 * refuses adds afterwards, until it is emptied: call it on a window the
 * view is about to aggregate and clear.
 */
void xu_record_live_vouch(const struct xu_record_live *lv);

/* What the CLI prints once the output is written. */
struct xu_record_summary {
    uint32_t domid;
    const char *label;          /* the domain's name, or what was asked for */
    const char *output;         /* the path written, "-" for stdout */
    const struct xu_sampler_stats *stats;
    const struct xu_profile_totals *totals;
    const char *top;            /* the top function (xu_output_top_function), or NULL */
    double top_share;           /* its share of the samples, in percent */
    /* Of the stacks that ended at a zero frame pointer or return address
     * outside every root, the outermost function most end in and its share
     * of them (xu_vouch_outermost_not_root), or NULL. */
    const char *outermost;
    double outermost_share;
    double jitter;              /* the run's xu_sampler_config.jitter */
    const char *unwinder;       /* the unwinder's name ("fp", "auto", "cfi", "orc"), or NULL */
};

/*
 * For the summary line: what a user can do about the largest reason stacks
 * are not complete ("; ..." into buf, "" when there is nothing to say):
 * the outermost function most "not a root" stacks end in and
 * --roots=+NAME, --unwind=cfi where frame pointers (the fp unwinder's) look
 * broken, or --max-depth.  Nothing when fewer than 1 % of the samples are incomplete.
 */
void xu_record_incomplete_hint(const struct xu_record_summary *sum, char *buf, size_t size);
/* Words after the top function's share when it is the hypercall page (idle
 * time, and the view that shows it), else "". */
const char *xu_record_top_note(const struct xu_record_summary *sum);
/* A line of its own into buf ("" when there is nothing to say): at a strict
 * period (jitter 0), when at least 10 % of the samples found a vCPU blocked,
 * that such a guest can fall into step with the ticks, and --jitter=0.5. */
void xu_record_jitter_hint(const struct xu_record_summary *sum, char *buf, size_t size);

/* The world the run talks to. */
struct xu_record_env {
    /* Every message of the run.  NULL: stderr. */
    struct xu_log *log;
    /* Xen: the target backend's ops.  NULL: cfg->backend by name among the
     * built ones (xu_target_backend()). */
    const struct xu_target_ops *backend;
    /* Domains by name, kernel paths, --create.  NULL: xu_domdir_open()
     * (the xl plugin, else xenstore). */
    int (*domdir_open)(struct xu_domdir **out, unsigned int flags, struct xu_log *log);
    /* Time for the sampler (monotonic now, sleep until).  NULL: the real one. */
    const struct xu_clock *clock;
    /* Becomes non-zero (a signal handler's number) to stop sampling after
     * the current tick; the output is still written.  May be NULL. */
    volatile sig_atomic_t *stop;
    /* The process that unpauses the guest if we die.  NULL: the forked
     * guardian (xu_guardian_start() / xu_guardian_stop()). */
    int (*guardian_start)(struct xu_guardian **out, const struct xu_target_ops *ops,
                          uint32_t domid, volatile uint32_t **pause_state, struct xu_log *log);
    int (*guardian_stop)(struct xu_guardian *g);
    /* Printing, all optional: progress between ticks (every
     * progress_interval_s), the end of sampling before any message about
     * it, and the written output. */
    void (*progress)(void *ctx, const struct xu_sampler_stats *st);
    double progress_interval_s;
    void (*sampled)(void *ctx);
    void (*written)(void *ctx, const struct xu_record_summary *sum);
    /* With cfg->live: called between ticks every progress_interval_s
     * (instead of progress); non-zero ends sampling (result OK). */
    int (*live)(void *ctx, const struct xu_record_live *lv);
    /* When set, the frequency from the next tick on, read after each call
     * of progress or live (xu_sampler_config.frequency_now). */
    const double *frequency_now;
    void *ui_ctx;
};

/* Run the job.  env may be NULL (everything real). */
enum xu_record_result xu_record_run(const struct xu_record_config *cfg,
                                    const struct xu_record_env *env);

/*
 * The --stats file, written atomically (a temporary file renamed over
 * path): the run's metadata, counters, walk endings, paused time, stop
 * reason and result.  0 or -errno, logged.
 */
int xu_record_write_stats(const char *path, const struct xu_output_meta *meta,
                          const struct xu_sampler_stats *st,
                          const struct xu_profile_totals *tot, const char *output,
                          enum xu_record_result result, struct xu_log *log);

#endif
