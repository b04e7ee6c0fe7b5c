/* SPDX-License-Identifier: GPL-2.0-only */
/* arch.c - the guest architectures this build knows, and the native one. */
#include "config.h"

#include <string.h>

#include "arch/xu_arch.h"

/* Every architecture's page walk and frame rules are built on every host. */
static const struct xu_arch_ops *const arches[] = {
    &xu_arch_x86_64,
    &xu_arch_x86_32,
    &xu_arch_arm64,
    &xu_arch_arm32,
};

const struct xu_arch_ops *xu_arch_native(void)
{
#if defined(__x86_64__)
    return &xu_arch_x86_64;
#elif defined(__aarch64__)
    return &xu_arch_arm64;
#else
    return NULL;            /* configure refuses other hosts */
#endif
}

const struct xu_arch_ops *xu_arch_by_name(const char *name)
{
    size_t i;

    for (i = 0; name && i < sizeof(arches) / sizeof(arches[0]); i++)
        if (strcmp(arches[i]->name, name) == 0)
            return arches[i];
    return NULL;
}

const struct xu_arch_ops *xu_arch_by_elf_machine(unsigned int machine)
{
    size_t i;

    for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
        if (arches[i]->elf_machine == machine)
            return arches[i];
    return NULL;
}

const char *xu_mem_fault_name(enum xu_mem_fault f)
{
    switch (f) {
    case XU_MEM_OK:            return "ok";
    case XU_MEM_NOT_PRESENT:   return "not present";
    case XU_MEM_RESERVED:      return "reserved bits set";
    case XU_MEM_BAD_FRAME:     return "bad frame";
    case XU_MEM_MAP_FAILED:    return "frame could not be mapped";
    case XU_MEM_UNSUPPORTED:   return "unsupported paging mode";
    case XU_MEM_NON_CANONICAL: return "non-canonical address";
    }
    return "unknown";
}
