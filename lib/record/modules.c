/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * modules.c - a Linux guest's loaded modules, named in the ELF's symbol
 * table (xu_linux_modules.h): the layout from the image before sampling
 * (read with the task layout, xu_linux_image.h),
 * the list read once, with the guest running (see record_priv.h).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "record/record_priv.h"
#include "mem/xu_mem.h"
#include "symbols/xu_linux_image.h"
#include "symbols/xu_symbols.h"
#include "target/xu_pause.h"
#include "unwind/xu_orc.h"

void xu_record_linux_image(const struct xu_elf_choice *elf, const struct xu_arch_ops *arch,
                           struct xu_linux_image *out)
{
    if (elf->path && arch && arch->elf_machine == EM_X86_64) {
        xu_linux_image_open(elf->path, out);
        return;
    }
    memset(out, 0, sizeof(*out));
    out->task_rc = out->modules_rc = -ENOTSUP;
    snprintf(out->task_err, sizeof(out->task_err), "not an x86-64 kernel file");
    snprintf(out->modules_err, sizeof(out->modules_err), "not an x86-64 kernel file");
}

bool xu_record_module_layout(const struct xu_elf_choice *elf, const struct xu_linux_image *img,
                             int64_t slide, struct xu_linux_module_layout *l, struct xu_log *log)
{
    if (!elf->symtab || img->modules_rc == -ENOTSUP)
        return false;
    if (img->modules_rc < 0) {
        if (img->modules_rc == -ENOENT)
            xu_info(log, "kernel modules are not named: %s", img->modules_err);
        else
            xu_debug(log, "no Linux module layout in %s: %s", xu_elf_choice_name(elf),
                     img->modules_err);
        return false;
    }
    *l = img->modules;
    l->modules += (uint64_t)slide;
    return true;
}

struct read_job {
    const struct xu_linux_module_layout *l;
    struct xu_symtab *symtab, *mods;
    struct xu_orc_table *orc;
    struct xu_linux_modules_stats st;
};

static int read_names(struct xu_mem *m, void *ctx)
{
    struct read_job *j = ctx;

    return xu_linux_modules_read(m, j->l, xu_symtab_machine(j->symtab), &j->mods, &j->st);
}

static int read_orc(struct xu_mem *m, void *ctx)
{
    struct read_job *j = ctx;

    return xu_linux_modules_read_orc(m, j->l, j->orc, &j->st);
}

static void names(struct xu_mem *m, struct xu_vcpu_regs *regs, struct read_job *j,
                  struct xu_log *log)
{
    const struct xu_linux_modules_stats *st = &j->st;
    int rc = xu_record_read_through(m, regs, read_names, j);

    if (rc < 0) {
        xu_info(log, "kernel modules are not named: the module list at %#" PRIx64 " cannot "
                "be read (%s)", j->l->modules, strerror(-rc));
        return;
    }
    xu_symtab_chain(j->symtab, j->mods);
    xu_info(log, "modules: %u loaded module%s named from the guest's module list (%zu "
            "function symbols; %u without symbols, named [module NAME]; %u skipped)%s%s",
            st->modules, st->modules == 1 ? "" : "s", st->symbols, st->without_symbols,
            st->skipped, st->stopped ? "; the walk stopped at " : "",
            st->stopped ? st->stopped : "");
}

static void orc_tables(struct xu_mem *m, struct xu_vcpu_regs *regs, struct read_job *j,
                       struct xu_log *log)
{
    const struct xu_linux_modules_stats *st = &j->st;
    int rc;

    if (!j->l->has_orc) {
        xu_info(log, "walks end in module code: the kernel's BTF has no ORC tables in "
                "struct module");
        return;
    }
    rc = xu_record_read_through(m, regs, read_orc, j);
    if (rc < 0) {
        xu_info(log, "walks end in module code: the module list at %#" PRIx64 " cannot be "
                "read (%s)", j->l->modules, strerror(-rc));
        return;
    }
    xu_info(log, "modules: walks continue through %u of %u loaded modules' code (their own "
            "ORC tables, %zu entries)%s%s", st->orc_modules, st->modules, st->orc_entries,
            st->stopped ? "; the walk of the list stopped at " : "",
            st->stopped ? st->stopped : "");
}

void xu_record_read_modules(struct xu_target *t, struct xu_mem *m, struct xu_pause *pause,
                            unsigned int nvcpus, const struct xu_linux_module_layout *l,
                            struct xu_symtab *symtab, struct xu_orc_table *orc,
                            struct xu_log *log)
{
    struct read_job j = { .l = l, .symtab = symtab, .orc = orc };
    struct xu_vcpu_regs regs;

    if (!xu_record_kernel_context(t, pause, nvcpus, &regs)) {
        xu_info(log, "kernel modules are not read: no vCPU's page tables to read them through");
        return;
    }
    /*
     * Read with the guest running: hundreds of reads (every module's
     * symbols) would stretch a pause the guest would feel, and a module
     * that comes or goes meanwhile costs at worst its own names or tables
     * (every read is bounded: xu_linux_modules.h).
     */
    if (symtab)
        names(m, &regs, &j, log);
    if (orc)
        orc_tables(m, &regs, &j, log);
}
