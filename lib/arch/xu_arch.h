/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_arch.h - what differs per guest architecture, behind one ops struct.
 *
 * Everything above this folder (guest memory, unwinders, the sampler) asks
 * the guest's architecture instead of knowing x86 or ARM:
 *   - how Xen's vCPU state becomes struct xu_vcpu_regs (xen_vcpu_regs);
 *   - how a guest-virtual address becomes a frame (translate), with every
 *     page-table entry read through a callback, so the walk stays pure and
 *     is tested on simulated tables;
 *   - where a frame record keeps the caller's frame pointer and the return
 *     address, and what bits of a stored return address are not address
 *     (pointer authentication);
 *   - whether the innermost return address may still sit in a register;
 *   - the DWARF register numbers the CFI table tracks.
 *
 * One folder per architecture (arch/x86_64/, arch/x86_32/, arch/arm64/,
 * arch/arm32/; arch/x86/ holds the machine code rules both x86 widths share)
 * holds the same
 * files: arch.c (this struct and the frame rules), pagewalk.c (the
 * translation), context.c (Xen's vCPU structures -> struct xu_vcpu_regs)
 * and xen.c (reading them through the backend: struct xu_arch_xen).  arch.c
 * and pagewalk.c are plain C, built for every architecture on every host,
 * so any guest can be simulated and tested anywhere; context.c needs Xen's
 * headers (arm64's reads xen/foreign/arm64.h, so it is built and tested on
 * any host with a Xen backend); xen.c is built only for the build's own
 * architecture, with a Xen backend: it reads the vCPUs of every guest
 * width that Xen runs there (on x86 both 64-bit and 32-bit guests) and
 * says which architecture a domain has (guest_arch), from what Xen
 * reports of that domain; the simulated guest picks any.
 *
 * The guest is hostile input: translate() must bound its walk by the number
 * of levels and check every entry it reads; the other ops only compute.
 */
#ifndef XU_ARCH_H
#define XU_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/xu_target.h"

/* Outcome of a translation, also returned (negated) by guest-memory reads. */
enum xu_mem_fault {
    XU_MEM_OK = 0,
    XU_MEM_NOT_PRESENT,     /* an entry on the way was not valid */
    XU_MEM_RESERVED,        /* an entry had reserved bits set, or a bad type */
    XU_MEM_BAD_FRAME,       /* a frame number beyond the address width */
    XU_MEM_MAP_FAILED,      /* the backend could not map a frame */
    XU_MEM_UNSUPPORTED,     /* a translation regime we do not walk */
    XU_MEM_NON_CANONICAL,   /* virtual address outside every translated range */
};

/*
 * Read the 8-byte little-endian page-table entry at addr, an address in the
 * space the tables use (machine addresses for x86 PV, guest-physical
 * otherwise).  Returns XU_MEM_OK or XU_MEM_MAP_FAILED.
 */
typedef enum xu_mem_fault (*xu_arch_read_pte)(void *ctx, uint64_t addr, uint64_t *pte);

/*
 * What a Xen backend lends an architecture to read one vCPU: the domctls,
 * each into a buffer the backend allocated at open time (of the sizes in
 * struct xu_arch_xen), so the paused window never allocates.  Each returns
 * 0 with *buf set; -ENODATA, unreported, when Xen keeps no such state for
 * the vCPU (ENODATA, or ENOENT from older hypervisors); any other negative
 * errno after reporting it.  failed() reports a call the architecture
 * judges failed, and returns what to pass on.
 */
struct xu_xen_regs_io {
    void *ctx;
    int (*vcpu_context)(void *ctx, unsigned int vcpu, const void **buf);     /* getvcpucontext */
    int (*hvm_record)(void *ctx, uint16_t type, uint16_t instance, const void **buf); /* gethvmcontext_partial */
    int (*vcpu_online)(void *ctx, unsigned int vcpu, bool *online);         /* getvcpuinfo */
    int (*failed)(void *ctx, const char *call, int err);
};

/* A frame record's place, relative to the frame pointer (frame_record). */
struct xu_frame_record {
    int32_t fp_off, ra_off;
    unsigned int fp_reg;        /* the DWARF number of the frame pointer it is relative to */
    bool ra_in_link;            /* no return address saved (a leaf that saved only its
                                 * frame pointer): it is the link register's, ra_off
                                 * meaningless; only the innermost frame can use it */
};

struct xu_arch_ops {
    const char *name;               /* "x86_64", "x86_32", "arm64", "arm32" */
    uint16_t elf_machine;           /* EM_X86_64, EM_386, EM_AARCH64, EM_ARM: the ELFs it accepts */

    /* Bytes in a stack word: a saved frame pointer, a stored return
     * address, a pushed register (8 on 64-bit guests, 4 on 32-bit ones).
     * Unwinders read the stack in these words (xu_mem_read_words()). */
    uint8_t word_bytes;

    /* DWARF register numbers of the stack pointer, frame pointer and the
     * return address column the CFI table follows. */
    unsigned int dwarf_sp, dwarf_fp, dwarf_ra;

    /* A frame record at fp: the caller's fp at fp + record_fp_off, the
     * return address at fp + record_ra_off; the record is record_size bytes. */
    uint8_t record_fp_off, record_ra_off, record_size;

    /* The return address of the innermost frame may still be in a link
     * register (xu_vcpu_regs.lr) rather than on the stack. */
    bool has_link_register;

    /* Can this vCPU's stack be read, i.e. is it in a translation regime
     * translate() handles?  If not, a sample holds only the instruction
     * pointer. */
    bool (*stack_readable)(const struct xu_vcpu_regs *regs);

    /* Translate va with the vCPU's MMU state; *frame is a 4 KiB frame number
     * in the space the tables use.  Reads entries only through read_pte. */
    enum xu_mem_fault (*translate)(const struct xu_mmu *mmu, uint64_t va,
                                   xu_arch_read_pte read_pte, void *ctx, uint64_t *frame);

    /*
     * The stub of a hypercall page entry: how many words it has pushed above
     * the return address when stopped at offset off of the entry (which
     * starts entry, hypercall_entry_size bytes long).  -1 when the bytes are
     * not a stub it knows.  NULL where the architecture has no hypercall
     * page (AArch64 guests issue HVC themselves).
     */
    unsigned int hypercall_entry_size;
    int (*hypercall_stub)(const uint8_t *entry, unsigned int off, unsigned int *words);

    /*
     * The frame an event or exception leaves: frame_words words, read at
     * guest address addr, which, if they are one, give the interrupted pc
     * and sp.  Plausibility only (segments, flags, where the saved stack
     * pointer lies relative to addr); the caller checks pc against the
     * ELF's code.  code_sel: the code selector of the stopped vCPU's kernel
     * (xu_mem_code_selector()), 0 when not known; a frame of kernel code
     * interrupted in its own ring holds it.  NULL where the architecture
     * has no such frame.
     */
    unsigned int interrupt_frame_words;
    bool (*interrupt_frame)(const uint64_t *words, uint64_t addr, uint64_t code_sel,
                            uint64_t *pc, uint64_t *sp);

    /*
     * A function stopped where its frame record is not set up: code holds
     * the ELF's bytes from pc - frame_before to pc + frame_after.  The
     * words it has pushed above its return address (0 on its first
     * instruction or on its return, 1 after pushing the old frame pointer),
     * or -1 when its frame record is in place or the code is not known.
     * NULL where the architecture keeps the return address in a register
     * (the link register rules apply instead).
     */
    unsigned int frame_before, frame_after;
    int (*frameless_words)(const uint8_t *code);

    /*
     * A function that makes no frame record, at least not before the
     * offset the walk stopped at: code holds the ELF's bytes from the
     * function's start, len of them (at most prologue_bytes), and upto is
     * the stopped offset.  The words it has pushed or reserved above its
     * return address there, read from its prologue; -1 when it makes a
     * frame record before upto (the frame-pointer chain holds its caller)
     * or its prologue is not one whose size is known.  NULL where the
     * return address of a leaf stays in a link register (AArch64).
     */
    unsigned int prologue_bytes;
    int (*frameless_depth)(const uint8_t *code, size_t len, size_t upto);

    /*
     * A function that has made its frame record by upto (same code, len):
     * how many words below its frame pointer the stack pointer is there,
     * read from its prologue; -1 when it has made none or the prologue is
     * not one whose size is known.  For a frame interrupted where the
     * chain holds no frame pointer of it (32-bit entry code that zeroes
     * EBP before calling C, as Mini-OS's).  NULL: not used (x86-64 keeps
     * the interrupted RBP in the chain).
     */
    int (*framed_depth)(const uint8_t *code, size_t len, size_t upto);

    /*
     * The same question where the return address starts in a link
     * register: has the function, by offset upto, neither made its frame
     * record nor saved or overwritten the link register (a leaf, or a
     * prologue not yet run)?  Then the innermost frame's return address is
     * the vCPU's link register.  NULL without a link register.
     */
    bool (*ra_in_link)(const uint8_t *code, size_t len, size_t upto);

    /* Do the call_window bytes that end where ra points end with a call
     * instruction?  (The ELF's bytes, not the guest's.) */
    unsigned int call_window;
    bool (*follows_call)(const uint8_t *before, size_t n);

    /* A key that tells address spaces apart for translation caches. */
    uint64_t (*space_key)(const struct xu_mmu *mmu);

    /* The code address in a stored return address (strips pointer
     * authentication codes and tags, AArch32's Thumb bit; identity where
     * there are none). */
    uint64_t (*code_address)(const struct xu_vcpu_regs *regs, uint64_t ra);

    /*
     * Where records lie differs per function (AArch32: GCC and clang, ARM
     * and Thumb-2 place them differently around the frame pointer): the
     * function whose code starts at code (len bytes of it, at most
     * prologue_bytes; thumb from bit 0 of its symbol) has, by offset upto,
     * made a record with the caller's frame pointer at fp + out->fp_off and
     * the return address at fp + out->ra_off, fp being register
     * out->fp_reg.  0, or -1 when it has made none there or its prologue
     * is not one known.  NULL where record_fp_off and record_ra_off hold
     * for every function.
     */
    int (*frame_record)(const uint8_t *code, size_t len, size_t upto, bool thumb,
                        struct xu_frame_record *out);
};

/* One read of struct xu_xen_regs_io, named so that it can be made ahead. */
enum xu_xen_read_kind {
    XU_XEN_READ_VCPU_CONTEXT = 0,   /* vcpu_context(vcpu) */
    XU_XEN_READ_HVM_RECORD,         /* hvm_record(type, instance) */
};
struct xu_xen_read {
    enum xu_xen_read_kind kind;
    unsigned int vcpu;              /* VCPU_CONTEXT */
    uint16_t type, instance;        /* HVM_RECORD */
};

/* The native architecture's view of Xen's vCPU structures (arch/<arch>/xen.c). */
struct xu_arch_xen {
    /* Bytes each buffer of struct xu_xen_regs_io must hold. */
    size_t vcpu_context_size, hvm_record_size;
    /* The registers of one vCPU, read with the backend's domctls; an
     * offline vCPU gives 0 with out->online false. */
    int (*vcpu_regs)(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                     unsigned int vcpu, struct xu_vcpu_regs *out);
    /* The read vcpu_regs() makes first for that vCPU of such a guest (for
     * most vCPUs the only one), so that a backend can make it ahead, in
     * the same call as the pause, and answer vcpu_regs() from it. */
    void (*first_read)(const struct xu_domain_info *info, unsigned int vcpu,
                       struct xu_xen_read *out);
    /*
     * The architecture of this domain's guest, from what Xen reports of
     * it (never the dom0's own): for x86 the PV guest width, or the mode
     * of the first online vCPU of a PVH/HVM guest.  0 with *out set;
     * -EOPNOTSUPP with *why, a line for the user, when the guest is in a
     * mode not profiled (x86 real mode); another negative errno after
     * reporting a failed read.  Read once, at open: a vCPU whose mode
     * later differs is the run's to mark (its stack is not readable by
     * the chosen architecture's stack_readable()).
     */
    int (*guest_arch)(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                      const struct xu_arch_ops **out, const char **why);
};

extern const struct xu_arch_ops xu_arch_x86_64;
extern const struct xu_arch_ops xu_arch_x86_32;
extern const struct xu_arch_ops xu_arch_arm64;
extern const struct xu_arch_ops xu_arch_arm32;
/* Only in builds with a Xen backend.  An arm64 Xen's reads AArch32 guests
 * too (arch/arm32/xen.c, built beside arm64's). */
extern const struct xu_arch_xen xu_arch_xen_native;

/* The architecture of the Xen this binary was built for (its guests'). */
const struct xu_arch_ops *xu_arch_native(void);
/* By name ("x86_64", "x86_32", "arm64") or by ELF e_machine; NULL when unknown. */
const struct xu_arch_ops *xu_arch_by_name(const char *name);
const struct xu_arch_ops *xu_arch_by_elf_machine(unsigned int machine);

const char *xu_mem_fault_name(enum xu_mem_fault f);

#endif
