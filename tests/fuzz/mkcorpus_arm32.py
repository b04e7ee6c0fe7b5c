#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of fuzz_ehabi and fuzz_arm32_pagewalk.

Usage: mkcorpus_arm32.py CORPUS_DIR   (tests/fuzz/corpus)

fuzz_ehabi: the EHABI fixture ELF as is; its .ARM.exidx and .ARM.extab
with the registers and stack of test_unwind_ehabi's walk (leaf -> mid ->
top -> _start); crafted tables (generic personality, models 1 and 3,
offsets out of .ARM.extab, every spare instruction).
fuzz_arm32_pagewalk: short-descriptor tables (sections, a page table with
small and large pages, a supersection, TTBCR.N = 2) and LPAE ones (the
3G/1G split, blocks and pages, a table pointing at itself).
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, '..', 'unit', 'unwind', 'ehabi_fixture.elf')


def sections(elf):
    """name -> (addr, bytes) of a little-endian ELF32."""
    shoff, = struct.unpack_from('<I', elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', elf, 0x2e)
    hdrs = [struct.unpack_from('<IIIIIIIIII', elf, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    out = {}
    for h in hdrs:
        name = elf[strtab[4] + h[0]:].split(b'\0', 1)[0].decode()
        out[name] = (h[3], elf[h[4]:h[4] + h[5]])
    return out


def symbols(elf):
    shoff, = struct.unpack_from('<I', elf, 0x20)
    shentsize, shnum, _ = struct.unpack_from('<HHH', elf, 0x2e)
    hdrs = [struct.unpack_from('<IIIIIIIIII', elf, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for h in hdrs:
        if h[1] != 2:           # SHT_SYMTAB
            continue
        strtab = hdrs[h[6]]
        for off in range(h[4], h[4] + h[5], 16):
            name, value = struct.unpack_from('<II', elf, off)
            out[elf[strtab[4] + name:].split(b'\0', 1)[0].decode()] = value
    return out


def ehabi_input(exidx_addr, extab_addr, exidx, extab, regs, stack):
    return (struct.pack('<IIHH4x', exidx_addr, extab_addr, len(exidx), len(extab)) +
            exidx + extab + struct.pack('<16I', *regs) + stack)


def prel(target, at):
    return (target - at) & 0x7fffffff


def ehabi_corpus(out):
    elf = open(FIXTURE, 'rb').read()
    open(os.path.join(out, 'fixture_elf'), 'wb').write(elf)
    sec, sym = sections(elf), symbols(elf)
    (xa, exidx), (ea, extab) = sec['.ARM.exidx'], sec['.ARM.extab']
    # the stack of test_unwind_ehabi, from sp = base
    base = 0x7f100
    words = [0xeeeeeeee] * 300
    def put(addr, v):
        words[(addr - base) // 4] = v
    m = base + 1040 + 32
    tp = m + 8 + 16 + 8
    for i in range(7):
        put(base + 1040 + 4 * i, 0x400 + i)
    put(base + 1040 + 28, (sym['mid'] & ~1) + 12 + 1)
    put(m + 24, 0x7007)
    put(m + 28, sym['top'] + 12)
    put(tp + 28, sym['_start'] + 4)
    regs = [0] * 16
    regs[13], regs[14], regs[15] = base, 0xdead, sym['leaf_spin']
    stack = struct.pack('<%dI' % len(words), *words)
    open(os.path.join(out, 'fixture_walk'), 'wb').write(
        ehabi_input(xa, ea, exidx, extab, regs, stack))
    # crafted: generic personality with a count word, model 1 with two
    # words, model 3, an offset past .ARM.extab, an unsorted table
    X, E = 0x9000, 0xa000
    ex = b''.join([
        struct.pack('<II', prel(0x3000, X), 0x80a8b0b0),
        struct.pack('<II', prel(0x1000, X + 8), prel(E, X + 12)),
        struct.pack('<II', prel(0x2000, X + 16), prel(E + 4, X + 20)),
        struct.pack('<II', prel(0x4000, X + 24), prel(E + 20, X + 28)),
        struct.pack('<II', prel(0x5000, X + 32), prel(E + 400, X + 36)),
        struct.pack('<II', prel(0x6000, X + 40), 1),
    ])
    et = struct.pack('<IIIIIIII', 0x81028400 | 0x08, 0x9bb2ff01, 0xb0b0b0b0,  # pr1, 2 words
                     0, 0, 0x83000000, 0, 0)
    et = (struct.pack('<I', 0x80a9b0b0) + struct.pack('<I', prel(0x100, E + 4)) +
          struct.pack('<II', 0x01a8b0b0, 0x3f3f3fb0) + struct.pack('<I', 0x83000000) + et)
    regs = [0x1000 + i for i in range(16)]
    regs[13], regs[15], regs[14] = 0x7f000, 0x2004, 0x1011
    stack = struct.pack('<64I', *([0, 0x1011] * 32))
    open(os.path.join(out, 'crafted_tables'), 'wb').write(
        ehabi_input(X, E, ex, et, regs, stack))
    # every instruction byte once, as raw interpreter input and as an inline entry
    ops = bytes(range(256))
    regs[13] = 0x7f000
    open(os.path.join(out, 'all_instructions'), 'wb').write(
        ehabi_input(X, E, struct.pack('<II', 0, 0x80b2ffff), b'', regs, ops * 4))


def pagewalk_input(ttbr0, ttbr1, ttbcr, flags, vas, phys):
    return (struct.pack('<QQIB8I', ttbr0, ttbr1, ttbcr, flags, *vas) + bytes(phys))


def pagewalk_corpus(out):
    def put32(mem, addr, v):
        mem[addr:addr + 4] = struct.pack('<I', v)

    def put64(mem, addr, v):
        mem[addr:addr + 8] = struct.pack('<Q', v)

    # short descriptors, N = 0: a section, a page table with small and large pages
    mem = bytearray(0x4800)
    put32(mem, 0x0000 + 0xc01 * 4, 0x80000000 | 2)
    put32(mem, 0x0000 + 2 * 4, 0x4400 | 1)
    put32(mem, 0x4400 + 0x34 * 4, 0x7654f000 | 3)
    for i in range(0x40, 0x50):
        put32(mem, 0x4400 + i * 4, 0x12340000 | 1)
    put32(mem, 0x0000 + 0x40a * 4, 0x12000000 | 2 | (1 << 18) | (3 << 20) | (0xa << 5))
    vas = [0xc0123456, 0x00234abc, 0x0024fabc, 0x40abcdef, 0x00100000, 0x00300000, 0, 0xffffffff]
    open(os.path.join(out, 'short_n0'), 'wb').write(pagewalk_input(0, 0, 0, 0, vas, mem))
    # short, N = 2: TTBR0's 4 KiB table below 1 GiB, TTBR1's 16 KiB above
    mem = bytearray(0x8000)
    put32(mem, 0x1000 + 0x3ff * 4, 0x00100000 | 2)
    put32(mem, 0x4000 + 0xc00 * 4, 0x00900000 | 2)
    vas = [0x3ff00010, 0xc0000010, 0x40000000, 0x80000000, 0, 0, 0, 0]
    open(os.path.join(out, 'short_n2'), 'wb').write(
        pagewalk_input(0x1059, 0x401b, 2, 0, vas, mem))
    # LPAE, the 3G/1G split: a 2 MiB block, a page, a 1 GiB block
    mem = bytearray(0x4000)
    put64(mem, 0x0000, 0x1000 | 3)
    put64(mem, 0x1008, 0x00a00000 | 1 | (1 << 10))
    put64(mem, 0x2000, 0x3000 | 3)
    put64(mem, 0x3000 + 0x12 * 8, 0xff12345000 | 3)
    put64(mem, 0x0010, 0x40000000 | 1)
    vas = [0x00312345, 0xc0012abc, 0x80001234, 0xbfffffff, 0x40000000, 0, 0xc0000000, 0xffffffff]
    open(os.path.join(out, 'lpae_3g1g'), 'wb').write(
        pagewalk_input(0 | (5 << 48), 0x2000, 0x80000000 | (2 << 16), 0, vas, mem))
    # LPAE tables pointing at themselves, and an output beyond 40 bits
    mem = bytearray(0x1000)
    put64(mem, 0x0, 0x0 | 3)
    put64(mem, 0x8, 0x10000000000 | 1)
    vas = [0, 0x40000000, 0x1000, 0x200000, 0, 0, 0, 0]
    open(os.path.join(out, 'lpae_loop'), 'wb').write(
        pagewalk_input(0, 0, 0x80000000, 0, vas, mem))


def main():
    root = sys.argv[1]
    for name, fill in (('fuzz_ehabi', ehabi_corpus), ('fuzz_arm32_pagewalk', pagewalk_corpus)):
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        fill(d)


if __name__ == '__main__':
    main()
