/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * choose.c - the record run's choices before the guest is touched: the
 * output format and path, the symbol ELF, the unwinder.  Each returns a
 * result and has logged why when it is not XU_RECORD_OK.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/xu_arch.h"
#include "record/record_priv.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif
#include "unwind/xu_ehabi.h"
#include "unwind/xu_orc.h"

static void list_formats(char *buf, size_t len)
{
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; xu_output_formats[i] && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 xu_output_formats[i]->name);
}

enum xu_record_result xu_record_choose_output(const struct xu_record_config *job,
                                              const char *domain_label,
                                              const struct xu_output_ops **ops, char **path,
                                              struct xu_log *log)
{
    char names[256];
    const char *ext;

    *path = NULL;
    if (job->format) {
        *ops = xu_output_find(job->format);
        if (!*ops) {
            list_formats(names, sizeof(names));
            xu_error(log, "-f/--format: unknown format '%s' (known: %s)", job->format, names);
            return XU_RECORD_USAGE;
        }
    } else if (job->output && strcmp(job->output, "-") == 0) {
        *ops = &xu_output_folded;
    } else if (job->output) {
        *ops = xu_output_for_path(job->output);
        if (!*ops) {
            list_formats(names, sizeof(names));
            xu_error(log, "-o/--output: cannot tell the format of '%s' from its extension; "
                     "add -f FORMAT (known: %s)", job->output, names);
            return XU_RECORD_USAGE;
        }
    } else {
        *ops = xu_output_default();
    }

    if (job->output) {
        *path = strdup(job->output);
    } else {
        ext = (*ops)->extensions;
        size_t n = strcspn(ext, " ");
        if (asprintf(path, "%s%.*s", domain_label, (int)n, ext) < 0)
            *path = NULL;
    }
    if (!*path) {
        xu_error(log, "out of memory");
        return XU_RECORD_FAILURE;
    }
    return XU_RECORD_OK;
}

/*
 * Find the symbol ELF: --elf, or from the domain's kernel.  Without a
 * kernel file (*from_memory: a config with no kernel path, an HVM guest
 * booted from its disk; or one whose file is gone, pygrub's copy deleted
 * once the domain was built), the caller reads the running kernel's own
 * image from the guest's memory once the target is open, or writes the raw
 * format (addresses, symbolised later).
 */
enum xu_record_result xu_record_find_symbols(const struct xu_record_config *job,
                                             struct xu_domdir *dir, uint32_t domid,
                                             const struct xu_output_ops *fmt,
                                             struct xu_elf_choice *choice, bool *from_memory,
                                             struct xu_log *log)
{
    /*
     * The guest's architecture is known only once its target is open (a
     * 32-bit guest on a 64-bit Xen is read by the 32-bit rules): any
     * machine is taken here, and the record path refuses an ELF that is
     * not the opened guest's.
     */
    struct xu_elf_find_config cfg = { .elf = job->elf, .any_machine = true };
    char *kernel = NULL;
    enum xu_record_result ec = XU_RECORD_OK;
    int rc;

    *from_memory = false;
    if (!job->elf && xu_domdir_kernel_path(dir, domid, &kernel) == 0)
        cfg.kernel = kernel;
    if (!cfg.elf && (!cfg.kernel || access(cfg.kernel, F_OK) != 0)) {
        if (cfg.kernel)
            xu_info(log, "domain %" PRIu32 "'s kernel %s is gone (a bootloader's copy, "
                    "deleted once the domain was built?)", domid, cfg.kernel);
        else
            xu_debug(log, "%s knows no kernel path for domain %" PRIu32 " (booted from its "
                     "disk?)", xu_domdir_name(dir), domid);
        *from_memory = true;
        goto out;
    }
    rc = xu_elf_find(&cfg, log, choice);
    if (rc < 0) {
        if (fmt != &xu_output_raw)
            ec = XU_RECORD_SYMBOLS;
        goto out;
    }
    xu_info(log, "symbols: %s (%s)", choice->shown ? choice->shown : choice->path, choice->reason);
out:
    free(kernel);
    return ec;
}

enum xu_record_result xu_record_check_elf_machine(const struct xu_elf_choice *elf,
                                                  struct xu_target *t, struct xu_log *log)
{
    if (!elf->symtab || !t->arch || xu_symtab_machine(elf->symtab) == t->arch->elf_machine)
        return XU_RECORD_OK;
    /* A 64-bit kernel whose vCPU is not in long mode yet (an HVM guest created
     * paused, or still booting): its own width; samples taken before it is in
     * long mode keep only their IP ("not in long mode"). */
    if (t->arch == &xu_arch_x86_32 && xu_symtab_machine(elf->symtab) == EM_X86_64) {
        xu_info(log, "domain %" PRIu32 "'s vCPU is not in long mode yet: read as the x86_64 "
                "kernel %s is", t->domid, xu_elf_choice_name(elf));
        t->arch = &xu_arch_x86_64;
        return XU_RECORD_OK;
    }
    xu_error(log, "%s is an ELF file for e_machine %u, but domain %" PRIu32 " runs a %s guest: "
             "pass its own kernel with -e/--elf", xu_elf_choice_name(elf),
             xu_symtab_machine(elf->symtab), t->domid, t->arch->name);
    return XU_RECORD_SYMBOLS;
}

static const struct {
    const char *name;
    enum xu_unwind_choice choice;
} unwind_names[] = {
    { "auto", XU_UNWIND_AUTO },
    { "fp", XU_UNWIND_FP },
    { "cfi", XU_UNWIND_CFI },
    { "orc", XU_UNWIND_ORC },
    { "ehabi", XU_UNWIND_EHABI },
};

int xu_record_unwind_parse(const char *name, enum xu_unwind_choice *out)
{
    size_t i;

    for (i = 0; i < sizeof(unwind_names) / sizeof(unwind_names[0]); i++) {
        if (strcmp(name, unwind_names[i].name) == 0) {
            *out = unwind_names[i].choice;
            return 0;
        }
    }
    return -1;
}

/* The tables the chosen unwinder reads, behind record_priv.h's void *. */
struct unwind_tables {
#ifdef HAVE_LIBDW
    struct xu_cfi_table *cfi;
#endif
    struct xu_orc_table *orc;
    struct xu_ehabi_table *ehabi;
};

/*
 * orc, or auto: the kernel's ORC tables when the symbol ELF has them.
 * XU_RECORD_OK with t->orc NULL when auto should look further.
 */
static enum xu_record_result choose_orc(const struct xu_record_config *job,
                                        const struct xu_elf_choice *elf,
                                        struct xu_sampler_config *cfg,
                                        struct unwind_tables *t, struct xu_log *log)
{
    const char *name = elf->path ? xu_elf_choice_name(elf) : "no ELF";
    struct xu_orc_stats st;
    int rc = elf->path ? xu_orc_open(elf->path, log, &t->orc) : -ENODATA;

    if (rc < 0) {
        if (job->unwind == XU_UNWIND_ORC) {
            xu_error(log, "--unwind=orc: %s has no usable ORC tables: %s", name,
                     xu_orc_strerror(rc));
            return XU_RECORD_SYMBOLS;
        }
        /* most ELFs have none: only tables that are there but unusable are news */
        if (rc != -ENODATA && rc != -ENOEXEC)
            xu_warn(log, "the ORC tables of %s are not used (%s)", name,
                    xu_orc_strerror(rc));
        return XU_RECORD_OK;
    }
    xu_orc_get_stats(t->orc, &st);
    xu_info(log, "unwinding with the kernel's ORC tables (%zu entries, layout %s, from %s)",
            st.raw_entries, xu_orc_layout_name(st.layout),
            st.source == XU_ORC_FROM_HEADER ? "its .orc_header" :
            st.source == XU_ORC_FROM_VERSION ? "its version" : "its entries");
    cfg->unwinder = &xu_unwind_orc_ops;
    return XU_RECORD_OK;
}

/* cfi, or auto without ORC: CFI from the symbol ELF where it has some
 * (auto: frame pointers where it has none); CFI or an error (cfi).
 * XU_RECORD_OK with t->cfi NULL and *why set when auto should look
 * further. */
static enum xu_record_result choose_cfi(const struct xu_record_config *job,
                                        const struct xu_elf_choice *elf,
                                        struct xu_sampler_config *cfg,
                                        struct unwind_tables *t, const char **why,
                                        struct xu_log *log)
{
#ifdef HAVE_LIBDW
    const char *name = elf->path ? xu_elf_choice_name(elf) : "no ELF";
    struct xu_cfi_stats cst;
    int rc = elf->path ? xu_cfi_open(elf->path, NULL, log, &t->cfi) : -ENODATA;

    if (rc < 0) {
        if (job->unwind == XU_UNWIND_CFI) {
            xu_error(log, "--unwind=cfi: %s has no usable DWARF CFI: %s", name,
                     xu_cfi_strerror(rc));
            return XU_RECORD_SYMBOLS;
        }
        *why = xu_cfi_strerror(rc);
        return XU_RECORD_OK;
    }
    xu_cfi_get_stats(t->cfi, &cst);
    xu_info(log, "unwinding with DWARF CFI (%zu FDEs, %zu rows)%s", cst.fdes, cst.rows,
            job->unwind == XU_UNWIND_AUTO ? ", frame pointers where it has none" : "");
    cfg->unwinder = job->unwind == XU_UNWIND_CFI ? &xu_unwind_cfi_ops : &xu_unwind_auto_ops;
    return XU_RECORD_OK;
#else
    (void)elf;
    (void)cfg;
    (void)t;
    if (job->unwind == XU_UNWIND_CFI) {
        xu_error(log, "--unwind=cfi: this build has no DWARF support (configure found no libdw)");
        return XU_RECORD_USAGE;
    }
    *why = "this build has no DWARF support";
    return XU_RECORD_OK;
#endif
}

/*
 * ehabi, or auto without ORC or CFI: an AArch32 ELF's ARM EHABI tables
 * (.ARM.exidx, .ARM.extab), or an error (ehabi).  XU_RECORD_OK with
 * t->ehabi NULL when auto should fall back to frame pointers: most ELFs
 * have none (no section, or not an ARM ELF), and only tables that are
 * there but unusable are news.
 */
static enum xu_record_result choose_ehabi(const struct xu_record_config *job,
                                          const struct xu_elf_choice *elf,
                                          struct xu_sampler_config *cfg,
                                          struct unwind_tables *t, struct xu_log *log)
{
    const char *name = elf->path ? xu_elf_choice_name(elf) : "no ELF";
    struct xu_ehabi_stats st;
    int rc = elf->path ? xu_ehabi_open(elf->path, log, &t->ehabi) : -ENODATA;

    if (rc < 0) {
        t->ehabi = NULL;
        if (job->unwind == XU_UNWIND_EHABI) {
            xu_error(log, "--unwind=ehabi: %s has no usable ARM EHABI tables: %s", name,
                     xu_ehabi_strerror(rc));
            return XU_RECORD_SYMBOLS;
        }
        if (rc != -ENODATA && rc != -ENOEXEC)
            xu_warn(log, "the ARM EHABI tables of %s are not used (%s)", name,
                    xu_ehabi_strerror(rc));
        return XU_RECORD_OK;
    }
    xu_ehabi_get_stats(t->ehabi, &st);
    xu_info(log, "unwinding with the ARM EHABI tables (%zu entries, %zu marked "
            "cannot-unwind, %zu unreadable)", st.entries, st.cantunwind, st.bad);
    cfg->unwinder = &xu_unwind_ehabi_ops;
    return XU_RECORD_OK;
}

/*
 * The unwinder for --unwind.  auto: the kernel's ORC tables where the
 * symbol ELF has them, else DWARF CFI where it has some (.eh_frame or
 * .debug_frame: exact where it covers the PC, frame pointers elsewhere),
 * else an AArch32 ELF's EHABI tables (what a build without frame pointers
 * or debug information still carries), else plain frame pointers; orc,
 * cfi and ehabi: those tables or an error.  *table holds the tables for
 * the unwinder's env (xu_record_apply_unwind_table(), freed by the
 * caller).
 */
enum xu_record_result xu_record_choose_unwinder(const struct xu_record_config *job,
                                                const struct xu_elf_choice *elf,
                                                struct xu_sampler_config *cfg, void **table,
                                                struct xu_log *log)
{
    struct unwind_tables *t;
    enum xu_record_result ec;
    const char *no_cfi = NULL;

    *table = NULL;
    cfg->unwinder = &xu_unwind_fp_ops;
    if (job->unwind == XU_UNWIND_FP)
        return XU_RECORD_OK;
    t = calloc(1, sizeof(*t));
    if (!t) {
        xu_error(log, "out of memory");
        return XU_RECORD_FAILURE;
    }
    *table = t;
    if (job->unwind == XU_UNWIND_ORC || job->unwind == XU_UNWIND_AUTO) {
        ec = choose_orc(job, elf, cfg, t, log);
        if (ec != XU_RECORD_OK || t->orc || job->unwind == XU_UNWIND_ORC)
            return ec;
    }
    if (job->unwind == XU_UNWIND_CFI || job->unwind == XU_UNWIND_AUTO) {
        ec = choose_cfi(job, elf, cfg, t, &no_cfi, log);
        if (ec != XU_RECORD_OK || job->unwind == XU_UNWIND_CFI || !no_cfi)
            return ec;
    }
    ec = choose_ehabi(job, elf, cfg, t, log);
    if (ec == XU_RECORD_OK && !t->ehabi)
        xu_info(log, "note: no DWARF CFI in %s (%s): unwinding with frame pointers",
                elf->path ? xu_elf_choice_name(elf) : "no ELF", no_cfi);
    return ec;
}

void xu_record_apply_unwind_table(const void *table, struct xu_unwind_env *env)
{
    const struct unwind_tables *t = table;

#ifdef HAVE_LIBDW
    env->cfi = t ? t->cfi : NULL;
#endif
    env->orc = t ? t->orc : NULL;
    env->ehabi = t ? t->ehabi : NULL;
}

struct xu_orc_table *xu_record_unwind_orc(void *table)
{
    struct unwind_tables *t = table;

    return t ? t->orc : NULL;
}

int xu_record_relocate_unwind_table(void *table, int64_t slide)
{
    struct unwind_tables *t = table;

    if (!t || slide == 0)
        return 0;
#ifdef HAVE_LIBDW
    /* a CFI table is built for one load address (xu_cfi_config.bias) */
    if (t->cfi)
        return -EOPNOTSUPP;
#endif
    return xu_orc_relocate(t->orc, slide);
}

void xu_record_free_unwind_table(void *table)
{
    struct unwind_tables *t = table;

    if (!t)
        return;
#ifdef HAVE_LIBDW
    xu_cfi_free(t->cfi);
#endif
    xu_orc_free(t->orc);
    xu_ehabi_free(t->ehabi);
    free(t);
}

/* A backend's open/info failure as a result (the backend logged why). */
enum xu_record_result xu_record_result_for_target_error(int rc)
{
    switch (rc) {
    case -ESRCH:
        return XU_RECORD_NO_DOMAIN;
    case -EACCES:
    case -EPERM:
    case -ENOENT:
    case -ENODEV:
        return XU_RECORD_PRIVILEGE;
    case -EPROTO:
        return XU_RECORD_XEN_MISMATCH;
    default:
        return XU_RECORD_FAILURE;
    }
}

/* A domain directory error as a result (the directory logged why). */
enum xu_record_result xu_record_result_for_domdir_error(int rc)
{
    switch (rc) {
    case -ESRCH:
    case -EPERM:
    case -EINVAL:
        return XU_RECORD_NO_DOMAIN;
    case -EACCES:
    case -ENOENT:
    case -ECONNREFUSED:
        return XU_RECORD_PRIVILEGE;
    case -ENOTSUP:
        return XU_RECORD_USAGE;
    default:
        return XU_RECORD_FAILURE;
    }
}
