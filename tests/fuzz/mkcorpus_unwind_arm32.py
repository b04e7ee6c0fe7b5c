#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes the seed inputs of fuzz_unwind_arm32 (its header comment gives the
# layout) into DIR: frame-pointer chains of GCC ARM, clang ARM and GCC
# Thumb-2 frames (the last also through auto), each with its prologues as
# code, and a looping chain.
import os
import struct
import sys

TEXT, FUNC_BYTES, NR_FUNCS = 0x8000, 64, 8
GCC_ARM = [0xe92d4800, 0xe28db004, 0xe24dd008]      # push {fp, lr}; add fp, sp, #4; sub sp, #8
CLANG_ARM = [0xe92d4800, 0xe1a0b00d, 0xe24dd008]    # push {r11, lr}; mov r11, sp; sub sp, #8
GCC_THUMB = [0xb580, 0xb082, 0xaf00]                # push {r7, lr}; sub sp, #8; add r7, sp, #0


def code(funcs):
    """funcs: (words, thumb) per function; each ends in a call.  Returns
    the code and each function's return address after its call."""
    out, rets = bytearray(NR_FUNCS * FUNC_BYTES), []
    for i, (insns, thumb) in enumerate(funcs):
        at = i * FUNC_BYTES
        if thumb:
            body = b''.join(struct.pack('<H', h) for h in insns + [0xbf00, 0xf7ff, 0xfffe])
            rets.append((TEXT + at + len(body)) | 1)
        else:
            body = b''.join(struct.pack('<I', w) for w in insns + [0xe1a00000, 0xebfffffe])
            rets.append(TEXT + at + len(body))
        out[at:at + len(body)] = body
    return bytes(out), rets


def seed(flags, mask, ip, sp, r7, r11, lr, text, words):
    mem = bytearray(0x1000)
    for addr, value in words.items():
        mem[addr:addr + 4] = struct.pack('<I', value & 0xffffffff)
    return struct.pack('<BBBIIIII', flags, mask, 0, ip, sp, r7, r11, lr) + text + bytes(mem)


def main(d):
    os.makedirs(d, exist_ok=True)
    seeds = {}
    # GCC ARM: fp at the saved lr, the caller's fp below it; entry sps 0x800, 0x840, 0x880
    text, rets = code([(GCC_ARM, False)] * 3)
    e = [0x800, 0x840, 0x880]
    words = {e[2] - 8: 0, e[2] - 4: 0, e[1] - 8: e[2] - 4, e[1] - 4: rets[0],
             e[0] - 8: e[1] - 4, e[0] - 4: rets[1]}
    seeds['gcc_arm'] = seed(6, 0, TEXT + 2 * FUNC_BYTES + 12, e[0] - 16, 0, e[0] - 4, 0, text, words)
    # clang ARM: fp at {fp, lr}
    text, rets = code([(CLANG_ARM, False)] * 3)
    words = {e[2] - 8: 0, e[2] - 4: 0, e[1] - 8: e[2] - 8, e[1] - 4: rets[0],
             e[0] - 8: e[1] - 8, e[0] - 4: rets[1]}
    seeds['clang_arm'] = seed(6, 0, TEXT + 2 * FUNC_BYTES + 12, e[0] - 16, 0, e[0] - 8, 0, text, words)
    # GCC Thumb-2: r7 below 8 bytes of locals
    text, rets = code([(GCC_THUMB, True)] * 3)
    words = {e[2] - 8: 0, e[2] - 4: 0, e[1] - 8: e[2] - 16, e[1] - 4: rets[0],
             e[0] - 8: e[1] - 16, e[0] - 4: rets[1]}
    seeds['gcc_thumb'] = seed(7, 0x07, TEXT + 2 * FUNC_BYTES + 6, e[0] - 16, e[0] - 16, 0, 0, text, words)
    # the same through the auto unwinder (no CFI rows: its frame-pointer steps)
    seeds['gcc_thumb_auto'] = seed(15, 0x07, TEXT + 2 * FUNC_BYTES + 6, e[0] - 16, e[0] - 16, 0, 0,
                                   text, words)
    # a record pointing at itself
    text, rets = code([(GCC_ARM, False)])
    words = {0x800 - 8: 0x800 - 4, 0x800 - 4: rets[0]}
    seeds['loop'] = seed(6, 0, TEXT + 12, 0x800 - 16, 0, 0x800 - 4, 0, text, words)
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'tests/fuzz/corpus/fuzz_unwind_arm32')
