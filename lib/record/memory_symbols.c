// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory_symbols.c - a domain's symbols from the running kernel's image in
 * its memory, when dom0 has no kernel file for it (see record_priv.h).
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
#include "mem/xu_mem.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_linux_memory_image.h"

struct image_job {
    uint64_t anchor;
    int fd;
    char *path;
    struct xu_linux_memory_image img;
    char err[200];
};

/* No kallsyms where a user-mode vCPU's page tables lead is what page-table
 * isolation leaves (they map the entry code alone): -ENOENT, for the kernel's
 * half to be tried (xu_record_read_through()). */
static int read_image(struct xu_mem *m, void *ctx)
{
    struct image_job *j = ctx;
    int rc = xu_linux_memory_image_read(m, j->anchor, &j->fd, &j->path, &j->img, j->err,
                                        sizeof(j->err));

    return rc == -ENODATA ? -ENOENT : rc;
}

/* Where the kernel's text is, as the vCPU says: its syscall entry, else its pc
 * in kernel mode; 0 when neither is in the kernel's window. */
static uint64_t text_anchor(const struct xu_vcpu_regs *regs)
{
    if (xu_kaslr_x86_in_window(regs->syscall_entry))
        return regs->syscall_entry;
    if (regs->kernel_mode && xu_kaslr_x86_in_window(regs->ip))
        return regs->ip;
    return 0;
}

static void say_image(uint32_t domid, const struct xu_linux_memory_image *img,
                      struct xu_log *log)
{
    xu_info(log, "symbols: the kernel in domain %" PRIu32 "'s memory: %zu kallsyms symbols "
            "(%s), text %#" PRIx64 "-%#" PRIx64 ", %s, %s (%" PRIu64 " KiB read from %#"
            PRIx64 ")", domid, img->symbols, img->layout, img->text, img->etext,
            img->orc ? "ORC tables" : "no ORC tables", img->btf ? "BTF" : "no BTF",
            img->read >> 10, img->start);
}

enum xu_record_result xu_record_symbols_from_memory(struct xu_target *t, struct xu_mem *m,
                                                    struct xu_pause *pause, unsigned int nvcpus,
                                                    bool must, struct xu_elf_choice *elf,
                                                    struct xu_log *log)
{
    enum xu_log_level level = must ? XU_LOG_ERROR : XU_LOG_WARN;
    struct image_job j = { .fd = -1 };
    struct xu_vcpu_regs regs;
    int rc;

    if (!t->arch || t->arch->elf_machine != EM_X86_64) {
        if (must)
            xu_error(log, "cannot tell which kernel domain %" PRIu32 " runs (no kernel file, "
                     "and only an x86-64 Linux kernel is read from memory): pass the "
                     "unstripped ELF with -e/--elf, or write -f raw and symbolise later with "
                     "'xen-uniprof convert'", t->domid);
        else
            xu_info(log, "no kernel file for domain %" PRIu32 ", and only an x86-64 Linux "
                    "kernel is read from memory: the frames are addresses (-e/--elf names "
                    "them)", t->domid);
        return XU_RECORD_SYMBOLS;
    }
    if (!xu_record_kernel_context(t, pause, nvcpus, &regs)) {
        xu_logf(log, level, "cannot read domain %" PRIu32 "'s kernel from its memory: no "
                "vCPU's page tables to read it through; pass the unstripped ELF with -e/--elf",
                t->domid);
        return XU_RECORD_SYMBOLS;
    }
    j.anchor = text_anchor(&regs);
    /* with the guest running: tens of MiB would be a pause the guest felt */
    rc = xu_record_read_through(m, &regs, read_image, &j);
    if (rc < 0) {
        xu_logf(log, level, "cannot read domain %" PRIu32 "'s kernel from its memory: %s; pass "
                "the unstripped ELF with -e/--elf", t->domid, j.err);
        return XU_RECORD_SYMBOLS;
    }
    rc = xu_symtab_open_flags(j.path, EM_X86_64, 0, log, &elf->symtab);
    if (rc < 0) {
        xu_logf(log, level, "no symbols in domain %" PRIu32 "'s kernel read from its memory "
                "(%s); pass the unstripped ELF with -e/--elf", t->domid, strerror(-rc));
        close(j.fd);
        free(j.path);
        return XU_RECORD_SYMBOLS;
    }
    elf->path = j.path;
    elf->mem_fd = j.fd;
    elf->source = XU_ELF_FROM_GUEST_MEMORY;
    elf->reason = "the running kernel's kallsyms, read from its memory";
    if (asprintf(&elf->shown, "the kernel in domain %" PRIu32 "'s memory", t->domid) < 0)
        elf->shown = NULL;
    say_image(t->domid, &j.img, log);
    return XU_RECORD_OK;
}
