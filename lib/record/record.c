/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.c - profile a live domain: resolve it, attach, sample, symbolise,
 * write (see xu_record.h).  Every failure ends in one message and one
 * result; the pause module guarantees the guest runs again, or says how to
 * make it, before we get to the output.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/record_priv.h"
#include "record/xu_record.h"
#include "mem/xu_mem.h"
#include "symbols/xu_btf.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_elf_find.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_linux_image.h"
#include "symbols/xu_symbols.h"
#include "symbols/xu_vouch.h"
#include "target/xu_pause.h"

/* ---- the job ---- */

/* Find the domain (or create it): fills entry; returns a result. */
static enum xu_record_result find_domain(const struct xu_record_config *job,
                                         struct xu_domdir *dir, struct xu_domain_entry *entry,
                                         int *created, struct xu_log *log)
{
    char id[16];
    int rc;

    *created = 0;
    if (job->create) {
        rc = xu_domdir_create_paused(dir, job->create, &entry->domid);
        if (rc < 0)
            return rc == -ENOTSUP ? XU_RECORD_USAGE : XU_RECORD_FAILURE;
        *created = 1;
        snprintf(id, sizeof(id), "%" PRIu32, entry->domid);
        if (xu_domdir_resolve(dir, id, entry) < 0)
            entry->name[0] = '\0';
        xu_info(log, "created domain %" PRIu32 " (%s) from %s, paused", entry->domid,
                entry->name, job->create);
        return XU_RECORD_OK;
    }
    rc = xu_domdir_resolve(dir, job->domain, entry);
    return rc < 0 ? xu_record_result_for_domdir_error(rc) : XU_RECORD_OK;
}

/*
 * Does every sample name its task?  For an x86-64 Linux kernel whose image
 * gives the layout (its BTF and kallsyms, img): by default, as a Linux admin
 * asks "which process" first; --no-tasks keeps the plain stacks (in the
 * live view too, which names the frames with the table).  Returns
 * the table (the layout in img), or NULL: no tasks, said at debug level
 * for a kernel that is not Linux, at info level for a Linux one without
 * what it takes.
 */
static struct xu_tasks *tasks_for(const struct xu_record_config *job,
                                  const struct xu_elf_choice *elf,
                                  const struct xu_linux_image *img, struct xu_log *log)
{
    const struct xu_linux_task_layout *l = &img->task;
    struct xu_tasks *t;

    if (job->no_tasks || img->task_rc == -ENOTSUP)
        return NULL;
    if (img->task_rc < 0) {
        if (img->task_rc == -ENOENT)
            xu_info(log, "samples do not name their task: %s", img->task_err);
        else
            xu_debug(log, "no Linux task layout in %s: %s", xu_elf_choice_name(elf),
                     img->task_err);
        return NULL;
    }
    t = malloc(sizeof(*t));
    if (!t) {
        xu_warn(log, "out of memory for the task table: samples do not name their task");
        return NULL;
    }
    xu_tasks_init(t);
    xu_info(log, "tasks: each sample names its task (task_struct.pid at %u, comm at %u, "
            "%s at per-CPU %#" PRIx64 ", from the image's BTF and kallsyms; --no-tasks: off)",
            l->pid_offset, l->comm_offset, l->current_from, l->current_task);
    return t;
}

/* The real guardian, when the environment brings none. */
static int guardian_start(const struct xu_record_env *env, struct xu_guardian **g,
                          const struct xu_target_ops *ops, uint32_t domid,
                          volatile uint32_t **pause_state, struct xu_log *log)
{
    if (env->guardian_start)
        return env->guardian_start(g, ops, domid, pause_state, log);
    return xu_guardian_start(g, ops, domid, pause_state, log);
}

static void guardian_stop(const struct xu_record_env *env, struct xu_guardian *g)
{
    if (!g)
        return;
    if (env->guardian_stop)
        env->guardian_stop(g);
    else
        xu_guardian_stop(g);
}

/* The backend: the environment's, or the named (or best) built one. */
static const struct xu_target_ops *choose_backend(const struct xu_record_config *job,
                                                  const struct xu_record_env *env,
                                                  struct xu_log *log)
{
    const struct xu_target_ops *backend;

    if (env->backend)
        return env->backend;
    backend = xu_target_backend(job->backend);
    if (!backend) {
        if (job->backend)
            xu_error(log, "--backend: unknown backend '%s' (this build has: %s)", job->backend,
                     xu_target_backend_names());
        else
            xu_error(log, "this build has no Xen backend (configured --with-backend=none); "
                     "only 'xen-uniprof convert' works");
    }
    return backend;
}

/*
 * Each finished walk once more, against the ELF: did it reach a root?
 * Without the ELF's code nothing can be vouched for, so nothing counts as
 * complete (the run said why when the code could not be read).
 */
static void vouch_for_walks(struct xu_profile *profile, const struct xu_symtab *symtab,
                            const struct xu_elf_code *code, const struct xu_arch_ops *arch,
                            const char *const *roots)
{
    const struct xu_vouch vouch = { .symtab = symtab, .code = code, .arch = arch,
                                    .roots = roots };
    size_t i;

    if (code && arch) {
        xu_vouch_profile(profile, &vouch);
        return;
    }
    for (i = 0; i < xu_profile_nr_stacks(profile); i++)
        if (xu_walk_complete(xu_profile_stack(profile, i)->end))
            xu_profile_set_end(profile, i, XU_WALK_NOT_ROOT);
}

void xu_record_live_vouch(const struct xu_record_live *lv)
{
    vouch_for_walks(lv->profile, lv->symtab, lv->code, lv->arch, lv->roots);
}

/* Between ticks: the progress line, or the live view with the samples. */
struct between {
    const struct xu_record_env *env;
    struct xu_record_live live;
};

static int between_ticks(void *ctx, const struct xu_sampler_stats *st)
{
    struct between *b = ctx;

    if (b->env->live) {
        b->live.stats = st;
        if (b->env->frequency_now)
            b->live.frequency = *b->env->frequency_now;
        return b->env->live(b->env->ui_ctx, &b->live);
    }
    if (b->env->progress)
        b->env->progress(b->env->ui_ctx, st);
    return 0;
}

enum xu_record_result xu_record_run(const struct xu_record_config *job,
                                    const struct xu_record_env *env_in)
{
    static const struct xu_record_env real_env;
    const struct xu_record_env *env = env_in ? env_in : &real_env;
    struct xu_log *log = env->log ? env->log : xu_log_default();
    const struct xu_target_ops *backend;
    const struct xu_output_ops *fmt = NULL;
    struct xu_domdir *dir = NULL;
    struct xu_domain_entry entry = { 0 };
    struct xu_elf_choice elf;
    struct xu_guardian *guardian = NULL;
    volatile uint32_t *pause_state = NULL;
    struct xu_pause *pause = NULL;
    struct xu_target target = { 0 };
    struct xu_domain_info info;
    struct xu_mem *mem = NULL;
    struct xu_profile *profile = NULL;
    struct xu_symbolizer *sz = NULL;
    struct xu_sampler_stats st;
    struct xu_profile_totals tot;
    struct xu_output_meta meta = { 0 };
    struct xu_output_options oopts = { 0 };
    struct xu_output_ctx octx;
    struct xu_sampler_config cfg = { 0 };
    struct xu_record_summary sum = { 0 };
    struct between between = { 0 };
    void *unwind_table = NULL;
    struct xu_unwind_env unwind_env = { 0 };
    struct xu_elf_code *code = NULL;
    const struct xu_arch_ops *arch = NULL;
    const char **roots = NULL;
    struct xu_linux_image linux_image;
    struct xu_tasks *tasks = NULL;
    struct xu_linux_module_layout module_layout;
    bool modules = false;           /* read the guest's module list */
    char *out_path = NULL, top[128];
    const char *label;
    enum xu_record_result ec;
    int rc, target_open = 0, created = 0, created_paused = 0;
    bool recheck_elf = false;       /* the first ELF check could not be final */
    bool from_memory = false;       /* no kernel file: symbols from the guest's memory */
    int64_t slide = 0;              /* a kernel relocated at boot: runtime - link time */

    xu_elf_choice_init(&elf);
    memset(&st, 0, sizeof(st));

    if (job->roots && (rc = xu_roots_parse(job->roots, &roots)) < 0) {
        if (rc == -EINVAL)
            xu_error(log, "--roots: '%s' is not a comma-separated list of at most %d function "
                     "names", job->roots, XU_MAX_ROOTS);
        ec = rc == -EINVAL ? XU_RECORD_USAGE : XU_RECORD_FAILURE;
        goto out;
    }
    backend = choose_backend(job, env, log);
    if (!backend) {
        ec = XU_RECORD_USAGE;
        goto out;
    }

    rc = (env->domdir_open ? env->domdir_open : xu_domdir_open)(
        &dir, job->create ? XU_DOMDIR_NEED_PLUGIN : 0, log);
    if (rc < 0) {
        ec = xu_record_result_for_domdir_error(rc);
        goto out;
    }
    ec = find_domain(job, dir, &entry, &created, log);
    if (ec != XU_RECORD_OK)
        goto out;
    created_paused = created;
    label = entry.name[0] ? entry.name : job->domain ? job->domain : "domain";

    if (job->live) {
        fmt = &xu_output_raw;   /* what a missing ELF leaves: addresses */
    } else {
        ec = xu_record_choose_output(job, label, &fmt, &out_path, log);
        if (ec != XU_RECORD_OK)
            goto out;
    }
    /* Symbols and unwind tables before the guest is touched: a stripped
     * ELF fails fast. */
    ec = xu_record_find_symbols(job, dir, entry.domid, fmt, &elf, &from_memory, log);
    /* a raw recording keeps addresses, symbolised later from a file */
    if (from_memory && fmt == &xu_output_raw && !job->live)
        from_memory = false;
    if (ec == XU_RECORD_OK && !from_memory)
        ec = xu_record_choose_unwinder(job, &elf, &cfg, &unwind_table, log);
    if (ec != XU_RECORD_OK)
        goto out;

    /*
     * Before the guest can be paused by us, a guardian watches: it unpauses
     * the guest if we die.  Forked before we open our own Xen handles, so
     * that it inherits none of them (it opens its own).
     */
    rc = guardian_start(env, &guardian, backend, entry.domid, &pause_state, log);
    if (rc < 0) {
        /* Logged by the guardian (a Xen version mismatch by its own open,
         * in the one line that says what to do). */
        ec = xu_record_result_for_target_error(rc);
        goto out;
    }
    /* The run's one pause handle: the ELF check, the creation pause and
     * the sampler share it, and it keeps the guardian's word. */
    rc = xu_pause_new(&pause, &target, pause_state, log);
    if (rc < 0) {
        xu_error(log, "out of memory");
        ec = XU_RECORD_FAILURE;
        goto out;
    }
    if (created_paused)
        xu_pause_adopt(pause);      /* the creation pause is ours to undo */
    xu_pause_set_batching(pause, !job->no_batch);

    rc = xu_target_open(&target, backend, entry.domid, log);
    if (rc < 0) {
        ec = xu_record_result_for_target_error(rc);
        goto out;
    }
    target_open = 1;
    rc = xu_target_info(&target, &info);
    if (rc < 0) {
        if (rc == -ESRCH)
            xu_error(log, "domain %" PRIu32 " is gone", entry.domid);
        ec = xu_record_result_for_target_error(rc);
        goto out;
    }

    ec = xu_record_check_elf_machine(&elf, &target, log);
    if (ec != XU_RECORD_OK)
        goto out;
    mem = xu_mem_new(&target, NULL);
    profile = xu_profile_new(0);
    if (!mem || !profile) {
        xu_error(log, "out of memory");
        ec = XU_RECORD_FAILURE;
        goto out;
    }
    if (from_memory) {
        /* the live view goes on by address without them, as it does without a file */
        if (xu_record_symbols_from_memory(&target, mem, pause, info.max_vcpu_id + 1,
                                          !job->live, &elf, log) != XU_RECORD_OK &&
            !job->live) {
            ec = XU_RECORD_SYMBOLS;
            goto out;
        }
        ec = xu_record_choose_unwinder(job, &elf, &cfg, &unwind_table, log);
        if (ec != XU_RECORD_OK)
            goto out;
    }
    if (elf.path)
        recheck_elf = xu_record_check_elf(&elf, &target, mem, pause,
                                          info.type == XU_GUEST_HVM, &slide, log);
    if (xu_pause_stuck(pause)) {
        /* The check's unpause failed for good, and said so with the fix. */
        ec = XU_RECORD_FAILURE;
        goto out;
    }
    /* What the ELF says about hypercall stubs, upcall entries and code,
     * for the unwinders now and for vouching for finished walks later. */
    arch = target.arch;
    if (elf.path && (rc = xu_elf_code_open(elf.path, log, &code)) < 0)
        xu_warn(log, "cannot read the code of %s (%s): hypercall and upcall frames are not "
                "recognised, and no stack counts as complete", xu_elf_choice_name(&elf),
                strerror(-rc));
    if (slide && xu_record_relocate(&elf, code, unwind_table, slide, log) < 0) {
        ec = XU_RECORD_FAILURE;
        goto out;
    }
    xu_unwind_env_from_elf(elf.symtab, code, arch, &unwind_env);
    xu_record_apply_unwind_table(unwind_table, &unwind_env);
    cfg.unwinder_ctx = &unwind_env;
    xu_record_linux_image(&elf, arch, &linux_image);
    tasks = tasks_for(job, &elf, &linux_image, log);
    if (tasks) {
        cfg.task_layout = &linux_image.task;
        cfg.tasks = tasks;
    }
    modules = xu_record_module_layout(&elf, &linux_image, slide, &module_layout, log);
    /* the modules' ORC tables now, for the walks; a recording's names after it */
    if (modules && (job->live || xu_record_unwind_orc(unwind_table)))
        xu_record_read_modules(&target, mem, pause, info.max_vcpu_id + 1, &module_layout,
                               job->live ? elf.symtab : NULL,
                               xu_record_unwind_orc(unwind_table), log);

    cfg.frequency_hz = job->frequency;
    cfg.frequency_now = env->frequency_now;
    cfg.jitter = job->jitter;
    cfg.spin = job->spin;
    cfg.duration_s = job->duration;
    cfg.max_samples = job->samples;
    cfg.max_depth = job->max_depth;
    cfg.stop = env->stop;
    cfg.pause = pause;
    cfg.no_pause = job->no_pause;
    cfg.clock = env->clock;
    between.env = env;
    if (job->live ? env->live != NULL : env->progress != NULL) {
        cfg.progress = between_ticks;
        cfg.progress_ctx = &between;
        cfg.progress_interval_s = env->progress_interval_s;
    }
    if (job->live) {
        between.live = (struct xu_record_live){
            .profile = profile, .symtab = elf.symtab, .tasks = tasks, .domid = entry.domid,
            .label = label,
            .backend = backend->name, .frequency = job->frequency, .code = code,
            .arch = arch, .roots = roots,
        };
    }

    xu_info(log, "profiling domain %" PRIu32 " (%s, %s %s, %u vCPU%s) at %g Hz with the %s "
            "backend%s", entry.domid, label, arch->name, xu_guest_type_name(info.type),
            info.max_vcpu_id + 1, info.max_vcpu_id ? "s" : "", job->frequency, backend->name,
            job->duration > 0 ? "" : "; Ctrl-C to stop");
    meta.start_time = time(NULL);
    if (created_paused) {
        /* Sampling starts with the guest's first instruction: the first
         * tick's pause lands before the vCPU has run for long. */
        created_paused = 0;
        rc = xu_pause_release(pause);
        if (rc < 0) {
            /* logged with the command that starts it by hand */
            ec = XU_RECORD_FAILURE;
            goto out;
        }
    }
    rc = xu_sampler_run(&target, mem, profile, &cfg, &st);
    if (env->sampled)
        env->sampled(env->ui_ctx);
    if (rc < 0) {
        /* An unpause that failed for good was reported where it failed. */
        if (!st.left_paused)
            xu_error(log, "sampling failed after %" PRIu64 " samples: %s", st.samples,
                     strerror(-rc));
        ec = xu_record_result_for_target_error(rc);
        if (ec == XU_RECORD_NO_DOMAIN || st.left_paused)
            ec = XU_RECORD_FAILURE;
    } else {
        ec = XU_RECORD_OK;
    }
    if (st.reason == XU_STOP_DOMAIN_SHUTDOWN || st.reason == XU_STOP_DOMAIN_GONE) {
        if (created) {
            xu_info(log, "the domain %s after %.2f s", xu_stop_ending(&st), st.elapsed_s);
        } else if (job->live) {
            xu_warn(log, "the domain %s after %.2f s", xu_stop_ending(&st), st.elapsed_s);
            ec = XU_RECORD_DOMAIN_ENDED;
        } else {
            xu_warn(log, "the domain %s after %.2f s; writing the %" PRIu64 " samples taken",
                    xu_stop_ending(&st), st.elapsed_s, st.samples);
            ec = XU_RECORD_DOMAIN_ENDED;
        }
    }
    if (env->stop && *env->stop)
        xu_info(log, "stopped by signal %d", (int)*env->stop);
    if (recheck_elf && rc >= 0 && st.reason != XU_STOP_DOMAIN_GONE &&
        st.reason != XU_STOP_DOMAIN_SHUTDOWN) {
        int64_t late;

        /* walked and vouched for at the slide the first look found */
        xu_record_check_elf(&elf, &target, mem, pause, false, &late, log);
        if (late != slide)
            xu_warn(log, "%s was found 0x%" PRIx64 " bytes above its link-time addresses "
                    "only after sampling: the stacks were walked without it, and their "
                    "frames are not named", xu_elf_choice_name(&elf), (uint64_t)late);
        if (xu_pause_stuck(pause))
            ec = XU_RECORD_FAILURE;     /* said where it failed, with the fix */
    }

    if (modules && !job->live && rc >= 0 && st.reason != XU_STOP_DOMAIN_GONE &&
        st.reason != XU_STOP_DOMAIN_SHUTDOWN && !xu_pause_stuck(pause))
        xu_record_read_modules(&target, mem, pause, info.max_vcpu_id + 1, &module_layout,
                               elf.symtab, NULL, log);

    /* The guest runs on its own again: release everything Xen-side. */
    xu_pause_free(pause);
    pause = NULL;
    guardian_stop(env, guardian);
    guardian = NULL;
    xu_mem_free(mem);   /* mappings belong to the target: before detaching */
    mem = NULL;
    xu_target_close(&target);
    target_open = 0;
    if (created && job->destroy) {
        if (xu_domdir_destroy(dir, entry.domid) == 0)
            xu_info(log, "destroyed domain %" PRIu32, entry.domid);
        created = 0;
    }
    if (job->live)
        goto out;   /* the view has shown what there was to show */

    vouch_for_walks(profile, elf.symtab, code, arch, roots);
    xu_profile_get_totals(profile, &tot);
    if (tot.samples == 0 && st.ticks == 0 && st.paused_by_other_ticks) {
        xu_error(log, "no samples were taken: domain %" PRIu32 " was paused by someone else "
                 "(xl pause?) at every one of the %" PRIu64 " ticks, and a paused guest spends "
                 "no time anywhere", entry.domid, st.paused_by_other_ticks);
        if (ec == XU_RECORD_OK || ec == XU_RECORD_DOMAIN_ENDED)
            ec = XU_RECORD_FAILURE;
        goto out;
    }
    if (tot.samples == 0) {
        xu_error(log, "no samples were taken (%s)", xu_stop_reason_name(st.reason));
        if (ec == XU_RECORD_OK || ec == XU_RECORD_DOMAIN_ENDED)
            ec = XU_RECORD_FAILURE;
        goto out;
    }

    /* Symbolise: each distinct address once, with the guest running. */
    /* DWARF is read at link-time addresses: not for a kernel that moved */
    if (!(sz = xu_output_symbolizer_of(&job->render, elf.symtab, profile,
                                       slide ? NULL : elf.path, log))) {
        xu_error(log, "out of memory");
        ec = XU_RECORD_FAILURE;
        goto out;
    }

    meta.domid = entry.domid;
    meta.domain_name = label;
    meta.backend = backend->name;
    meta.elf_path = elf.shown ? elf.shown : elf.path;
    meta.guest_type = xu_guest_type_name(info.type);
    meta.guest_arch = arch ? arch->name : NULL;
    meta.frequency_hz = job->frequency;
    meta.duration_s = st.elapsed_s;
    oopts = job->render;
    memset(&octx, 0, sizeof(octx));
    octx.profile = profile;
    octx.syms = sz;
    octx.meta = &meta;
    octx.opts = &oopts;
    octx.log = log;
    octx.symtab = elf.symtab;
    octx.tasks = tasks;
    if (tasks)
        xu_info(log, "tasks: %" PRIu32 " seen; %" PRIu64 " of %" PRIu64 " samples' task "
                "unknown%s", tasks->n - 1, st.tasks_unknown, st.samples,
                tasks->others ? " (the table was full: the rest are under [task] others)" : "");
    rc = xu_output_write_path(fmt, out_path, &octx);
    if (rc < 0) {
        ec = XU_RECORD_FAILURE;
        goto out;
    }

    sum.domid = entry.domid;
    sum.label = label;
    sum.output = out_path;
    sum.stats = &st;
    sum.totals = &tot;
    sum.jitter = job->jitter;
    sum.unwinder = cfg.unwinder ? cfg.unwinder->name : NULL;
    if (xu_output_top_function(&octx, top, sizeof(top), &sum.top_share) > 0)
        sum.top = top;
    if (code && arch)
        sum.outermost = xu_vouch_outermost_not_root(profile, elf.symtab,
                                                    &sum.outermost_share);
    if (env->written)
        env->written(env->ui_ctx, &sum);
    if (job->stats && xu_record_write_stats(job->stats, &meta, &st, &tot, out_path, ec, log) < 0 &&
        ec == XU_RECORD_OK)
        ec = XU_RECORD_FAILURE;

out:
    /* Gives back a pause still held (the creation's, on an early failure);
     * a failure leaves the word PAUSED for the guardian. */
    xu_pause_free(pause);
    guardian_stop(env, guardian);
    xu_mem_free(mem);
    if (target_open)
        xu_target_close(&target);
    if (created && job->destroy)
        xu_domdir_destroy(dir, entry.domid);
    xu_domdir_close(dir);
    xu_symbolizer_free(sz);
    xu_profile_free(profile);
    xu_elf_choice_dispose(&elf);
    xu_record_free_unwind_table(unwind_table);
    xu_elf_code_free(code);
    free(tasks);
    free(roots);
    free(out_path);
    return ec;
}
