/* SPDX-License-Identifier: GPL-2.0-only */
/* ratio_kernel.c - the simulated guest's kernel (see ratio_kernel.h). */
#include "config.h"

#include "ratio_kernel.h"
#include "sim_guest.h"

#define T SIM_TEXT_BASE

const struct mkelf_sym ratio_kernel_syms[RATIO_KERNEL_NSYMS] = {
    { "_start",       T + 0x000, 0,    STT_NOTYPE, STB_GLOBAL, 0 },
    { "start_kernel", T + 0x100, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "main_loop",    T + 0x200, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_1",   T + 0x300, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_2",   T + 0x400, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_3",   T + 0x500, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
};

static const uint8_t call_rel32[5] = { 0xe8, 0, 0, 0, 0 };

const struct mkelf_patch ratio_kernel_calls[RATIO_KERNEL_NCALLS] = {
    { T + 0x010 - 5, call_rel32, 5 }, { T + 0x130 - 5, call_rel32, 5 },
    { T + 0x220 - 5, call_rel32, 5 }, { T + 0x228 - 5, call_rel32, 5 },
    { T + 0x280 - 5, call_rel32, 5 },
};

const uint64_t ratio_kernel_in_f1[RATIO_KERNEL_DEPTH] = { T + 0x310, T + 0x220, T + 0x130,
                                                          T + 0x010 };
const uint64_t ratio_kernel_in_f2[RATIO_KERNEL_DEPTH] = { T + 0x410, T + 0x228, T + 0x130,
                                                          T + 0x010 };
const uint64_t ratio_kernel_in_f3[RATIO_KERNEL_DEPTH] = { T + 0x510, T + 0x280, T + 0x130,
                                                          T + 0x010 };

int ratio_kernel_write(const char *path, const char *const *names, unsigned int flags)
{
    const struct mkelf_section text = { ".text", T, 0x1000, false };
    struct mkelf_sym named[RATIO_KERNEL_NSYMS];
    size_t i;

    for (i = 0; i < RATIO_KERNEL_NSYMS; i++) {
        named[i] = ratio_kernel_syms[i];
        if (names)
            named[i].name = names[i];
    }
    return mkelf_write_patched(path, &text, 1, ratio_kernel_calls, RATIO_KERNEL_NCALLS,
                               named, RATIO_KERNEL_NSYMS, flags);
}
