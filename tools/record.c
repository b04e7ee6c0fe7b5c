/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.c - profile a live domain: resolve it, attach, sample, symbolise,
 * write.  Every failure ends in one message and a documented exit code;
 * the sampler guarantees the guest is running again before we get here.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_log.h"
#include "exit_codes.h"
#include "output/funcs.h"
#include "record.h"
#include "util/xu_atomic_file.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif
#include "xen/xu_domain.h"
#include "symbols/xu_elf_find.h"
#include "sample/xu_guardian.h"
#include "mem/xu_mem.h"
#include "output/xu_output.h"
#include "profile/xu_profile.h"
#include "sample/xu_sampler.h"
#include "symbols/xu_symbols.h"
#include "target/xu_target.h"

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

/* ---- choosing the output ---- */

static const struct xu_output_ops *default_format(void)
{
    const struct xu_output_ops *ops = xu_output_find("svg");

    return ops ? ops : &xu_output_folded;
}

static void list_formats(char *buf, size_t len)
{
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; xu_output_formats[i] && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 xu_output_formats[i]->name);
}

/* Sets *ops and *path; returns an exit code. */
static int choose_output(const struct xu_options *o, const char *domain_label,
                         const struct xu_output_ops **ops, char **path, struct xu_log *log)
{
    char names[256];
    const char *ext;

    *path = NULL;
    if (o->format) {
        *ops = xu_output_find(o->format);
        if (!*ops) {
            list_formats(names, sizeof(names));
            xu_error(log, "-f/--format: unknown format '%s' (known: %s)", o->format, names);
            return XU_EXIT_USAGE;
        }
    } else if (o->output && strcmp(o->output, "-") == 0) {
        *ops = &xu_output_folded;
    } else if (o->output) {
        *ops = xu_output_for_path(o->output);
        if (!*ops) {
            list_formats(names, sizeof(names));
            xu_error(log, "-o/--output: cannot tell the format of '%s' from its extension; "
                     "add -f FORMAT (known: %s)", o->output, names);
            return XU_EXIT_USAGE;
        }
    } else {
        *ops = default_format();
    }

    if (o->output) {
        *path = strdup(o->output);
    } else {
        ext = (*ops)->extensions;
        size_t n = strcspn(ext, " ");
        if (asprintf(path, "%s%.*s", domain_label, (int)n, ext) < 0)
            *path = NULL;
    }
    if (!*path) {
        xu_error(log, "out of memory");
        return XU_EXIT_FAILURE;
    }
    return XU_EXIT_OK;
}

/* Map a backend's open/info failure to an exit code (the backend logged why). */
static int exit_for_target_error(int rc)
{
    switch (rc) {
    case -ESRCH:
        return XU_EXIT_NO_DOMAIN;
    case -EACCES:
    case -EPERM:
    case -ENOENT:
    case -ENODEV:
        return XU_EXIT_PRIVILEGE;
    case -EPROTO:
        return XU_EXIT_XEN_MISMATCH;
    default:
        return XU_EXIT_FAILURE;
    }
}

/* ---- progress on a terminal ---- */

struct progress {
    double duration;
    int active;
};

static void show_progress(void *ctx, const struct xu_sampler_stats *st)
{
    struct progress *pr = ctx;
    double rate = st->elapsed_s > 0 ? (double)st->ticks / st->elapsed_s : 0;

    if (pr->duration > 0)
        fprintf(stderr, "\rxen-uniprof: %" PRIu64 " samples, %.0f/s, %.0f s left   ",
                st->samples, rate, pr->duration > st->elapsed_s ? pr->duration - st->elapsed_s : 0);
    else
        fprintf(stderr, "\rxen-uniprof: %" PRIu64 " samples, %.0f/s, Ctrl-C to stop   ",
                st->samples, rate);
    pr->active = 1;
}

/* ---- the summary ---- */

/* A JSON string of s (invalid UTF-8 from a hostile name becomes U+FFFD);
 * NULL is written as "". */
static void json_string(FILE *f, const char *s)
{
    xu_fput_json(f, s ? s : "");
}

static int write_stats(const char *path, const struct xu_output_meta *meta,
                       const struct xu_sampler_stats *st, const struct xu_profile_totals *tot,
                       const char *output, int exit_code, struct xu_log *log)
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
    fprintf(f, ",\n  \"guest_type\": \"%s\",\n  \"backend\": ", meta->guest_type ? meta->guest_type : "unknown");
    json_string(f, meta->backend);
    fprintf(f, ",\n  \"elf\": ");
    json_string(f, meta->elf_path);
    fprintf(f, ",\n  \"output\": ");
    json_string(f, output);
    fprintf(f, ",\n  \"frequency_hz\": %.3f,\n  \"duration_s\": %.6f,\n", meta->frequency_hz,
            st->elapsed_s);
    fprintf(f, "  \"vcpus\": %u,\n  \"ticks\": %" PRIu64 ",\n  \"samples\": %" PRIu64 ",\n",
            st->vcpus, st->ticks, st->samples);
    fprintf(f, "  \"missed_deadlines\": %" PRIu64 ",\n  \"regs_failures\": %" PRIu64 ",\n",
            st->missed_deadlines, st->regs_failures);
    fprintf(f, "  \"distinct_stacks\": %" PRIu64 ",\n  \"dropped_samples\": %" PRIu64 ",\n",
            tot->stacks, tot->dropped);
    fprintf(f, "  \"walks\": {");
    for (i = 0; i < XU_WALK__COUNT; i++)
        fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", xu_walk_end_name((enum xu_walk_end)i),
                tot->by_end[i]);
    fprintf(f, "},\n  \"paused_ns\": {\"min\": %" PRIu64 ", \"median\": %" PRIu64
            ", \"p99\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": %.0f},\n",
            st->paused_ns.min, xu_hist_quantile(&st->paused_ns, 0.5),
            xu_hist_quantile(&st->paused_ns, 0.99), st->paused_ns.max,
            st->paused_ns.count ? (double)st->paused_ns.sum / (double)st->paused_ns.count : 0.0);
    fprintf(f, "  \"stop_reason\": \"%s\",\n  \"exit_code\": %d\n}\n",
            xu_stop_reason_name(st->reason), exit_code);
    rc = xu_atomic_commit(af);
    if (rc < 0)
        xu_error(log, "--stats: cannot write %s: %s", path, strerror(-rc));
    return rc;
}

/* ---- the job ---- */

/* Exit code for a domain directory error (the directory logged why). */
static int exit_for_domdir_error(int rc)
{
    switch (rc) {
    case -ESRCH:
    case -EPERM:
    case -EINVAL:
        return XU_EXIT_NO_DOMAIN;
    case -EACCES:
    case -ENOENT:
    case -ECONNREFUSED:
        return XU_EXIT_PRIVILEGE;
    case -ENOTSUP:
        return XU_EXIT_USAGE;
    default:
        return XU_EXIT_FAILURE;
    }
}

/* Find the domain (or create it): fills entry; returns an exit code. */
static int find_domain(const struct xu_options *o, struct xu_domdir *dir,
                       struct xu_domain_entry *entry, int *created, struct xu_log *log)
{
    char id[16];
    int rc;

    *created = 0;
    if (o->create) {
        rc = xu_domdir_create_paused(dir, o->create, &entry->domid);
        if (rc < 0)
            return rc == -ENOTSUP ? XU_EXIT_USAGE : XU_EXIT_FAILURE;
        *created = 1;
        snprintf(id, sizeof(id), "%" PRIu32, entry->domid);
        if (xu_domdir_resolve(dir, id, entry) < 0)
            entry->name[0] = '\0';
        xu_info(log, "created domain %" PRIu32 " (%s) from %s, paused", entry->domid,
                entry->name, o->create);
        return XU_EXIT_OK;
    }
    rc = xu_domdir_resolve(dir, o->domain, entry);
    return rc < 0 ? exit_for_domdir_error(rc) : XU_EXIT_OK;
}

/*
 * Find the symbol ELF: --elf, or from the domain's kernel.  Without one,
 * only the raw format (addresses, symbolised later) can be written.
 */
static int find_symbols(const struct xu_options *o, struct xu_domdir *dir, uint32_t domid,
                        const struct xu_output_ops *fmt, struct xu_elf_choice *choice,
                        struct xu_log *log)
{
    struct xu_elf_find_config cfg = { .elf = o->elf };
    char *kernel = NULL;
    int rc, ec = XU_EXIT_OK;

    if (!o->elf && xu_domdir_kernel_path(dir, domid, &kernel) == 0)
        cfg.kernel = kernel;
    if (!cfg.elf && !cfg.kernel) {
        if (fmt == &xu_output_raw)
            goto out;
        xu_error(log, "cannot tell which kernel domain %" PRIu32 " runs (%s knows no kernel "
                 "path for it): pass the unstripped ELF with -e/--elf, or write -f raw and "
                 "symbolise later with 'xen-uniprof convert'", domid, xu_domdir_name(dir));
        ec = XU_EXIT_SYMBOLS;
        goto out;
    }
    rc = xu_elf_find(&cfg, log, choice);
    if (rc < 0) {
        if (fmt != &xu_output_raw)
            ec = XU_EXIT_SYMBOLS;
        goto out;
    }
    xu_info(log, "symbols: %s (%s)", choice->path, choice->reason);
out:
    free(kernel);
    return ec;
}

/* Loud, because every symbol in the profile would be wrong. */
static void check_elf_matches(const char *path, struct xu_target *t, struct xu_mem *m,
                              struct xu_pause *pause, struct xu_log *log)
{
    struct xu_elf_match match;

    if (xu_elf_match_guest(path, t, m, pause, log, &match) < 0)
        return;
    switch (match.verdict) {
    case XU_ELF_MISMATCH:
        xu_warn(log, "**************************************************************");
        xu_warn(log, "%s does NOT match the kernel running in domain %" PRIu32 "%s "
                "(%" PRIu64 " of %" PRIu64 " bytes equal, first difference at 0x%" PRIx64 "): "
                "the profile's function names will be wrong", path, t->domid,
                match.build_id_checked && !match.build_id_equal ? ", build-id differs" : "",
                match.equal_bytes, match.bytes, match.first_diff_va);
        xu_warn(log, "**************************************************************");
        break;
    case XU_ELF_MATCH:
        xu_debug(log, "%s matches the running kernel (%u chunks compared%s)", path,
                 match.chunks, match.build_id_checked ? ", build-id equal" : "");
        break;
    case XU_ELF_UNKNOWN:
        xu_info(log, "could not check that %s is the running kernel (its text is not mapped "
                "where the ELF says)", path);
        break;
    }
}

/*
 * The unwinder for --unwind.  auto: CFI from the symbol ELF where it has
 * some, else plain frame pointers; cfi: CFI or an error.  *table is what
 * the unwinder needs as its context (freed by the caller).
 */
static int choose_unwinder(const struct xu_options *o, const char *elf_path,
                           struct xu_sampler_config *cfg, void **table, struct xu_log *log)
{
    *table = NULL;
    cfg->unwinder = &xu_unwind_fp_ops;
    cfg->unwinder_ctx = NULL;
    if (o->unwind == XU_UNWIND_FP)
        return XU_EXIT_OK;
#ifdef HAVE_LIBDW
    {
        struct xu_cfi_table *cfi = NULL;
        struct xu_cfi_stats cst;
        int rc = elf_path ? xu_cfi_open(elf_path, NULL, log, &cfi) : -ENODATA;

        if (rc < 0) {
            if (o->unwind == XU_UNWIND_CFI) {
                xu_error(log, "--unwind=cfi: %s has no usable DWARF CFI (.eh_frame or "
                         ".debug_frame): %s", elf_path ? elf_path : "no ELF", strerror(-rc));
                return XU_EXIT_SYMBOLS;
            }
            xu_debug(log, "no CFI in %s (%s): unwinding with frame pointers",
                     elf_path ? elf_path : "no ELF", strerror(-rc));
            return XU_EXIT_OK;
        }
        xu_cfi_get_stats(cfi, &cst);
        xu_info(log, "unwinding with DWARF CFI (%zu FDEs, %zu rows)%s", cst.fdes, cst.rows,
                o->unwind == XU_UNWIND_AUTO ? ", frame pointers where it has none" : "");
        cfg->unwinder = o->unwind == XU_UNWIND_CFI ? &xu_unwind_cfi_ops : &xu_unwind_auto_ops;
        cfg->unwinder_ctx = cfi;
        *table = cfi;
        return XU_EXIT_OK;
    }
#else
    if (o->unwind == XU_UNWIND_CFI) {
        xu_error(log, "--unwind=cfi: this build has no DWARF support (configure found no libdw)");
        return XU_EXIT_USAGE;
    }
    return XU_EXIT_OK;
#endif
}

static void free_unwind_table(void *table)
{
#ifdef HAVE_LIBDW
    xu_cfi_free(table);
#endif
}

int xu_record(const struct xu_options *o)
{
    struct xu_log log;
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
    struct progress pr = { 0 };
    uint64_t *addrs = NULL;
    void *unwind_table = NULL;
    char *out_path = NULL, top_text[160] = "";
    char top[128];
    const char *label;
    double share;
    long nr_addrs;
    int rc, ec, target_open = 0, created = 0, created_paused = 0;

    xu_cli_log_init(&log, XU_LOG_INFO, o->verbose, o->quiet);
    xu_elf_choice_init(&elf);
    memset(&st, 0, sizeof(st));
    install_signals();

    backend = xu_target_backend(o->backend);
    if (!backend) {
        if (o->backend)
            xu_error(&log, "--backend: unknown backend '%s' (this build has: %s)", o->backend,
                     xu_target_backend_names());
        else
            xu_error(&log, "this build has no Xen backend (configured --with-backend=none); "
                     "only 'xen-uniprof convert' works");
        ec = XU_EXIT_USAGE;
        goto out;
    }

    rc = xu_domdir_open(&dir, o->create ? XU_DOMDIR_NEED_PLUGIN : 0, &log);
    if (rc < 0) {
        ec = exit_for_domdir_error(rc);
        goto out;
    }
    ec = find_domain(o, dir, &entry, &created, &log);
    if (ec != XU_EXIT_OK)
        goto out;
    created_paused = created;
    label = entry.name[0] ? entry.name : o->domain ? o->domain : "domain";

    ec = choose_output(o, label, &fmt, &out_path, &log);
    if (ec != XU_EXIT_OK)
        goto out;
    /* Symbols and unwind tables before the guest is touched: a stripped
     * ELF fails fast. */
    ec = find_symbols(o, dir, entry.domid, fmt, &elf, &log);
    if (ec != XU_EXIT_OK)
        goto out;
    ec = choose_unwinder(o, elf.path, &cfg, &unwind_table, &log);
    if (ec != XU_EXIT_OK)
        goto out;

    /*
     * Before the guest can be paused by us, a guardian watches: it unpauses
     * the guest if we die.  Forked before we open our own Xen handles, so
     * that it inherits none of them (it opens its own).
     */
    rc = xu_guardian_start(&guardian, backend, entry.domid, &pause_state, &log);
    if (rc < 0) {
        /* A Xen version mismatch is found by the guardian's own open, which
         * already wrote the one line that says what to do. */
        if (rc != -EPROTO)
            xu_error(&log, "cannot start the guardian process that unpauses the guest if "
                     "xen-uniprof dies: %s", strerror(-rc));
        ec = exit_for_target_error(rc);
        goto out;
    }
    rc = xu_pause_new(&pause, &target, pause_state, &log);
    if (rc < 0) {
        xu_error(&log, "out of memory");
        ec = XU_EXIT_FAILURE;
        goto out;
    }
    if (created_paused)
        xu_pause_adopt(pause);      /* the creation pause is ours to undo */

    rc = xu_target_open(&target, backend, entry.domid, &log);
    if (rc < 0) {
        ec = exit_for_target_error(rc);
        goto out;
    }
    target_open = 1;
    rc = xu_target_info(&target, &info);
    if (rc < 0) {
        if (rc == -ESRCH)
            xu_error(&log, "domain %" PRIu32 " is gone", entry.domid);
        ec = exit_for_target_error(rc);
        goto out;
    }

    mem = xu_mem_new(&target, NULL);
    profile = xu_profile_new(0);
    if (!mem || !profile) {
        xu_error(&log, "out of memory");
        ec = XU_EXIT_FAILURE;
        goto out;
    }
    if (elf.path)
        check_elf_matches(elf.path, &target, mem, pause, &log);

    cfg.frequency_hz = o->frequency;
    cfg.duration_s = o->duration;
    cfg.max_samples = o->samples;
    cfg.max_depth = o->max_depth;
    cfg.stop = &stop_requested;
    cfg.pause = pause;
    if (!o->quiet && isatty(STDERR_FILENO)) {
        pr.duration = o->duration;
        cfg.progress = show_progress;
        cfg.progress_ctx = &pr;
        cfg.progress_interval_s = 0.5;
    }

    xu_info(&log, "profiling domain %" PRIu32 " (%s, %s, %u vCPU%s) at %g Hz with the %s "
            "backend%s", entry.domid, label, xu_guest_type_name(info.type),
            info.max_vcpu_id + 1, info.max_vcpu_id ? "s" : "", o->frequency, backend->name,
            o->duration > 0 ? "" : "; Ctrl-C to stop");
    meta.start_time = time(NULL);
    if (created_paused) {
        /* Sampling starts with the guest's first instruction: the first
         * tick's pause lands before the vCPU has run for long. */
        created_paused = 0;
        rc = xu_pause_release(pause);
        if (rc < 0) {
            /* logged with the command that starts it by hand */
            ec = XU_EXIT_FAILURE;
            goto out;
        }
    }
    rc = xu_sampler_run(&target, mem, profile, &cfg, &st);
    if (pr.active)
        fputs("\r\033[K", stderr);
    if (rc < 0) {
        /* An unpause that failed for good was reported where it failed. */
        if (!st.left_paused)
            xu_error(&log, "sampling failed after %" PRIu64 " samples: %s", st.samples,
                     strerror(-rc));
        ec = exit_for_target_error(rc);
        if (ec == XU_EXIT_NO_DOMAIN)
            ec = XU_EXIT_FAILURE;
    } else {
        ec = XU_EXIT_OK;
    }
    if (st.reason == XU_STOP_DOMAIN_SHUTDOWN || st.reason == XU_STOP_DOMAIN_GONE) {
        if (created) {
            xu_info(&log, "the domain %s after %.2f s", st.reason == XU_STOP_DOMAIN_GONE ?
                    "was destroyed" : "shut down", st.elapsed_s);
        } else {
            xu_warn(&log, "the domain %s after %.2f s; writing the %" PRIu64 " samples taken",
                    st.reason == XU_STOP_DOMAIN_GONE ? "was destroyed" : "shut down",
                    st.elapsed_s, st.samples);
            ec = XU_EXIT_DOMAIN_ENDED;
        }
    }
    if (stop_requested)
        xu_info(&log, "stopped by signal %d", (int)stop_requested);

    /* The guest runs on its own again: release everything Xen-side. */
    xu_pause_free(pause);
    pause = NULL;
    xu_guardian_stop(guardian);
    guardian = NULL;
    xu_mem_free(mem);   /* mappings belong to the target: before detaching */
    mem = NULL;
    xu_target_close(&target);
    target_open = 0;
    if (created && o->destroy) {
        if (xu_domdir_destroy(dir, entry.domid) == 0)
            xu_info(&log, "destroyed domain %" PRIu32, entry.domid);
        created = 0;
    }

    xu_profile_get_totals(profile, &tot);
    if (tot.samples == 0) {
        xu_error(&log, "no samples were taken (%s)", xu_stop_reason_name(st.reason));
        if (ec == XU_EXIT_OK || ec == XU_EXIT_DOMAIN_ENDED)
            ec = XU_EXIT_FAILURE;
        goto out;
    }

    /* Symbolise: each distinct address once, with the guest running. */
    nr_addrs = xu_profile_unique_addrs(profile, &addrs);
    if (nr_addrs < 0 || !(sz = xu_symbolizer_new(elf.symtab, addrs, (size_t)nr_addrs))) {
        xu_error(&log, "out of memory");
        ec = XU_EXIT_FAILURE;
        goto out;
    }

    meta.domid = entry.domid;
    meta.domain_name = label;
    meta.backend = backend->name;
    meta.elf_path = elf.path;
    meta.guest_type = xu_guest_type_name(info.type);
    meta.frequency_hz = o->frequency;
    meta.duration_s = st.elapsed_s;
    oopts = o->render;
    memset(&octx, 0, sizeof(octx));
    octx.profile = profile;
    octx.syms = sz;
    octx.meta = &meta;
    octx.opts = &oopts;
    octx.log = &log;
    octx.symtab = elf.symtab;
    rc = xu_output_write_path(fmt, out_path, &octx);
    if (rc < 0) {
        ec = XU_EXIT_FAILURE;
        goto out;
    }

    if (xu_output_top_function(&octx, top, sizeof(top), &share) > 0)
        snprintf(top_text, sizeof(top_text), ", top: %s (%.1f%%)", top, share);
    xu_info(&log, "%" PRIu64 " samples in %.2f s (%.1f/s), %" PRIu64 " missed deadlines, "
            "paused median %.1f us p99 %.1f us, %.1f%% complete stacks%s -> %s",
            tot.samples, st.elapsed_s, st.elapsed_s > 0 ? (double)st.ticks / st.elapsed_s : 0.0,
            st.missed_deadlines, (double)xu_hist_quantile(&st.paused_ns, 0.5) / 1e3,
            (double)xu_hist_quantile(&st.paused_ns, 0.99) / 1e3,
            100.0 * (double)tot.by_end[XU_WALK_COMPLETE] / (double)tot.samples,
            top_text, strcmp(out_path, "-") == 0 ? "stdout" : out_path);
    if (o->stats && write_stats(o->stats, &meta, &st, &tot, out_path, ec, &log) < 0 &&
        ec == XU_EXIT_OK)
        ec = XU_EXIT_FAILURE;

out:
    /* Gives back a pause still held (the creation's, on an early failure);
     * a failure leaves the word PAUSED for the guardian. */
    xu_pause_free(pause);
    xu_guardian_stop(guardian);
    xu_mem_free(mem);
    if (target_open)
        xu_target_close(&target);
    if (created && o->destroy)
        xu_domdir_destroy(dir, entry.domid);
    xu_domdir_close(dir);
    xu_symbolizer_free(sz);
    free(addrs);
    xu_profile_free(profile);
    xu_elf_choice_dispose(&elf);
    free_unwind_table(unwind_table);
    free(out_path);
    return ec;
}
