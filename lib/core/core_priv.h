/* SPDX-License-Identifier: GPL-2.0-only */
/* core_priv.h - between the core reader's files, not for callers. */
#ifndef XU_CORE_PRIV_H
#define XU_CORE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/xu_arch.h"
#include "core/xu_core.h"

/* A guest architecture whose cores this build reads: its ELF machine, the
 * size of one vCPU context in .xen_prstatus, and its decoder (arch/). */
struct xu_core_arch {
    uint16_t machine;
    const struct xu_arch_ops *ops;
    size_t context_size;
    void (*decode)(const void *context, bool hvm, struct xu_vcpu_regs *out);
};

const struct xu_core_arch *xu_core_arch_by_machine(unsigned int machine);
/* "x86_64 and arm64", for messages. */
const char *xu_core_arch_names(void);

struct xu_core_entry {
    uint64_t frame;     /* the number the guest's page tables hold */
    uint64_t page;      /* index into .xen_pages */
};

struct xu_core {
    const uint8_t *buf;
    uint64_t pages_off;
    const struct xu_core_arch *arch;
    enum xu_guest_type type;
    struct xu_vcpu_regs *vcpus;
    unsigned int nr_vcpus;
    struct xu_core_entry *entries;      /* sorted by frame */
    size_t nr_entries;
    uint64_t nr_pages, invalid;
    unsigned int xen_major, xen_minor;
};

#endif
