/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stack.c - `xen-uniprof stack`: one pause per snapshot, every online
 * vCPU's registers and stack, then vouched for, symbolised and printed
 * (see xu_stack.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/record_priv.h"
#include "record/stack_priv.h"
#include "mem/xu_mem.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_linux_image.h"
#include "symbols/xu_vouch.h"
#include "target/xu_pause.h"
#if defined(HAVE_BACKEND_XENCALL) || defined(HAVE_BACKEND_XC)
#define XU_HAVE_CORE 1
#include "core/xu_core.h"
#endif

/* Everything one run holds; released in one place (run_dispose). */
struct run {
    const struct xu_stack_config *job;
    const struct xu_record_env *env;
    struct xu_log *log;
    struct xu_domdir *dir;
    struct xu_domain_entry entry;
    struct xu_elf_choice elf;
    struct xu_guardian *guardian;
    volatile uint32_t *pause_state;
    struct xu_pause *pause;
    struct xu_target target;
    bool target_open;
    bool from_memory;           /* no kernel file: symbols from its memory */
    struct xu_domain_info info;
    struct xu_mem *mem;
    void *unwind_table;
    struct xu_unwind_env unwind_env;
    struct xu_sampler_config sampler;       /* its unwinder, as the record run chooses it */
    struct xu_elf_code *code;
    const char **roots;
    unsigned int nr_vcpus;
    struct xu_vcpu_regs *regs;
    int *rcs;
    uint64_t *pcs;                          /* nr_vcpus * max_depth */
    struct xu_unwind_result *res;
    struct xu_stack_vcpu *vcpus;
    struct xu_stack_source src;
    FILE *out;
};

/* The record run's job as far as the shared pieces read it. */
static void as_record_job(const struct xu_stack_config *job, struct xu_record_config *rec)
{
    memset(rec, 0, sizeof(*rec));
    rec->domain = job->domain;
    rec->backend = job->backend;
    rec->elf = job->elf;
    rec->unwind = job->unwind;
    rec->max_depth = job->max_depth;
    rec->roots = job->roots;
    rec->render = job->render;
}

/* A live domain: domain search, symbols, guardian, pause handle, target. */
static enum xu_record_result open_live(struct run *r)
{
    const struct xu_record_env *env = r->env;
    const struct xu_target_ops *backend = env->backend;
    struct xu_record_config rec;
    int rc;

    as_record_job(r->job, &rec);
    if (!backend && !(backend = xu_target_backend(r->job->backend))) {
        xu_error(r->log, "--backend: no backend '%s' in this build (it has: %s)",
                 r->job->backend ? r->job->backend : "(default)", xu_target_backend_names());
        return XU_RECORD_USAGE;
    }
    rc = (env->domdir_open ? env->domdir_open : xu_domdir_open)(&r->dir, 0, r->log);
    if (rc < 0)
        return xu_record_result_for_domdir_error(rc);
    rc = xu_domdir_resolve(r->dir, r->job->domain, &r->entry);
    if (rc < 0)
        return xu_record_result_for_domdir_error(rc);
    /* without an ELF the frames stay addresses, as in a raw trace */
    if (xu_record_find_symbols(&rec, r->dir, r->entry.domid, &xu_output_raw, &r->elf,
                               &r->from_memory, r->log) != XU_RECORD_OK)
        return XU_RECORD_SYMBOLS;
    rc = env->guardian_start ?
         env->guardian_start(&r->guardian, backend, r->entry.domid, &r->pause_state, r->log) :
         xu_guardian_start(&r->guardian, backend, r->entry.domid, &r->pause_state, r->log);
    if (rc < 0)
        return xu_record_result_for_target_error(rc);
    if (xu_pause_new(&r->pause, &r->target, r->pause_state, r->log) < 0) {
        xu_error(r->log, "out of memory");
        return XU_RECORD_FAILURE;
    }
    rc = xu_target_open(&r->target, backend, r->entry.domid, r->log);
    if (rc < 0)
        return xu_record_result_for_target_error(rc);
    r->target_open = true;
    if (xu_record_check_elf_machine(&r->elf, &r->target, r->log) != XU_RECORD_OK)
        return XU_RECORD_SYMBOLS;
    r->src.domid = r->entry.domid;
    r->src.label = r->entry.name[0] ? r->entry.name : r->job->domain;
    return XU_RECORD_OK;
}

#ifdef XU_HAVE_CORE
/* A core whose every page is marked not dumped (Xen's arm dump-core writes
 * such cores: see the man page) can show the registers and no more; said
 * once up front rather than left to each walk's "unreadable memory". */
static void warn_no_pages(const struct xu_core_info *ci, const char *path, struct xu_log *log)
{
    if (ci->nr_pages > ci->invalid_entries)
        return;
    xu_warn(log, "%s: the core holds none of the guest's memory (%" PRIu64 " page%s, every "
            "one marked not dumped): only each vCPU's registers and the frames they give "
            "alone can be shown", path, ci->nr_pages, ci->nr_pages == 1 ? "" : "s");
}
#endif

/* A core file: the core target, and the ELF -e names, else a Linux kernel's image
 * from the core's pages. */
static enum xu_record_result open_core_file(struct run *r)
{
#ifdef XU_HAVE_CORE
    struct xu_elf_find_config fc = { .elf = r->job->elf };
    struct xu_core_info ci;
    int rc;

    rc = xu_core_target_open(&r->target, r->job->core, r->log, NULL);
    if (rc < 0)     /* said why: not a core, or a file that cannot be opened */
        return rc == -ENOMEM ? XU_RECORD_FAILURE : XU_RECORD_BAD_CORE;
    r->target_open = true;
    xu_core_get_info(xu_core_of_target(&r->target), &ci);
    warn_no_pages(&ci, r->job->core, r->log);
    r->src.xen_major = ci.xen_major;
    r->src.xen_minor = ci.xen_minor;
    r->src.label = r->job->core;
    if (xu_pause_new(&r->pause, &r->target, NULL, r->log) < 0) {
        xu_error(r->log, "out of memory");
        return XU_RECORD_FAILURE;
    }
    if (!r->job->elf) {
        r->from_memory = true;      /* a Linux kernel from the core's own pages */
        return XU_RECORD_OK;
    }
    fc.machine = ci.arch->elf_machine;
    if (xu_elf_find(&fc, r->log, &r->elf) < 0)
        return XU_RECORD_SYMBOLS;
    return XU_RECORD_OK;
#else
    xu_error(r->log, "--core: this build has no Xen headers, so it cannot read cores");
    return XU_RECORD_USAGE;
#endif
}

/*
 * The record run's ELF check: is the image the kernel the guest runs, and at
 * which slide (KASLR)?  A confirmed slide moves the image's tables before
 * any walk.
 */
static enum xu_record_result at_slide(struct run *r)
{
    int64_t slide = 0;

    if (!r->elf.path)
        return XU_RECORD_OK;
    xu_record_check_elf(&r->elf, &r->target, r->mem, r->pause, false, &slide, r->log);
    if (xu_pause_stuck(r->pause))
        return XU_RECORD_FAILURE;   /* the check's unpause failed for good, and said so */
    if (slide && xu_record_relocate(&r->elf, r->code, r->unwind_table, slide, r->log) < 0)
        return XU_RECORD_FAILURE;
    r->src.slide = slide;
    return XU_RECORD_OK;
}

/* Buffers, memory reader and unwinder, once the target is open. */
static enum xu_record_result prepare(struct run *r)
{
    struct xu_record_config rec;
    struct xu_linux_module_layout modules;
    struct xu_linux_image image;
    enum xu_record_result ec;
    unsigned int depth = r->job->max_depth;
    int rc;

    rc = xu_target_info(&r->target, &r->info);
    if (rc < 0) {
        if (rc == -ESRCH)
            xu_error(r->log, "domain %" PRIu32 " is gone", r->entry.domid);
        return xu_record_result_for_target_error(rc);
    }
    r->nr_vcpus = r->info.max_vcpu_id + 1;
    if (r->nr_vcpus > XU_MAX_VCPUS)
        r->nr_vcpus = XU_MAX_VCPUS;
    r->mem = xu_mem_new(&r->target, NULL);
    r->regs = calloc(r->nr_vcpus, sizeof(*r->regs));
    r->rcs = calloc(r->nr_vcpus, sizeof(*r->rcs));
    r->res = calloc(r->nr_vcpus, sizeof(*r->res));
    r->vcpus = calloc(r->nr_vcpus, sizeof(*r->vcpus));
    r->pcs = calloc((size_t)r->nr_vcpus * depth, sizeof(*r->pcs));
    if (!r->mem || !r->regs || !r->rcs || !r->res || !r->vcpus || !r->pcs) {
        xu_error(r->log, "out of memory");
        return XU_RECORD_FAILURE;
    }
    /* no kernel file: the kernel in its memory, else addresses */
    if (r->from_memory)
        xu_record_symbols_from_memory(&r->target, r->mem, r->pause, r->nr_vcpus, false,
                                      &r->elf, r->log);
    as_record_job(r->job, &rec);
    ec = xu_record_choose_unwinder(&rec, &r->elf, &r->sampler, &r->unwind_table, r->log);
    if (ec != XU_RECORD_OK)
        return ec;
    if (r->elf.path && (rc = xu_elf_code_open(r->elf.path, r->log, &r->code)) < 0)
        xu_warn(r->log, "cannot read the code of %s (%s): no stack is vouched for",
                xu_elf_choice_name(&r->elf), strerror(-rc));
    ec = at_slide(r);
    if (ec != XU_RECORD_OK)
        return ec;
    /* once, before the snapshots and outside their pauses */
    xu_record_linux_image(&r->elf, r->target.arch, &image);
    if (xu_record_module_layout(&r->elf, &image, r->src.slide, &modules, r->log))
        xu_record_read_modules(&r->target, r->mem, r->pause, r->nr_vcpus, &modules,
                               r->elf.symtab, xu_record_unwind_orc(r->unwind_table), r->log);
    xu_unwind_env_from_elf(r->elf.symtab, r->code, r->target.arch, &r->unwind_env);
    xu_record_apply_unwind_table(r->unwind_table, &r->unwind_env);
    r->src.type = r->info.type;
    r->src.guest_width = r->info.guest_width;
    r->src.arch = r->target.arch;
    r->src.elf = r->elf.shown ? r->elf.shown : r->elf.path;
    r->src.max_depth = depth;
    return XU_RECORD_OK;
}

/* The paused window: registers and walks of every vCPU, nothing else. */
static int capture(struct run *r)
{
    const struct xu_unwinder_ops *uw = r->sampler.unwinder ? r->sampler.unwinder :
                                       &xu_unwind_fp_ops;
    unsigned int v, depth = r->job->max_depth;
    int rc;

    for (v = 0; v < r->nr_vcpus; v++)
        xu_target_vcpu_state(&r->target, v, &r->vcpus[v].state);
    rc = xu_pause_take_regs(r->pause, r->nr_vcpus, r->regs, r->rcs);
    if (rc < 0)
        return rc;
    if (rc == 1)
        for (v = 0; v < r->nr_vcpus; v++)
            r->rcs[v] = xu_target_vcpu_regs(&r->target, v, &r->regs[v]);
    xu_mem_begin(r->mem);
    for (v = 0; v < r->nr_vcpus; v++) {
        r->res[v].depth = 0;
        if (r->rcs[v] < 0 || !r->regs[v].online)
            continue;
        xu_mem_set_context(r->mem, &r->regs[v]);
        uw->walk(&r->unwind_env, r->mem, &r->regs[v], r->pcs + (size_t)v * depth, depth,
                 &r->res[v]);
    }
    /* whatever failed above, the guest runs again now */
    return xu_pause_release(r->pause);
}

/* After the window: the walks as a profile the ELF vouches for. */
static int vouch(struct run *r, struct xu_profile *p)
{
    const struct xu_vouch vouch = { .symtab = r->elf.symtab, .code = r->code,
                                    .arch = r->target.arch, .roots = r->roots };
    unsigned int v, depth = r->job->max_depth;
    size_t i;
    int rc;

    for (v = 0; v < r->nr_vcpus; v++) {
        struct xu_stack_vcpu *sv = &r->vcpus[v];

        sv->rc = r->rcs[v];
        sv->regs = r->regs[v];
        sv->pcs = NULL;
        sv->depth = 0;
        if (r->res[v].depth == 0)
            continue;
        rc = xu_profile_add_state(p, v, sv->state.state, r->pcs + (size_t)v * depth,
                                  r->res[v].depth, r->res[v].end, 1, 0);
        if (rc < 0)
            return rc;
    }
    if (r->code && r->target.arch)
        xu_vouch_profile(p, &vouch);
    for (i = 0; i < xu_profile_nr_stacks(p); i++) {
        const struct xu_stack *s = xu_profile_stack(p, i);
        struct xu_stack_vcpu *sv = &r->vcpus[s->vcpu];

        sv->pcs = s->pcs;
        sv->depth = s->depth;
        /* nothing to vouch with: no walk can be called complete */
        sv->end = !r->code && xu_walk_complete(s->end) ? XU_WALK_NOT_ROOT : s->end;
    }
    return 0;
}

/* One snapshot: capture, vouch, symbolise, print. */
static enum xu_record_result snapshot(struct run *r, unsigned int index, double t0)
{
    struct xu_stack_snapshot snap = { .index = index, .total = r->job->snapshots,
                                      .vcpus = r->vcpus, .nr_vcpus = r->nr_vcpus };
    struct xu_profile *p = NULL;
    struct xu_symbolizer *sz = NULL;
    uint64_t *addrs = NULL;
    enum xu_record_result ec = XU_RECORD_OK;
    long n;
    int rc;

    rc = capture(r);
    if (rc < 0) {
        if (!xu_pause_stuck(r->pause))
            xu_error(r->log, "cannot pause domain %" PRIu32 ": %s", r->src.domid,
                     strerror(-rc));
        ec = rc == -ESRCH ? XU_RECORD_DOMAIN_ENDED : XU_RECORD_FAILURE;
        goto out;
    }
    snap.wall = time(NULL);
    snap.elapsed_s = xu_clock_now_s(r->env->clock) - t0;
    if (!(p = xu_profile_new(0)) || vouch(r, p) < 0 ||
        (n = xu_profile_unique_addrs(p, &addrs)) < 0 ||
        !(sz = xu_output_symbolizer_new(&r->job->render, r->elf.symtab, addrs, (size_t)n,
                                        r->elf.path, r->log))) {
        xu_error(r->log, "out of memory");
        ec = XU_RECORD_FAILURE;
        goto out;
    }
    snap.sz = r->elf.symtab ? sz : NULL;
    if (xu_stack_print_snapshot(r->out, &r->src, &snap) < 0) {
        xu_error(r->log, "cannot write the stacks: %s", strerror(errno));
        ec = XU_RECORD_FAILURE;
    }
out:
    xu_symbolizer_free(sz);
    free(addrs);
    xu_profile_free(p);
    return ec;
}

static void run_dispose(struct run *r)
{
    xu_pause_free(r->pause);
    if (r->guardian)
        (r->env->guardian_stop ? r->env->guardian_stop : xu_guardian_stop)(r->guardian);
    xu_mem_free(r->mem);
    if (r->target_open)
        xu_target_close(&r->target);
    xu_domdir_close(r->dir);
    xu_elf_choice_dispose(&r->elf);
    xu_record_free_unwind_table(r->unwind_table);
    xu_elf_code_free(r->code);
    free(r->roots);
    free(r->regs);
    free(r->rcs);
    free(r->res);
    free(r->vcpus);
    free(r->pcs);
}

static enum xu_record_result snapshots(struct run *r)
{
    const struct xu_clock *clock = xu_clock_or_real(r->env->clock);
    double t0 = xu_clock_now_s(clock);
    uint64_t next = clock->now_ns(clock->ctx);
    enum xu_record_result ec = XU_RECORD_OK;
    unsigned int i;

    xu_stack_print_begin(r->out, &r->src);
    for (i = 0; i < r->job->snapshots && ec == XU_RECORD_OK; i++) {
        if (i > 0) {
            next += (uint64_t)(r->job->interval * 1e9);
            clock->sleep_until_ns(clock->ctx, next);
            if (r->env->stop && *r->env->stop)
                break;
        }
        ec = snapshot(r, i, t0);
        /* a core is the same at every look: one snapshot says it all */
        if (r->job->core)
            break;
    }
    xu_stack_print_end(r->out, &r->src);
    if (fflush(r->out) != 0 && ec == XU_RECORD_OK) {
        xu_error(r->log, "cannot write the stacks: %s", strerror(errno));
        ec = XU_RECORD_FAILURE;
    }
    return ec;
}

enum xu_record_result xu_stack_run(const struct xu_stack_config *job,
                                   const struct xu_record_env *env_in, FILE *out)
{
    static const struct xu_record_env real_env;
    const struct xu_record_env *env = env_in ? env_in : &real_env;
    struct run r = { .job = job, .env = env, .out = out };
    enum xu_record_result ec;
    int rc;

    r.log = env->log ? env->log : xu_log_default();
    r.src.json = job->json;
    r.src.core = job->core;
    xu_elf_choice_init(&r.elf);
    if (job->roots && (rc = xu_roots_parse(job->roots, &r.roots)) < 0) {
        xu_error(r.log, "--roots: '%s' is not a comma-separated list of function names",
                 job->roots);
        ec = XU_RECORD_USAGE;
        goto out;
    }
    ec = job->core ? open_core_file(&r) : open_live(&r);
    if (ec == XU_RECORD_OK)
        ec = prepare(&r);
    if (ec == XU_RECORD_OK)
        ec = snapshots(&r);
out:
    if (r.pause && xu_pause_stuck(r.pause))
        ec = XU_RECORD_FAILURE;     /* said where it failed, with the fix */
    run_dispose(&r);
    return ec;
}
