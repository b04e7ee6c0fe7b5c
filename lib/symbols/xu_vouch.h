/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_vouch.h - what the guest's ELF says about stacks: before sampling, the
 * code the unwinders must treat specially; after it, which finished walks
 * really reached a root.
 *
 * A walk that ends at a zero frame pointer is only as good as that zero:
 * in optimised code the frame-pointer register holds data, and a leaf whose
 * "frame pointer" happens to be 0 looks exactly like a finished chain.  So,
 * once per distinct stack (never while the guest is paused), a stack is
 * complete only if
 *   - its outermost frame is a root: inside the entry code (from the ELF's
 *     entry point, or the entry Xen's notes name, to the next function
 *     symbol, with the labels inside it: xu_elf_code_entries()), in a
 *     function of the roots list (thread and CPU entry points, defaults
 *     below), or in a function whose CFI marks the return address
 *     undefined; and
 *   - every return address in it follows a call instruction in the ELF's
 *     code (read from the file, not the guest).
 * Otherwise it is XU_WALK_NOT_ROOT or XU_WALK_NOT_CALL (lib/profile/xu_walk.h).
 */
#ifndef XU_VOUCH_H
#define XU_VOUCH_H

#include <stddef.h>

#include "arch/xu_arch.h"
#include "profile/xu_profile.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_symbols.h"
#include "unwind/xu_unwind.h"

/*
 * Thread and CPU entry points of the unikernels and kernels we know, which
 * outermost frames may be: Mini-OS thread_starter; Unikraft
 * asm_thread_starter; Linux ret_from_fork(_asm), startup_64,
 * secondary_startup_64, cpu_bringup_and_idle; the lab's test guests
 * _start and _start_ap.  NULL-terminated.
 */
extern const char *const xu_default_roots[];

/*
 * Entry code of event upcalls and exceptions, by symbol: Mini-OS and
 * Unikraft hypervisor_callback, hypervisor_callback2 and error_entry;
 * Linux xen_hypervisor_callback, asm_exc_xen_hypervisor_callback,
 * xen_asm_exc_xen_hypervisor_callback, asm_sysvec_xen_hvm_callback and
 * asm_common_interrupt.  NULL-terminated.
 */
extern const char *const xu_boundary_symbols[];

/* The unwinders' view of the ELF (struct xu_unwind_env, cfi left as is):
 * the hypercall page (symbol hypercall_page), the boundary symbols found,
 * the code ranges, the code's bytes and the function symbols' starts (st
 * and code must outlive the env). */
void xu_unwind_env_from_elf(const struct xu_symtab *st, const struct xu_elf_code *code,
                            const struct xu_arch_ops *arch, struct xu_unwind_env *env);

struct xu_vouch {
    const struct xu_symtab *symtab;
    const struct xu_elf_code *code;
    const struct xu_arch_ops *arch;
    const char *const *roots;       /* NULL-terminated; NULL: xu_default_roots */
};

/*
 * The roots of --roots: "a,b" replaces the defaults, "+a,b" adds to them.
 * *out is a NULL-terminated array in one allocation (free() it).  At most
 * XU_MAX_ROOTS names of at most XU_MAX_ROOT_NAME bytes: -EINVAL past those
 * or for an empty name, -ENOMEM.
 */
#define XU_MAX_ROOTS 256
#define XU_MAX_ROOT_NAME 256
int xu_roots_parse(const char *spec, const char ***out);

/* Judge every finished walk of p (see above); the others keep their end. */
void xu_vouch_profile(struct xu_profile *p, const struct xu_vouch *v);

/*
 * Among the samples whose walk ended at a zero frame pointer or return
 * address but not at a root (XU_WALK_NOT_ROOT), the outermost function most
 * of them end in, and its *share of them in percent: what to name when a
 * run says why its stacks are not complete (a thread entry missing from
 * the roots, or frame pointers that held 0).  NULL when there is none.
 */
const char *xu_vouch_outermost_not_root(const struct xu_profile *p, const struct xu_symtab *st,
                                        double *share);

#endif
