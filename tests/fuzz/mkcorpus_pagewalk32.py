#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mkcorpus_pagewalk32.py DIR - seed inputs for fuzz_pagewalk32.

Each seed is a small 32-bit guest in fuzz_pagewalk32's layout (see its
header comment): flags, CR3, EIP, ESP, EBP, addresses to translate, then
physical memory from frame 0.  The tables and the frame-pointer chain are
written here as a 32-bit kernel would lay them out, so the harness starts
from walks that succeed and from the hostile cases next to them.
"""
import os
import struct
import sys

PAGE = 4096
P, RW, PS = 1, 2, 0x80


def header(flags, cr3, eip, esp, ebp, vas, high=False):
    h = struct.pack('<BIIII', flags, cr3, eip, esp, ebp)
    h += bytes([len(vas) | (0x80 if high else 0)])
    return h + b''.join(struct.pack('<I', v) for v in vas)


def chain(mem, stack_pa, stack_va, rets):
    """{ebp, eip} records 32 bytes apart from stack_va + 0x10; returns ebp."""
    fp = stack_va + 0x10
    for i, ret in enumerate(rets):
        nxt = fp + 32 if i + 1 < len(rets) else 0
        off = stack_pa + (fp - stack_va)
        mem[off:off + 8] = struct.pack('<II', nxt, ret)
        fp += 32
    return stack_va + 0x10


def two_level(pse):
    # frame 0 directory, frame 1 table, frame 2 stack page, frame 3 text
    mem = bytearray(4 * PAGE)
    va_stack, va_text = 0xc1000000, 0xc0100000
    struct.pack_into('<I', mem, (va_stack >> 22) * 4, 1 * PAGE | P | RW)
    struct.pack_into('<I', mem, PAGE + ((va_stack >> 12) & 1023) * 4, 2 * PAGE | P | RW)
    struct.pack_into('<I', mem, PAGE + ((va_text >> 12) & 1023) * 4, 3 * PAGE | P)
    if pse:     # a 4 MiB page at 0x40000000 -> 0 (frames 0..3 readable), one past 4 GiB
        struct.pack_into('<I', mem, (0x40000000 >> 22) * 4, P | RW | PS)
        struct.pack_into('<I', mem, (0x40400000 >> 22) * 4, 0x00400000 | (0x34 << 13) | P | PS)
    fp = chain(mem, 2 * PAGE, va_stack, [0xc0100100, 0xc0100200, 0xc0100300])
    return header(1 | (4 if pse else 0), 0, 0xc0100010, va_stack, fp,
                  [va_stack, va_text, 0x40001000, 0x40412345, 0xffc00000]) + mem


def pae(large):
    # frame 0 PDPT, frame 1 directory, frame 2 table, frame 3 stack page
    mem = bytearray(4 * PAGE)
    va_stack = 0xc1000000
    struct.pack_into('<Q', mem, (va_stack >> 30) * 8, 1 * PAGE | P)
    struct.pack_into('<Q', mem, PAGE + ((va_stack >> 21) & 511) * 8, 2 * PAGE | P | RW)
    struct.pack_into('<Q', mem, 2 * PAGE + ((va_stack >> 12) & 511) * 8,
                     3 * PAGE | P | RW | (1 << 63))
    if large:   # a 2 MiB page at 0xc0200000 -> 0, and a reserved-bit one beside it
        struct.pack_into('<Q', mem, PAGE + ((0xc0200000 >> 21) & 511) * 8, P | PS)
        struct.pack_into('<Q', mem, PAGE + ((0xc0400000 >> 21) & 511) * 8, P | PS | (1 << 13))
    fp = chain(mem, 3 * PAGE, va_stack, [0xc0100100, 0xc0100200])
    return header(2, 0, 0xc0100010, va_stack, fp,
                  [va_stack, 0xc0201000, 0xc0400000, 0x40000000]) + mem


def loops():
    # a directory entry pointing at the directory; a PDPT entry at the PDPT
    mem = bytearray(2 * PAGE)
    struct.pack_into('<I', mem, 0, 0 | P)
    struct.pack_into('<I', mem, 4, 0 | P)
    return header(1, 0, 0x1000, 0x10, 0x10, [0, 0x1000, 0x00400000, 0x00001ffc]) + mem


def no_paging(real):
    mem = bytearray(2 * PAGE)
    fp = chain(mem, PAGE, PAGE, [0x2000, 0x3000, 0])
    return header(8 if real else 0, 0, 0x1000, PAGE, fp, [0, PAGE, 0x7fffffff], high=real) + mem


def long_mode():
    mem = bytearray(PAGE)
    return header(3, 0, 0x1000, 0x10, 0x10, [0x1000]) + mem


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        'two_level': two_level(False), 'two_level_pse': two_level(True),
        'pae': pae(False), 'pae_2m': pae(True), 'loops': loops(),
        'no_paging': no_paging(False), 'real_mode': no_paging(True), 'long_mode': long_mode(),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
