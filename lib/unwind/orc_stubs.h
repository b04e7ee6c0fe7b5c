/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orc_stubs.h - code a vCPU can be stopped in where the kernel's ORC tables
 * mark the end of the stack although a frame is still to be walked (private
 * to lib/unwind; the ORC walk, unwind_orc.c, asks only for its innermost
 * frame).  The code in guest memory at the vCPU's pc says which:
 *   THUNK    Linux's indirect-branch thunks (__x86_indirect_thunk_REG) as the
 *            running kernel has them after its alternatives, "jmp *%reg" with
 *            lfence (and a branch hint) before it, or the retpoline, whose
 *            first instruction calls a few bytes on: until that branch the
 *            thunk's caller's return address is at sp;
 *   PV_TRAP  Xen PV's exception and upcall stubs (xen_asm_exc_*, from 5.x):
 *            Xen's bounce frame holds rcx and r11 above the frame the native
 *            entry expects, which the stub pops before it jumps there: after
 *            `pops` words the walk goes on at `target`;
 *   PV_IRET  Xen PV's iret (xen_iret, 6.x): it pushes the hypercall's flags
 *            word, rcx, r11 and rax, then makes HYPERVISOR_iret, whose
 *            struct iret_context (Xen's public xen.h) holds those four words
 *            and the interrupted code's iret frame: that frame is `frame`
 *            bytes above sp.
 */
#ifndef XU_ORC_STUBS_H
#define XU_ORC_STUBS_H

#include <stddef.h>
#include <stdint.h>

enum xu_orc_stub_kind {
    XU_ORC_STUB_NONE = 0,
    XU_ORC_STUB_THUNK,
    XU_ORC_STUB_PV_TRAP,
    XU_ORC_STUB_PV_IRET,
};

struct xu_orc_stub {
    enum xu_orc_stub_kind kind;
    unsigned int pops;          /* PV_TRAP: words popped before the jump */
    uint64_t target;            /* PV_TRAP: where the jump goes */
    unsigned int frame;         /* PV_IRET: bytes from sp to the iret frame */
};

/* Bytes of code at pc the decoder wants (fewer: it decodes what it has). */
#define XU_ORC_STUB_CODE 16

/* Which stub code[0, n), read at pc, is the rest of; XU_ORC_STUB_NONE when
 * it is none of them.  *out is filled for every other kind. */
enum xu_orc_stub_kind xu_orc_stub_decode(const uint8_t *code, size_t n, uint64_t pc,
                                         struct xu_orc_stub *out);

#endif
