/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_orc.c - hostile ORC tables and hostile kernel stacks.
 *
 * An input that is an ELF file is read as a vmlinux (xu_orc_from_memory:
 * its sections, its version string, the tables) and looked up at
 * addresses spread over its text.  Any other input is
 *
 *   header   struct in_header: the layout, the kernel version, the vCPU's
 *            registers (relative to the text and the stack), the depth
 *   hash     20 bytes of .orc_header, when the header's flags say so
 *   ip       nentries s32 (.orc_unwind_ip, placed just after the text)
 *   orc      nentries 6-byte entries (.orc_unwind)
 *   stack    the rest: the top of the vCPU's stack, whose first
 *            CODE_BYTES are also the code at the vCPU's pc (what the walk
 *            decodes where the tables mark the end of the stack,
 *            orc_stubs.c)
 *
 * whose tables, when they check out, drive the ORC walk over the stack on
 * the simulated guest, directly and through the unwinder seam.  The stub
 * decoder is also given the stack bytes as they are, at every offset.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim_guest.h"
#include "mem/xu_mem.h"
#include "unwind/orc_stubs.h"
#include "unwind/xu_orc.h"
#include "unwind/xu_unwind.h"

#define TEXT SIM_TEXT_BASE
#define TEXT_LEN 0x1000ULL
#define STACK (SIM_STACK_BASE + 0x100000ULL)
#define STACK_LEN 0x8000ULL
#define OTHER_STACK (SIM_STACK_BASE + 0x200000ULL)
#define MAX_DEPTH 64
#define LOOKUPS 64
#define CODE_BYTES 32

struct in_header {
    uint8_t flags;              /* bits 0-1 layout (3: from version/entries), 2 hash
                                 * follows, 3 vCPU in user mode */
    uint8_t nentries;
    uint16_t version;           /* major << 8 | minor, 0 unknown */
    uint16_t ip;                /* offset into the text */
    uint16_t sp, fp;            /* below the stack's top; fp odd: taken as is */
    uint8_t depth;              /* 0 = MAX_DEPTH */
} __attribute__((packed));

static void elf(const uint8_t *data, size_t size)
{
    struct xu_orc_table *t = NULL;
    struct xu_orc_stats st;
    struct xu_orc_entry e;
    uint64_t start;
    int i;

    if (xu_orc_from_memory(data, size, &t, NULL, 0) < 0)
        return;
    xu_orc_get_stats(t, &st);
    for (i = 0; i < LOOKUPS; i++)
        xu_orc_lookup(t, 0xffffffff81000000ULL + (uint64_t)i * 0x1001, &e, &start);
    xu_orc_free(t);
}

static struct xu_orc_table *tables(const struct in_header *h, const uint8_t **p, size_t *left)
{
    struct xu_orc_sections s = { 0 };
    struct xu_orc_table *t = NULL;
    size_t n = h->nentries;

    if (h->flags & 4) {
        if (*left < XU_ORC_HEADER_SIZE)
            return NULL;
        s.header = *p;
        s.header_len = XU_ORC_HEADER_SIZE;
        *p += XU_ORC_HEADER_SIZE;
        *left -= XU_ORC_HEADER_SIZE;
    }
    if (*left < n * (4 + XU_ORC_ENTRY_SIZE))
        return NULL;
    s.ip = *p;
    s.ip_len = 4 * n;
    s.ip_addr = TEXT + TEXT_LEN;
    s.orc = *p + 4 * n;
    s.orc_len = XU_ORC_ENTRY_SIZE * n;
    *p += n * (4 + XU_ORC_ENTRY_SIZE);
    *left -= n * (4 + XU_ORC_ENTRY_SIZE);
    s.text_start = TEXT;
    s.text_end = TEXT + TEXT_LEN;
    s.version = h->version;
    s.layout_given = (h->flags & 3) != 3;
    s.layout = (enum xu_orc_layout)(h->flags & 3);
    if (xu_orc_from_sections(&s, &t, NULL, 0) < 0)
        return NULL;
    return t;
}

static void stubs(const uint8_t *code, size_t len)
{
    struct xu_orc_stub stub;
    size_t i;

    for (i = 0; i < len && i < CODE_BYTES; i++)
        xu_orc_stub_decode(code + i, len - i, TEXT + i, &stub);
}

static void walk(const struct in_header *h, const struct xu_orc_table *t, const uint8_t *stack,
                 size_t len)
{
    struct sim_guest g;
    struct xu_target target = { 0 };
    struct xu_mem *m = NULL;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct xu_unwind_env env = { 0 };
    uint64_t pcs[MAX_DEPTH];
    unsigned int depth = h->depth % MAX_DEPTH ? h->depth % MAX_DEPTH : MAX_DEPTH;
    const uint64_t top = STACK + STACK_LEN;

    if (sim_guest_init(&g, XU_GUEST_PVH, 1, 0) < 0)
        return;
    if (len > STACK_LEN)
        len = STACK_LEN;
    if (xu_sim_map_range(g.sim, g.root, STACK, STACK_LEN) < 0 ||
        xu_sim_map_range(g.sim, g.root, OTHER_STACK, 0x2000) < 0 ||
        xu_sim_map_range(g.sim, g.root, TEXT, TEXT_LEN + 0x1000) < 0 ||
        (len && xu_sim_write(g.sim, g.root, top - len, stack, len) < 0) ||
        (len && xu_sim_write(g.sim, g.root, TEXT + h->ip % TEXT_LEN, stack,
                             len < CODE_BYTES ? len : CODE_BYTES) < 0) ||
        xu_sim_target_open(g.sim, &target, NULL) < 0)
        goto out;
    m = xu_mem_new(&target, NULL);
    if (!m)
        goto out;
    memset(&regs, 0, sizeof(regs));
    regs.online = true;
    regs.kernel_mode = !(h->flags & 8);
    regs.mmu.paging = XU_PAGING_LONG4;
    regs.mmu.root = g.root;
    regs.ip = TEXT + h->ip % TEXT_LEN;
    regs.sp = top - h->sp % STACK_LEN;
    regs.fp = h->fp & 1 ? h->fp : top - h->fp % STACK_LEN;
    xu_mem_begin(m);
    xu_mem_set_context(m, &regs);
    xu_orc_walk(t, m, &regs, pcs, depth, &res, NULL);
    env.orc = t;
    xu_mem_begin(m);
    xu_unwind_orc_ops.walk(&env, m, &regs, pcs, depth, &res);
out:
    xu_mem_free(m);
    if (target.ops)
        xu_target_close(&target);
    sim_guest_fini(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in_header h;
    struct xu_orc_table *t;
    const uint8_t *p;
    size_t left;

    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0) {
        elf(data, size);
        return 0;
    }
    if (size < sizeof(h))
        return 0;
    memcpy(&h, data, sizeof(h));
    p = data + sizeof(h);
    left = size - sizeof(h);
    t = tables(&h, &p, &left);
    if (!t)
        return 0;
    stubs(p, left);
    walk(&h, t, p, left);
    xu_orc_free(t);
    return 0;
}
