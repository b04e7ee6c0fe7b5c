/* SPDX-License-Identifier: GPL-2.0-only */
/* record_priv.h - between the record run's files, not for callers. */
#ifndef XU_RECORD_PRIV_H
#define XU_RECORD_PRIV_H

#include "record/xu_record.h"
#include "symbols/xu_elf_find.h"
#include "unwind/xu_unwind.h"

struct xu_elf_code;
struct xu_linux_image;
struct xu_linux_module_layout;
struct xu_mem;
struct xu_orc_table;
struct xu_pause;
struct xu_symtab;
struct xu_target;
struct xu_vcpu_regs;

/* The format (-f, the output's extension, else svg) and the path (-o, else
 * "<domain_label><extension>", malloc'd into *path). */
enum xu_record_result xu_record_choose_output(const struct xu_record_config *job,
                                              const char *domain_label,
                                              const struct xu_output_ops **ops, char **path,
                                              struct xu_log *log);

/* The symbol ELF: --elf, or from the domain's kernel path.  Without a
 * kernel file (*from_memory), the symbols come from the guest's memory
 * (xu_record_symbols_from_memory()), or the raw format is written. */
enum xu_record_result xu_record_find_symbols(const struct xu_record_config *job,
                                             struct xu_domdir *dir, uint32_t domid,
                                             const struct xu_output_ops *fmt,
                                             struct xu_elf_choice *choice, bool *from_memory,
                                             struct xu_log *log);

/* The ELF found before the target opened takes any machine; once the
 * target says the guest's architecture (a 32-bit guest of a 64-bit Xen
 * included), one for another machine is refused with one line. */
enum xu_record_result xu_record_check_elf_machine(const struct xu_elf_choice *elf,
                                                  struct xu_target *t, struct xu_log *log);

/* The unwinder for --unwind into cfg; *table holds its tables, put into
 * the unwinder's env by xu_record_apply_unwind_table() and freed with
 * xu_record_free_unwind_table(). */
enum xu_record_result xu_record_choose_unwinder(const struct xu_record_config *job,
                                                const struct xu_elf_choice *elf,
                                                struct xu_sampler_config *cfg, void **table,
                                                struct xu_log *log);
void xu_record_apply_unwind_table(const void *table, struct xu_unwind_env *env);
void xu_record_free_unwind_table(void *table);
/* The kernel's ORC table among them (a Linux guest's modules chain theirs after it),
 * or NULL. */
struct xu_orc_table *xu_record_unwind_orc(void *table);
/* Move the tables to a kernel's runtime addresses (KASLR: xu_kaslr.h). */
int xu_record_relocate_unwind_table(void *table, int64_t slide);

/*
 * Is the symbol ELF the kernel the guest runs?  Loud on a mismatch; says a
 * slide (KASLR) it confirmed, into *slide (0 otherwise).  provisional: the
 * answer may not be final yet (an HVM guest's firmware loads its kernel
 * after it starts); then it only says so, and returns true: check again
 * after sampling.
 */
bool xu_record_check_elf(const struct xu_elf_choice *elf, struct xu_target *t, struct xu_mem *m,
                         struct xu_pause *pause, bool provisional, int64_t *slide,
                         struct xu_log *log);
/* Move symbols, code and the unwinder's tables by a confirmed slide. */
int xu_record_relocate(struct xu_elf_choice *elf, struct xu_elf_code *code, void *unwind_table,
                       int64_t slide, struct xu_log *log);

/*
 * A Linux kernel image's task and module layouts (xu_linux_image.h), read once;
 * -ENOTSUP in both rcs for a guest that is not x86-64 or an ELF without a path.
 */
void xu_record_linux_image(const struct xu_elf_choice *elf, const struct xu_arch_ops *arch,
                           struct xu_linux_image *out);

/*
 * Kernel modules (xu_linux_modules.h), for an x86-64 Linux kernel whose
 * image gives the layout: xu_record_module_layout() takes it from img
 * (at the kernel's slide) before sampling, false when there is none
 * (said at info level for a Linux kernel without what it takes);
 * xu_record_read_modules() reads the guest's module list once, through the
 * page tables of one of its nvcpus vCPUs: with symtab, it chains the modules'
 * names after symtab, so that every lookup of symtab names module code; with
 * orc (the kernel's ORC table), it chains the modules' own ORC tables after it,
 * so that walks continue through module code.  Run outside the sampler's pauses:
 * before sampling for the ORC tables and the live view's names, after it for a
 * recording's names (modules loaded meanwhile are named).  Failures are one info
 * line: samples in modules then stay hex, or walks end there.
 */
bool xu_record_module_layout(const struct xu_elf_choice *elf, const struct xu_linux_image *img,
                             int64_t slide, struct xu_linux_module_layout *l, struct xu_log *log);
void xu_record_read_modules(struct xu_target *t, struct xu_mem *m, struct xu_pause *pause,
                            unsigned int nvcpus, const struct xu_linux_module_layout *l,
                            struct xu_symtab *symtab, struct xu_orc_table *orc,
                            struct xu_log *log);

/*
 * Reads of a Linux guest's kernel data with the guest running (its module
 * list, its image from memory): xu_record_kernel_context() takes an online
 * vCPU's registers, one in kernel mode if there is one, in one short pause
 * of its own (false: none, or the pause failed); xu_record_read_through()
 * runs read through their page tables, and again through the kernel's half
 * of a page-table-isolated pair when a user-mode vCPU's gave -ENOENT.
 */
bool xu_record_kernel_context(struct xu_target *t, struct xu_pause *pause, unsigned int nvcpus,
                              struct xu_vcpu_regs *out);
int xu_record_read_through(struct xu_mem *m, struct xu_vcpu_regs *regs,
                           int (*read)(struct xu_mem *m, void *ctx), void *ctx);

/*
 * The symbols of a domain whose kernel file dom0 does not have (no path in
 * its config, or one a bootloader deleted), from the running kernel's image
 * in its memory (xu_linux_memory_image.h), into elf as if found on disk;
 * for an x86-64 guest, read outside the sampler's pauses.  XU_RECORD_OK, or
 * XU_RECORD_SYMBOLS with one line saying why: an error when the caller
 * cannot go on without (must), else a warning (its frames stay addresses).
 */
enum xu_record_result xu_record_symbols_from_memory(struct xu_target *t, struct xu_mem *m,
                                                    struct xu_pause *pause, unsigned int nvcpus,
                                                    bool must, struct xu_elf_choice *elf,
                                                    struct xu_log *log);

/* A backend's open/info failure, and a domain directory's, as a result (the
 * backend or the directory logged why). */
enum xu_record_result xu_record_result_for_target_error(int rc);
enum xu_record_result xu_record_result_for_domdir_error(int rc);

#endif
