/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_unwind.c - the page walks (x86-64, arm64) and the unwinders on a guest
 * whose registers, page tables, CFI and stack come from the input.
 *
 * The simulated guest (tests/helpers) starts with real tables mapping one
 * text page and STACK_PAGES stack pages: x86-64 four-level ones, or with the
 * header's arm64 bit AArch64 TTBR1 ones of a 4, 16 or 64 KiB granule at
 * kernel addresses; the input then
 *
 *   header  flags, counts, and the vCPU's registers (fill_regs)
 *   rows    CFI rows for the text page (struct in_row each)
 *   ptes    entries written over the tables on the way to a chosen page,
 *           at a chosen level (struct in_pte each): hostile tables
 *   words   raw 64-bit words written into chosen physical frames
 *   stack   the rest: the top of the stack
 *
 * and the walk runs with the frame-pointer, CFI or auto unwinder, followed
 * by translations and reads of the addresses the input names, and a Linux
 * task read (xu_task_read.h) whose per-CPU area is on the input's stack,
 * so that the task pointer and what it leads to are the input's too.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim_arm64.h"
#include "sim_guest.h"
#include "mem/xu_mem.h"
#include "sample/xu_task_read.h"
#include "unwind/xu_unwind.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif

#define NR_FRAMES 32
#define STACK_PAGES 8
#define STACK_LEN ((uint64_t)STACK_PAGES << 12)
#define MAX_ROWS 16
#define MAX_PTES 8
#define MAX_WORDS 16
#define MAX_DEPTH 64
/* arm64: kernel addresses through TTBR1, as the lab's arm64 guests have them */
#define A64_FRAMES 512
#define A64_TEXT 0xffff800008000000ULL
#define A64_STACK 0xffff800010000000ULL

/* Everything fixed-size is read little-endian from the input as is. */
struct in_header {
    uint8_t flags;              /* bits 0-1 unwinder, 2 PV, 3-5 paging, 6 absolute regs,
                                 * 7 arm64 (3-5: granule 4/16/64 KiB, 6-7 MMU off) */
    uint8_t nrows, nptes, nwords;
    uint8_t depth;              /* max depth, 0 = MAX_DEPTH */
    uint8_t env;                /* bit 0 hypercall page, 1 an upcall entry, 2 code bytes,
                                 * 3 function starts (every 64 bytes, but not the entry),
                                 * 4 the task read as of a vCPU in user mode */
    uint8_t entry_at, entry_len; /* the upcall entry in the text page, 16-byte units */
    uint64_t ip, sp, fp, pt_root;   /* arm64: pt_root is x30 in absolute mode */
} __attribute__((packed));

struct in_row {
    uint16_t start, len;        /* offsets into the text page */
    uint8_t kind, reg_ra_fp_sp; /* enums packed two bits each */
    uint8_t signal, pad;
    int16_t cfa_off, ra_off, fp_off, sp_off;
} __attribute__((packed));

struct in_pte {
    uint8_t page;               /* 0..STACK_PAGES-1 a stack page, else the text page */
    uint8_t level;              /* 1..4 */
    uint64_t pte;
} __attribute__((packed));

struct in_word {
    uint8_t frame;              /* physical frame, modulo NR_FRAMES */
    uint16_t index;             /* 64-bit word in it, modulo 512 */
    uint64_t value;
} __attribute__((packed));

struct cursor {
    const uint8_t *p;
    size_t left;
};

/* Where the guest's text page and stack are, and how to write its memory. */
struct guest {
    struct xu_sim *sim;
    struct sim_guest x86;       /* x86-64: tables and target helpers */
    struct sim_a64 a64;         /* arm64: the TTBR1 range */
    bool arm64;
    uint64_t text, stack;       /* text page, lowest stack address */
    uint64_t root;              /* x86: CR3; arm64: TTBR1 */
};

static bool take(struct cursor *c, void *out, size_t len)
{
    if (c->left < len)
        return false;
    memcpy(out, c->p, len);
    c->p += len;
    c->left -= len;
    return true;
}

/*
 * The registers of the stopped vCPU: the one place that knows the layout
 * of struct xu_vcpu_regs.  Relative mode (the default) puts ip in the text
 * page and sp/fp in the stack, where a mutation has a chance to mean
 * something; absolute mode takes the values as they are.
 */
static void fill_regs(const struct in_header *h, const struct guest *g,
                      struct xu_vcpu_regs *regs)
{
    static const enum xu_paging_mode modes[] = {
        XU_PAGING_LONG4, XU_PAGING_LONG4, XU_PAGING_LONG4, XU_PAGING_LONG5,
        XU_PAGING_NONE, XU_PAGING_32, XU_PAGING_PAE, XU_PAGING_LONG4,
    };
    unsigned int mode = (h->flags >> 3) & 7;
    uint64_t top = g->stack + STACK_LEN;

    memset(regs, 0, sizeof(*regs));
    regs->online = true;
    regs->kernel_mode = true;
    regs->mmu.paging = modes[mode];
    if (g->arm64) {
        regs->mmu.paging = mode < 6 ? XU_PAGING_ARM64 : XU_PAGING_NONE;
        regs->mmu.ctl = sim_a64_tcr(g->a64.granule_shift, 48, g->a64.granule_shift, 48);
    }
    if (h->flags & 64) {
        regs->ip = h->ip;
        regs->sp = h->sp;
        regs->fp = h->fp;
        if (g->arm64) {
            regs->lr = h->pt_root;
            regs->mmu.root_hi = g->root;
        } else {
            regs->mmu.root = h->pt_root;
        }
    } else {
        regs->ip = g->text + (h->ip & 0xfff);
        regs->sp = top - (h->sp % STACK_LEN);
        regs->fp = h->fp & 1 ? h->fp : top - (h->fp % STACK_LEN);
        if (g->arm64) {
            regs->lr = g->text + (h->pt_root & 0xfff);
            regs->mmu.root_hi = g->root;
        } else {
            regs->mmu.root = h->pt_root & 1 ? (h->pt_root & ~0xfffULL) : g->root;
        }
    }
}

/* The ELF's code as the fuzzer says it is: the header's instruction pointer's
 * bytes, repeated (hostile bytes for the prologue and call decoders). */
static uint8_t fuzz_code_bytes[512];
static struct xu_code_range fuzz_entry;     /* labels, not functions */

static const uint8_t *fuzz_code(const void *ctx, uint64_t addr, size_t len)
{
    (void)ctx;
    (void)addr;
    return len <= sizeof(fuzz_code_bytes) ? fuzz_code_bytes : NULL;
}

static bool fuzz_func_start(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    (void)ctx;
    (void)thumb;
    if (pc >= fuzz_entry.start && pc < fuzz_entry.end)
        return false;
    *start = pc & ~63ULL;
    return true;
}

/* What the ELF would tell the unwinders: the text page as code, and as the
 * hypercall page, an upcall entry inside it, the code's bytes, as the
 * header's env bits say. */
static void fill_env(const struct in_header *h, const struct guest *g,
                     const struct xu_cfi_table *cfi, struct xu_unwind_env *env)
{
    uint64_t at = g->text + 16ULL * (h->entry_at % 256);

    memset(env, 0, sizeof(*env));
    env->cfi = cfi;
    env->text[0].start = g->text;
    env->text[0].end = g->text + 4096;
    env->nr_text = 1;
    if (h->env & 1) {
        env->hypercall_page.start = g->text;
        env->hypercall_page.end = g->text + 4096;
    }
    if (h->env & 2) {
        env->boundary[0].start = at;
        env->boundary[0].end = at + 16ULL * (h->entry_len % 16 + 1);
        env->nr_boundary = 1;
    }
    if (h->env & 4) {
        for (size_t i = 0; i < sizeof(fuzz_code_bytes); i++)
            fuzz_code_bytes[i] = (uint8_t)(h->ip >> (8 * (i % 8)));
        env->code = fuzz_code;
    }
    if (h->env & 8) {
        fuzz_entry.start = at;
        fuzz_entry.end = at + 16ULL * (h->entry_len % 16 + 1);
        env->func_start = fuzz_func_start;
    }
}

#ifdef HAVE_LIBDW
static struct xu_cfi_table *make_cfi(struct cursor *c, unsigned int nrows, uint64_t text)
{
    struct xu_cfi_row rows[MAX_ROWS];
    struct xu_cfi_table *t = NULL;
    unsigned int i, n = 0;

    for (i = 0; i < nrows; i++) {
        struct in_row r;
        struct xu_cfi_row *o = &rows[n];

        if (!take(c, &r, sizeof(r)))
            break;
        memset(o, 0, sizeof(*o));
        o->start = text + (r.start & 0xfff);
        o->end = o->start + (r.len & 0xfff);
        o->kind = (enum xu_cfi_kind)(r.kind % 3);
        o->cfa_reg = (enum xu_cfi_reg)(r.reg_ra_fp_sp & 1);
        o->ra = (enum xu_cfi_ra)((r.reg_ra_fp_sp >> 2) & 1);
        o->fp = (enum xu_cfi_fp)(((r.reg_ra_fp_sp >> 4) & 3) % 3);
        o->sp = (enum xu_cfi_sp)((r.reg_ra_fp_sp >> 6) & 1);
        o->cfa_off = r.cfa_off;
        o->ra_off = r.ra_off;
        o->fp_off = r.fp_off;
        o->sp_off = r.sp_off;
        o->signal = r.signal & 1;
        n++;
    }
    if (xu_cfi_from_rows(rows, n, NULL, &t) < 0)
        return NULL;
    return t;
}
#endif

static void hostile_tables(struct guest *g, struct cursor *c, unsigned int nptes,
                           unsigned int nwords)
{
    unsigned int i;

    for (i = 0; i < nptes; i++) {
        struct in_pte e;
        uint64_t va;

        if (!take(c, &e, sizeof(e)))
            return;
        va = e.page < STACK_PAGES ? g->stack + ((uint64_t)e.page << 12) : g->text;
        if (g->arm64)
            sim_a64_set(&g->a64, va, e.level % 4, e.pte);
        else
            xu_sim_set_pte(g->sim, g->root, va, 1 + e.level % 4, e.pte);
    }
    for (i = 0; i < nwords; i++) {
        struct in_word w;
        uint64_t *frame;

        if (!take(c, &w, sizeof(w)))
            return;
        frame = xu_sim_frame(g->sim, w.frame % (g->arm64 ? A64_FRAMES : NR_FRAMES));
        if (frame)
            frame[w.index % 512] = w.value;
    }
}

/* The guest of the header's kind with its text page and stack mapped, and a
 * target on it; false when the simulator has no room. */
static bool guest_init(struct guest *g, const struct in_header *h, struct xu_target *t)
{
    static const unsigned int granules[] = { 12, 14, 16 };

    memset(g, 0, sizeof(*g));
    g->arm64 = h->flags & 128;
    if (g->arm64) {
        g->text = A64_TEXT;
        g->stack = A64_STACK;
        g->sim = xu_sim_new(XU_GUEST_HVM, A64_FRAMES, 1);
        if (!g->sim)
            return false;
        xu_sim_set_arch(g->sim, &xu_arch_arm64);
        if (sim_a64_init(&g->a64, g->sim, granules[((h->flags >> 3) & 7) % 3], 48) < 0 ||
            sim_a64_map_range(&g->a64, g->stack, STACK_LEN) < 0 ||
            sim_a64_map_range(&g->a64, g->text, 4096) < 0)
            goto fail;
        g->root = g->a64.root;
    } else {
        g->text = SIM_TEXT_BASE;
        g->stack = SIM_STACK_BASE;
        if (sim_guest_init(&g->x86, h->flags & 4 ? XU_GUEST_PV : XU_GUEST_PVH, 1,
                           NR_FRAMES) < 0)
            return false;
        g->sim = g->x86.sim;
        g->root = g->x86.root;
        if (xu_sim_map_range(g->sim, g->root, g->stack, STACK_LEN) < 0 ||
            xu_sim_map_range(g->sim, g->root, g->text, 4096) < 0)
            goto fail;
    }
    if (xu_sim_target_open(g->sim, t, xu_fuzz_log()) < 0)
        goto fail;
    return true;
fail:
    if (g->arm64)
        xu_sim_free(g->sim);
    else
        sim_guest_fini(&g->x86);
    return false;
}

static void guest_fini(struct guest *g)
{
    if (g->arm64)
        xu_sim_free(g->sim);
    else
        sim_guest_fini(&g->x86);
}

static void guest_write(struct guest *g, uint64_t va, const void *buf, size_t len)
{
    if (g->arm64)
        sim_a64_write(&g->a64, va, buf, len);
    else
        xu_sim_write(g->sim, g->root, va, buf, len);
}

/* The current task, with offsets and the per-CPU base taken from the header. */
static void read_task(struct xu_mem *m, const struct in_header *h, const struct guest *g,
                      const struct xu_vcpu_regs *regs)
{
    struct xu_linux_task_layout l = {
        .pid_offset = (uint32_t)(h->sp >> 12) & 0xfff, .pid_size = 4,
        .comm_offset = (uint32_t)(h->sp >> 24) & 0xfff, .comm_size = 16,
        .current_task = h->fp & 0xff8, .current_from = "current_task",
    };
    struct xu_vcpu_regs r = *regs;
    char comm[XU_TASK_COMM];
    int32_t pid;

    r.kernel_percpu = g->stack + (h->ip & (STACK_LEN - 1));
    r.kernel_mode = !(h->env & 0x10);
    xu_task_read_linux(m, &r, &l, &pid, comm);
}

static void probe(struct xu_mem *m, uint64_t va)
{
    uint64_t frame, v;
    uint8_t buf[24];

    xu_mem_translate(m, va, &frame);
    xu_mem_read_u64(m, va, &v);
    /* across a page boundary */
    xu_mem_read(m, (va | 0xfff) - 7, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cursor c = { data, size }, tables;
    struct in_header h;
    struct guest g;
    struct xu_target t;
    struct xu_mem *m = NULL;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[MAX_DEPTH];
    void *cfi = NULL;
    struct xu_unwind_env env;
    const struct xu_unwinder_ops *ops = &xu_unwind_fp_ops;
    size_t stack_len, skip;

    if (!take(&c, &h, sizeof(h)))
        return 0;
    if (!guest_init(&g, &h, &t))
        return 0;
#ifdef HAVE_LIBDW
    cfi = make_cfi(&c, h.nrows % (MAX_ROWS + 1), g.text);
    if ((h.flags & 3) == 1 && cfi)
        ops = &xu_unwind_cfi_ops;
    else if ((h.flags & 3) >= 2)
        ops = &xu_unwind_auto_ops;
#endif
    /* the stack goes in while the tables still map it, then the tables break */
    tables = c;
    skip = (size_t)(h.nptes % (MAX_PTES + 1)) * sizeof(struct in_pte) +
           (size_t)(h.nwords % (MAX_WORDS + 1)) * sizeof(struct in_word);
    skip = skip < c.left ? skip : c.left;
    c.p += skip;
    c.left -= skip;
    stack_len = c.left < STACK_LEN ? c.left : STACK_LEN;
    if (stack_len)
        guest_write(&g, g.stack + STACK_LEN - stack_len, c.p, stack_len);
    hostile_tables(&g, &tables, h.nptes % (MAX_PTES + 1), h.nwords % (MAX_WORDS + 1));
    fill_regs(&h, &g, &regs);
    fill_env(&h, &g, cfi, &env);

    m = xu_mem_new(&t, NULL);
    if (m) {
        xu_mem_begin(m);
        xu_mem_set_context(m, &regs);
        ops->walk(&env, m, &regs, pcs, h.depth && h.depth < MAX_DEPTH ? h.depth : MAX_DEPTH,
                  &res);
        probe(m, regs.ip);
        probe(m, regs.sp);
        probe(m, regs.fp);
        probe(m, h.ip);
        probe(m, h.sp);
        read_task(m, &h, &g, &regs);
        xu_mem_free(m);
    }
#ifdef HAVE_LIBDW
    xu_cfi_free(cfi);
#endif
    xu_target_close(&t);
    guest_fini(&g);
    return 0;
}
