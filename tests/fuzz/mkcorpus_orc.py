#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the structured seeds of tests/fuzz/fuzz_orc.c into DIR.

Each seed is fuzz_orc.c's input: its header (struct in_header), the
optional .orc_header hash, the .orc_unwind_ip and .orc_unwind sections of
a small kernel whose text is the simulated guest's (SIM_TEXT_BASE), and the
top of a stack laid out as that kernel's code would leave it.  The ELF seed
(vmlinux_5_10) is written by XU_ORC_CORPUS=DIR tests/unit/unwind/test_unwind_orc.

Usage: tests/fuzz/mkcorpus_orc.py tests/fuzz/corpus/fuzz_orc
"""
import os
import struct
import sys

TEXT = 0xffffffff80000000
IP_AT = TEXT + 0x1000
# sp_reg / bp_reg numbers and 6.4's types
SP, BP, PREV_SP, R10, SP_IND = 5, 4, 1, 6, 9
UNDEF, END, CALL, REGS, PARTIAL = 0, 1, 2, 3, 4
HASH_6_4 = bytes.fromhex("fe5d32bf581bd63b2ca9a5c65ba5a625eab3fe24")

ENTRIES = [  # (offset, sp_reg, sp_off, bp_reg, bp_off, type)
    (0x000, 0, 0, 0, 0, END),
    (0x100, SP, 8, 0, 0, CALL),
    (0x200, SP, 8, 0, 0, CALL),
    (0x201, SP, 24, PREV_SP, -16, CALL),
    (0x300, SP, 8, 0, 0, CALL),
    (0x304, BP, 16, PREV_SP, -16, CALL),
    (0x400, SP, 0, 0, 0, REGS),
    (0x500, SP, 8, 0, 0, PARTIAL),
    (0x600, SP_IND, 16, 0, 0, CALL),
    (0x700, R10, 0, 0, 0, CALL),
    (0x800, 0, 0, 0, 0, UNDEF),
    (0x900, 0, 0, 0, 0, UNDEF),
]


def flags(sp_reg, bp_reg, typ, layout):
    f = sp_reg | bp_reg << 4
    if layout == 2:
        return f | typ << 8 | (typ in (REGS, PARTIAL)) << 11
    if typ == END:
        return 0x800 if layout == 1 else 0x400
    if typ == UNDEF:
        return 0
    return f | (typ - CALL) << 8


def tables(layout):
    ip = b"".join(struct.pack("<i", TEXT + e[0] - (IP_AT + 4 * i)) for i, e in enumerate(ENTRIES))
    orc = b"".join(struct.pack("<hhH", e[2], e[4], flags(e[1], e[3], e[5], layout))
                   for e in ENTRIES)
    return ip, orc


def seed(layout_flags, version, ip_off, sp_below_top, stack_words, hash_=None, user=False):
    layout = layout_flags & 3
    if layout == 3:     # chosen by the reader: the version's
        layout = 0 if version < 0x603 else 1 if version == 0x603 else 2
    ip, orc = tables(layout)
    fl = layout_flags | (4 if hash_ else 0) | (8 if user else 0)
    head = struct.pack("<BBHHHHB", fl, len(ENTRIES), version, ip_off, sp_below_top, 0x1000, 0)
    stack = b"".join(struct.pack("<Q", w) for w in stack_words)
    return head + (hash_ or b"") + ip + orc + stack


def code(b):
    """Code bytes as the stack words that also hold them: 32 bytes, int3 after."""
    b = b + b"\xcc" * (32 - len(b))
    return list(struct.unpack("<4Q", b))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    top = 0xffffc90000100000 + 0x8000
    # words from the lowest address up to the top: the stack as the code
    # leaves it, its last word just below the top
    call_chain = [TEXT + 0x230, 0, top - 16, TEXT + 0x340] + [0] * 5 + [0, TEXT + 0x20]
    pt = [0] * 21
    pt[16], pt[17], pt[19] = 0x401000, 0x33, 0x7ffc0000
    user_syscall = [TEXT + 0x410] + pt
    irq_switch = [TEXT + 0x620, top - 16, TEXT + 0x20]
    # a vCPU stopped in Xen PV's stubs, the end-of-stack mark at 0x080 and 0x0c0: the
    # stack's first 32 bytes are also the code there (fuzz_orc.c)
    trap = code(bytes([0x59, 0x41, 0x5b, 0xe9]) + struct.pack("<i", 0x500 - (0x080 + 8)))
    trap_from_user = trap + [0x22, 0x11, 0, 0x401000, 0x33, 0x246, 0x7ffc0000, 0xe02b]
    iret = code(bytes([0x6a, 0, 0x51, 0x41, 0x53, 0x50, 0xb8, 23, 0, 0, 0, 0x0f, 0x05]))
    iret_to_kernel = iret + [TEXT + 0x110, 0x10, 0x246, top - 16, 0, TEXT + 0x20, 0]
    seeds = {
        "call_chain_6_4": seed(2, 0, 0x110, 8 * len(call_chain), call_chain),
        "call_chain_4_14": seed(0, 0x601, 0x110, 8 * len(call_chain), call_chain),
        "call_chain_by_version": seed(3, 0x601, 0x110, 8 * len(call_chain), call_chain),
        "syscall_from_user_6_3": seed(1, 0x603, 0x108, 8 * len(user_syscall), user_syscall),
        "irq_stack_header": seed(3, 0x604, 0x108, 8 * len(irq_switch), irq_switch, HASH_6_4),
        "user_mode": seed(2, 0, 0x10, 8, [0], user=True),
        "pv_trap_from_user_6_1": seed(0, 0x601, 0x080, 8 * 8, trap_from_user),
        "pv_iret_to_kernel_6_1": seed(0, 0x601, 0x0c0, 8 * 7, iret_to_kernel),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
