/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_core.c - an xl dump-core file, as `xen-uniprof stack --core` reads
 * it: the core opened as a target (sections, notes, contexts, the frame
 * index), then every vCPU's registers, its stack walked with frame
 * pointers through mem/ and the architecture's page walk over the core's
 * pages, and a few frames looked up by numbers taken from the input.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "core/xu_core.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"

#define MAX_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_target t;
    struct xu_domain_info info;
    struct xu_vcpu_regs r;
    struct xu_unwind_result res;
    struct xu_mem *m = NULL;
    uint64_t pcs[MAX_DEPTH], frame;
    unsigned int v;
    size_t i;

    if (xu_core_target_open_buffer(&t, data, size, "fuzz", xu_fuzz_log(), NULL) < 0)
        return 0;
    if (xu_target_info(&t, &info) < 0 || !(m = xu_mem_new(&t, NULL)))
        goto out;
    for (v = 0; v <= info.max_vcpu_id && v < XU_MAX_VCPUS; v++) {
        if (xu_target_vcpu_regs(&t, v, &r) < 0 || !r.online)
            continue;
        xu_mem_begin(m);
        xu_mem_set_context(m, &r);
        xu_unwind_fp(NULL, m, &r, pcs, MAX_DEPTH, &res);
    }
    /* frame numbers from the input's last bytes: found or not, never out of bounds */
    for (i = 0; i + 8 <= size && i < 64; i += 8) {
        const uint8_t *p;

        memcpy(&frame, data + size - 8 - i, 8);
        p = t.ops->map_frame(&t, frame);
        if (p)
            (void)*(volatile const uint8_t *)(p + 4095);
    }
out:
    xu_mem_free(m);
    xu_target_close(&t);
    return 0;
}
