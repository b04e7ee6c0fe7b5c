/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_cfi.c - CFI compiled from real assembler CFI, walked over
 * stacks laid out in the simulated guest exactly as the code would have.
 *
 * The fixture (cfi_fixture.S, linked at build time) has push/pop sequences,
 * a frame-pointer function, a function using rbp as a plain register, a
 * frameless one with two epilogues (remember/restore state), a leaf, an
 * interrupt stub marked as a signal frame, and code without CFI.  The same
 * source is linked once with .eh_frame and once with .debug_frame.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dwarf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "expect_walk.h"

#include "sim_guest.h"
#include "unwind/cfi_priv.h"
#include "unwind/xu_cfi.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"

#define FIXTURE     XU_TEST_CFI_FIXTURE_DIR "/cfi_fixture.elf"
#define FIXTURE_DBG XU_TEST_CFI_FIXTURE_DIR "/cfi_fixture_dbg.elf"
/* linked with --eh-frame-hdr: libdw finds its FDEs through the hdr's table */
#define FIXTURE_HDR XU_TEST_CFI_FIXTURE_DIR "/cfi_fixture_hdr.elf"
/* the same source assembled and linked by clang: .eh_frame is then of type
 * SHT_X86_64_UNWIND; absent when configure found no clang */
#define FIXTURE_CLANG XU_TEST_CFI_FIXTURE_DIR "/cfi_fixture_clang.elf"

/* Two stacks of our own, away from sim_guest's: the interrupt stack is the
 * higher one, so returning from an interrupt moves the stack pointer down. */
#define TASK_STACK  0xffffc90100000000ULL
#define INTR_STACK  0xffffc90100100000ULL
#define STACK_BYTES 0x10000ULL

/* drops every message: hostile inputs are expected to complain */
static struct xu_log quiet_log = { .emit = NULL, .min_level = XU_LOG_ERROR };

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_cfi_table *cfi;       /* from .eh_frame */
    struct xu_cfi_table *cfi_dbg;   /* from .debug_frame */
    uint8_t *image;                 /* FIXTURE's bytes, for corrupting copies */
    size_t image_size;
};

static struct xu_log *quiet(void)
{
    return &quiet_log;
}

/* ------------------------------------------------------------------ symbols */

/* The file sym() reads: the fixture whose rules are being checked. */
static const char *sym_file = FIXTURE;

/* Address of a global label of the fixture, read with libelf. */
static uint64_t sym(const char *name)
{
    int fd = open(sym_file, O_RDONLY);
    Elf *elf;
    Elf_Scn *scn = NULL;
    uint64_t addr = 0;

    assert_true(fd >= 0);
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(elf);
    while ((scn = elf_nextscn(elf, scn)) && !addr) {
        GElf_Shdr sh;
        Elf_Data *d;
        size_t i;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        d = elf_getdata(scn, NULL);
        for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym s;
            const char *n;

            if (!gelf_getsym(d, (int)i, &s))
                continue;
            n = elf_strptr(elf, sh.sh_link, s.st_name);
            if (n && strcmp(n, name) == 0) {
                addr = s.st_value;
                break;
            }
        }
    }
    elf_end(elf);
    close(fd);
    if (!addr)
        fail_msg("fixture has no symbol %s", name);
    return addr;
}

/* ------------------------------------------------------------------ stacks */

/* A stack being built downwards, as the fixture's code would build it. */
struct stk {
    struct fixture *f;
    uint64_t sp;
};

static void push(struct stk *s, uint64_t v)
{
    s->sp -= 8;
    assert_int_equal(xu_sim_write_u64(s->f->g.sim, s->f->g.root, s->sp, v), 0);
}

static void regs_at(struct fixture *f, struct xu_vcpu_regs *regs, uint64_t ip, uint64_t sp,
                    uint64_t fp)
{
    memset(regs, 0, sizeof(*regs));
    regs->online = true;
    regs->kernel_mode = true;
    regs->mmu.paging = XU_PAGING_LONG4;
    regs->mmu.root = f->g.root;
    regs->ip = ip;
    regs->sp = sp;
    regs->fp = fp;
}

static void walk(struct fixture *f, const struct xu_unwinder_ops *ops, void *ctx,
                 const struct xu_vcpu_regs *regs, uint64_t *pcs, unsigned int max,
                 struct xu_unwind_result *res)
{
    const struct xu_unwind_env env = { .cfi = ctx };

    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, regs);
    ops->walk(&env, f->m, regs, pcs, max, res);
}

/*
 * fx_entry -> fx_with_fp -> fx_saves_rbp -> fx_frameless -> fx_leaf, the
 * leaf called from frameless's first (ret1) or second (ret2) call site.
 * Returns the leaf's stack pointer right after the call; *fp gets rbp.
 */
static uint64_t build_main_chain(struct fixture *f, bool second_site, uint64_t *fp)
{
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    uint64_t rbp = 0, with_fp_frame;

    push(&s, sym("fx_ret_entry"));          /* fx_entry: call fx_with_fp */
    push(&s, rbp);                          /* fx_with_fp: push %rbp */
    with_fp_frame = rbp = s.sp;             /* mov %rsp,%rbp */
    s.sp -= 32;                             /* sub $32,%rsp */
    push(&s, sym("fx_ret_with_fp"));        /* call fx_saves_rbp */
    push(&s, rbp);                          /* fx_saves_rbp: push %rbp */
    rbp = 5;                                /* mov $5,%ebp */
    s.sp -= 16;
    push(&s, sym("fx_ret_saves"));          /* call fx_frameless */
    push(&s, 0x7777);                       /* fx_frameless: push %rbx */
    s.sp -= 24;
    push(&s, sym(second_site ? "fx_ret_frameless2" : "fx_ret_frameless"));
    (void)with_fp_frame;
    *fp = rbp;
    return s.sp;
}

/* ---------------------------------------------------------------- fixtures */

/* A file's bytes, malloc'ed. */
static uint8_t *load(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *img;
    long n;

    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    n = ftell(fp);
    assert_true(n > 0);
    rewind(fp);
    *size = (size_t)n;
    img = malloc(*size);
    assert_non_null(img);
    assert_int_equal(fread(img, 1, *size, fp), *size);
    fclose(fp);
    return img;
}

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, 0), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, TASK_STACK, STACK_BYTES), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, INTR_STACK, STACK_BYTES), 0);
    assert_int_equal(xu_sim_target_open(f.g.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    assert_int_equal(xu_cfi_open(FIXTURE, NULL, quiet(), &f.cfi), 0);
    assert_int_equal(xu_cfi_open(FIXTURE_DBG, NULL, quiet(), &f.cfi_dbg), 0);

    f.image = load(FIXTURE, &f.image_size);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    /* setup failed before it handed the fixture over: nothing to free */
    if (!f)
        return 0;
    free(f->image);
    xu_cfi_free(f->cfi);
    xu_cfi_free(f->cfi_dbg);
    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

/* ----------------------------------------------------------- table contents */

static void check_fixture_rules(struct xu_cfi_table *t)
{
    struct xu_cfi_row r;

    /* fx_entry: the outermost frame */
    xu_cfi_lookup(t, sym("fx_entry"), &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.ra, XU_CFI_RA_UNDEFINED);

    /* fx_with_fp on entry: CFA = rsp + 8, return address at CFA - 8 */
    xu_cfi_lookup(t, sym("fx_with_fp"), &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_SP);
    assert_int_equal(r.cfa_off, 8);
    assert_int_equal(r.ra, XU_CFI_RA_AT_CFA);
    assert_int_equal(r.ra_off, -8);
    assert_int_equal(r.fp, XU_CFI_FP_SAME);
    assert_int_equal(r.sp, XU_CFI_SP_CFA);
    assert_int_equal(r.sp_off, 0);
    assert_false(r.signal);
    /* one row per instruction boundary that changes something: the entry
     * row ends where push %rbp does */
    assert_int_equal(r.start, sym("fx_with_fp"));
    assert_int_equal(r.end, sym("fx_with_fp_pushed"));

    /* after push %rbp: CFA = rsp + 16, rbp saved at CFA - 16 */
    xu_cfi_lookup(t, sym("fx_with_fp_pushed"), &r);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_SP);
    assert_int_equal(r.cfa_off, 16);
    assert_int_equal(r.fp, XU_CFI_FP_AT_CFA);
    assert_int_equal(r.fp_off, -16);

    /* the body: CFA = rbp + 16 */
    xu_cfi_lookup(t, sym("fx_ret_with_fp") - 1, &r);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_FP);
    assert_int_equal(r.cfa_off, 16);
    assert_int_equal(r.fp, XU_CFI_FP_AT_CFA);

    /* frameless, second call site: the remembered state, CFA = rsp + 40 */
    xu_cfi_lookup(t, sym("fx_ret_frameless2") - 1, &r);
    assert_int_equal(r.cfa_reg, XU_CFI_REG_SP);
    assert_int_equal(r.cfa_off, 40);
    assert_int_equal(r.fp, XU_CFI_FP_SAME);
    xu_cfi_lookup(t, sym("fx_frameless_exit"), &r);
    assert_int_equal(r.cfa_off, 8);

    /* the interrupt stub: signal frame, rip at CFA - 40, rsp reloaded */
    xu_cfi_lookup(t, sym("fx_intr"), &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_true(r.signal);
    assert_int_equal(r.cfa_off, 40);
    assert_int_equal(r.ra_off, -40);
    assert_int_equal(r.sp, XU_CFI_SP_AT_CFA);
    assert_int_equal(r.sp_off, -16);
    xu_cfi_lookup(t, sym("fx_ret_intr") - 1, &r);
    assert_int_equal(r.cfa_off, 48);
    assert_true(r.signal);

    /* code without CFI */
    xu_cfi_lookup(t, sym("fx_nocfi"), &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    xu_cfi_lookup(t, sym("fx_ret_nocfi_entry"), &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    xu_cfi_lookup(t, 0x1000, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    xu_cfi_lookup(t, UINT64_MAX, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
}

static void test_table_from_eh_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_stats st;

    xu_cfi_get_stats(f->cfi, &st);
    assert_true(st.from_eh_frame);
    assert_false(st.from_debug_frame);
    assert_false(st.truncated);
    assert_int_equal(st.fdes, 6);
    assert_int_equal(st.unknown_rows, 0);
    /* rules are shared: far fewer than rows */
    assert_true(st.rules < st.rows);
    assert_true(st.bytes < 4096);
    check_fixture_rules(f->cfi);
}

static void test_table_from_debug_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_stats st;

    xu_cfi_get_stats(f->cfi_dbg, &st);
    assert_false(st.from_eh_frame);
    assert_true(st.from_debug_frame);
    assert_false(st.truncated);
    assert_int_equal(st.fdes, 6);
    check_fixture_rules(f->cfi_dbg);
}

static void test_table_from_clang_eh_frame(void **state)
{
    struct xu_cfi_table *t = NULL;
    struct xu_cfi_stats st;

    (void)state;
    if (access(FIXTURE_CLANG, R_OK) != 0)
        skip();
    assert_int_equal(xu_cfi_open(FIXTURE_CLANG, NULL, quiet(), &t), 0);
    xu_cfi_get_stats(t, &st);
    assert_true(st.from_eh_frame);
    assert_int_equal(st.fdes, 6);
    sym_file = FIXTURE_CLANG;
    check_fixture_rules(t);
    sym_file = FIXTURE;
    xu_cfi_free(t);
}

/* Programs naming absurd registers never reach libdw, which would size its
 * register array by them (gigabytes for one FDE of a hostile file). */
static void test_program_register_bound(void **state)
{
    static const uint8_t ok[] = { DW_CFA_def_cfa, 7, 8, DW_CFA_offset + 16, 1,
                                  DW_CFA_offset_extended, 0xff, 0x07, 2, DW_CFA_nop };
    static const uint8_t huge[] = { DW_CFA_offset_extended, 0x80, 0xc2, 0xd7, 0x2f, 1 };
    static const uint8_t huge_expr[] = { DW_CFA_expression, 0x80, 0x10, 1, DW_OP_nop };
    static const uint8_t cut[] = { DW_CFA_def_cfa, 7 };
    static const uint8_t unknown[] = { 0x3f };
    static const uint8_t set_loc[] = { DW_CFA_set_loc, 1, 2, 3, 4, DW_CFA_nop };

    (void)state;
    assert_true(cfi_program_ok(ok, ok + sizeof(ok), DW_EH_PE_pcrel | DW_EH_PE_sdata4));
    assert_false(cfi_program_ok(huge, huge + sizeof(huge), 0));
    assert_false(cfi_program_ok(huge_expr, huge_expr + sizeof(huge_expr), 0));
    assert_false(cfi_program_ok(cut, cut + sizeof(cut), 0));
    assert_false(cfi_program_ok(unknown, unknown + sizeof(unknown), 0));
    assert_true(cfi_program_ok(set_loc, set_loc + sizeof(set_loc), DW_EH_PE_sdata4));
    assert_false(cfi_program_ok(set_loc, set_loc + sizeof(set_loc), DW_EH_PE_absptr));
}

/* ------------------------------------------------------------------- walks */

static void test_push_pop_chain(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp, sp;
    const uint64_t want[] = {
        sym("fx_leaf_body"), sym("fx_ret_frameless"), sym("fx_ret_saves"),
        sym("fx_ret_with_fp"), sym("fx_ret_entry"),
    };

    sp = build_main_chain(f, false, &fp);
    regs_at(f, &regs, sym("fx_leaf_body"), sp, fp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);
    walk(f, &xu_unwind_cfi_ops, f->cfi_dbg, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);
    walk(f, &xu_unwind_auto_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);

    /* the frame-pointer walk cannot: rbp holds 5, a plain value */
    walk(f, &xu_unwind_fp_ops, NULL, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 1);
}

static void test_remembered_state(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp, sp;
    const uint64_t want[] = {
        sym("fx_leaf"), sym("fx_ret_frameless2"), sym("fx_ret_saves"),
        sym("fx_ret_with_fp"), sym("fx_ret_entry"),
    };

    sp = build_main_chain(f, true, &fp);
    regs_at(f, &regs, sym("fx_leaf"), sp, fp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);
}

static void test_leaf_and_prologue(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    uint64_t pcs[16];
    uint64_t want[] = { sym("fx_with_fp"), sym("fx_ret_entry") };

    /* stopped on the first instruction: nothing pushed yet */
    push(&s, sym("fx_ret_entry"));
    regs_at(f, &regs, sym("fx_with_fp"), s.sp, 0);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 2);

    /* after push %rbp, before mov %rsp,%rbp: a frame-pointer walk loses
     * the caller here, CFI does not */
    push(&s, 0);
    want[0] = sym("fx_with_fp_pushed");
    regs_at(f, &regs, want[0], s.sp, 0);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 2);
    walk(f, &xu_unwind_fp_ops, NULL, &regs, pcs, 16, &res);
    assert_int_equal(res.depth, 1);
}

static void test_epilogue(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp, sp;
    const uint64_t want[] = {
        sym("fx_frameless_exit"), sym("fx_ret_saves"), sym("fx_ret_with_fp"),
        sym("fx_ret_entry"),
    };

    /* frameless has popped its frame and stands on its ret */
    sp = build_main_chain(f, false, &fp) + 8 + 24 + 8;
    regs_at(f, &regs, sym("fx_frameless_exit"), sp, fp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 4);
}

/*
 * fx_saves_rbp is interrupted right after its push %rbp; the CPU switches
 * to the (higher) interrupt stack and pushes SS, RSP, RFLAGS, CS, RIP; the
 * stub pushes %rdi and calls fx_leaf.  The interrupted RIP must be looked
 * up exactly: RIP - 1 lies in push %rbp, whose row has CFA = rsp + 8.
 */
static void test_signal_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct stk task = { f, TASK_STACK + STACK_BYTES - 64 };
    struct stk intr = { f, INTR_STACK + STACK_BYTES - 64 };
    uint64_t pcs[16], rbp, isp;
    const uint64_t want[] = {
        sym("fx_leaf"), sym("fx_ret_intr"), XU_PC_UPCALL, sym("fx_saves_pushed"),
        sym("fx_ret_with_fp"), sym("fx_ret_entry"),
    };

    push(&task, sym("fx_ret_entry"));
    push(&task, 0);
    rbp = task.sp;
    task.sp -= 32;
    push(&task, sym("fx_ret_with_fp"));
    push(&task, rbp);                       /* fx_saves_rbp: push %rbp -- interrupted */
    isp = task.sp;

    push(&intr, 0x2b);                      /* SS */
    push(&intr, isp);                       /* RSP */
    push(&intr, 0x202);                     /* RFLAGS */
    push(&intr, 0x33);                      /* CS */
    push(&intr, sym("fx_saves_pushed"));    /* RIP */
    push(&intr, 0xd1d1);                    /* fx_intr: push %rdi */
    push(&intr, sym("fx_ret_intr"));        /* call fx_leaf */

    regs_at(f, &regs, sym("fx_leaf"), intr.sp, rbp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 6);
    walk(f, &xu_unwind_cfi_ops, f->cfi_dbg, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 6);
}

/* A forged interrupt frame whose saved RSP/RIP point back at itself: stack
 * switches are allowed at signal frames, but only a few per walk. */
static void test_signal_frame_loop(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct stk intr = { f, INTR_STACK + STACK_BYTES - 64 };
    uint64_t pcs[XU_MAX_DEPTH_LIMIT], frame_sp;

    frame_sp = intr.sp - 48;                /* rsp inside the stub after push %rdi */
    push(&intr, 0x2b);
    push(&intr, frame_sp);                  /* RSP: the stub's own stack pointer */
    push(&intr, 0x202);
    push(&intr, 0x33);
    push(&intr, sym("fx_ret_intr"));        /* RIP: inside the stub, after push %rdi */
    push(&intr, 0);
    assert_int_equal(intr.sp, frame_sp);

    regs_at(f, &regs, sym("fx_ret_intr"), frame_sp, 0);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, XU_MAX_DEPTH_LIMIT, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_true(res.depth <= 12);      /* a marker and a PC per crossing, four at most */
}

/* Frameless CFI code called from code without CFI that keeps frame pointers. */
static void test_auto_falls_back_to_fp(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    uint64_t pcs[16], rbp;
    const uint64_t want[] = {
        sym("fx_leaf_body"), sym("fx_ret_frameless"), sym("fx_ret_nocfi"),
        sym("fx_ret_nocfi_entry"),
    };

    push(&s, sym("fx_ret_nocfi_entry"));    /* fx_nocfi_entry: call fx_nocfi */
    push(&s, 0);                            /* fx_nocfi: push %rbp */
    rbp = s.sp;
    push(&s, sym("fx_ret_nocfi"));          /* call fx_frameless */
    push(&s, 0x7777);
    s.sp -= 24;
    push(&s, sym("fx_ret_frameless"));

    regs_at(f, &regs, sym("fx_leaf_body"), s.sp, rbp);
    walk(f, &xu_unwind_auto_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_COMPLETE, want, 4);

    /* CFI alone stops where the CFI ends (rbp is not 0 there) */
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, want, 3);

    /* frame pointers alone skip the frameless function's caller */
    walk(f, &xu_unwind_fp_ops, NULL, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 2);
    assert_int_equal(pcs[1], sym("fx_ret_nocfi_entry"));
}

/* With no table (or a table not covering the code), auto is the fp walk. */
static void test_auto_without_cfi_is_fp(void **state)
{
    struct fixture *f = *state;
    static const uint64_t chain[] = {
        0xffffffff80001010ULL, 0xffffffff80001055ULL, 0xffffffff80001095ULL,
        0xffffffff800010d5ULL, 0xffffffff80000015ULL,
    };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result a, b;
    uint64_t pa[16], pb[16];
    unsigned int n, corrupt;

    for (n = 1; n <= 5; n++) {
        for (corrupt = 0; corrupt < 3; corrupt++) {
            assert_int_equal(sim_guest_chain(&f->g, 0, chain, n, &regs), 0);
            if (corrupt == 1 && n > 2)      /* a frame pointing below itself */
                assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root,
                                                  sim_guest_frame_addr(0, n, 1), regs.fp), 0);
            if (corrupt == 2 && n > 1)      /* a misaligned frame pointer */
                assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root,
                                                  sim_guest_frame_addr(0, n, 0), regs.fp + 3), 0);
            walk(f, &xu_unwind_fp_ops, NULL, &regs, pa, 16, &a);
            walk(f, &xu_unwind_auto_ops, NULL, &regs, pb, 16, &b);
            assert_int_equal(a.end, b.end);
            assert_int_equal(a.depth, b.depth);
            assert_memory_equal(pa, pb, a.depth * sizeof(uint64_t));
            walk(f, &xu_unwind_auto_ops, f->cfi, &regs, pb, 16, &b);
            assert_int_equal(a.end, b.end);
            assert_int_equal(a.depth, b.depth);
            assert_memory_equal(pa, pb, a.depth * sizeof(uint64_t));
        }
    }
}

static void test_depth_and_modes(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp, sp;
    const uint64_t want[] = { sym("fx_leaf_body"), sym("fx_ret_frameless"), sym("fx_ret_saves") };

    sp = build_main_chain(f, false, &fp);
    regs_at(f, &regs, sym("fx_leaf_body"), sp, fp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 3, &res);
    expect_chain(pcs, &res, XU_WALK_DEPTH, want, 3);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 0, &res);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(res.depth, 0);

    regs.mmu.paging = XU_PAGING_PAE;
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_NO_PAGING, want, 1);

    /* the stack pointer in unmapped memory */
    regs_at(f, &regs, sym("fx_leaf_body"), TASK_STACK - 0x100000, fp);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    expect_chain(pcs, &res, XU_WALK_UNMAPPED, want, 1);

    /* an fp-based CFA with a nonsense rbp: the CFA lies below the stack */
    regs_at(f, &regs, sym("fx_ret_with_fp") - 1, sp, 0);
    walk(f, &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 1);
}

/* Garbage stacks: every walk ends, within bounds, whatever the stack says. */
static void test_garbage_stacks(void **state)
{
    struct fixture *f = *state;
    static const char *const starts[] = {
        "fx_leaf", "fx_with_fp_pushed", "fx_ret_frameless2", "fx_intr", "fx_ret_intr",
    };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[64], seed = 42, addrs[8];
    unsigned int round, i;

    for (i = 0; i < 5; i++)
        addrs[i] = sym(starts[i]);
    addrs[5] = sym("fx_ret_saves");
    addrs[6] = sym("fx_ret_entry");
    addrs[7] = sym("fx_ret_nocfi");
    for (round = 0; round < 200; round++) {
        uint64_t base = TASK_STACK + STACK_BYTES - 4096;

        for (i = 0; i < 512; i++) {
            uint64_t v;

            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            switch (seed >> 61) {
            case 0: case 1: v = addrs[(seed >> 32) % 8]; break;
            case 2: v = base + ((seed >> 20) & 0xff8); break;
            case 3: v = 0; break;
            default: v = seed; break;
            }
            assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, base + 8 * i, v), 0);
        }
        regs_at(f, &regs, addrs[round % 5], base + 8 * (round % 64),
                round & 1 ? base + 0x800 : seed);
        walk(f, round & 2 ? &xu_unwind_auto_ops : &xu_unwind_cfi_ops, f->cfi, &regs, pcs, 64,
             &res);
        assert_true(res.depth >= 1 && res.depth <= 64);
        assert_true(res.end < XU_WALK__COUNT);
    }
}

/* ------------------------------------------------------------ hostile CFI */

/* The index and header of the first section called name in an image, 0 if none. */
static size_t find_section(const uint8_t *img, size_t size, const char *name, GElf_Shdr *out)
{
    Elf *elf = elf_memory((char *)img, size);
    Elf_Scn *scn = NULL;
    size_t shstrndx, index = 0;

    assert_non_null(elf);
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn))) {
        const char *have;

        assert_non_null(gelf_getshdr(scn, out));
        have = elf_strptr(elf, shstrndx, out->sh_name);
        if (have && strcmp(have, name) == 0) {
            index = elf_ndxscn(scn);
            break;
        }
    }
    elf_end(elf);
    return index;
}

static const GElf_Shdr *find_eh_frame(struct fixture *f, GElf_Shdr *out, size_t *index)
{
    *index = find_section(f->image, f->image_size, ".eh_frame", out);
    assert_true(*index > 0);
    return out;
}

/* A section header inside a copy of the image. */
static Elf64_Shdr *shdr_in(uint8_t *img, size_t index)
{
    Elf64_Ehdr eh;

    memcpy(&eh, img, sizeof(eh));
    return (Elf64_Shdr *)(void *)(img + eh.e_shoff + index * eh.e_shentsize);
}

static void test_truncated_eh_frame(void **state)
{
    struct fixture *f = *state;
    GElf_Shdr sh;
    size_t index, cut;
    uint8_t *copy = malloc(f->image_size);

    assert_non_null(copy);
    find_eh_frame(f, &sh, &index);
    /* cut the section at every length: never a crash; a prefix of the FDEs */
    for (cut = 0; cut < sh.sh_size; cut += 4) {
        struct xu_cfi_table *t = NULL;
        struct xu_cfi_stats st;
        Elf64_Shdr s;
        int rc;

        memcpy(copy, f->image, f->image_size);
        memcpy(&s, shdr_in(copy, index), sizeof(s));
        s.sh_size = cut;
        memcpy(shdr_in(copy, index), &s, sizeof(s));
        rc = xu_cfi_from_memory(copy, f->image_size, NULL, quiet(), &t);
        if (rc < 0) {
            assert_int_equal(rc, -ENODATA);
            assert_null(t);
            continue;
        }
        xu_cfi_get_stats(t, &st);
        assert_true(st.fdes < 6);
        xu_cfi_free(t);
    }
    free(copy);
}

static void test_corrupt_eh_frame(void **state)
{
    struct fixture *f = *state;
    GElf_Shdr sh;
    size_t index, round;
    uint64_t seed = 7;
    uint8_t *copy = malloc(f->image_size);

    assert_non_null(copy);
    find_eh_frame(f, &sh, &index);
    /* a huge length in the second entry (the first FDE): cut short there */
    {
        struct xu_cfi_table *t = NULL;
        uint32_t len = 0xfffffff0u;

        memcpy(copy, f->image, f->image_size);
        memcpy(copy + sh.sh_offset + 0x18, &len, 4);
        assert_int_equal(xu_cfi_from_memory(copy, f->image_size, NULL, quiet(), &t), -ENODATA);
        assert_null(t);
    }
    /* random byte changes inside .eh_frame: the builder survives them all */
    for (round = 0; round < 400; round++) {
        struct xu_cfi_table *t = NULL;
        unsigned int k;
        int rc;

        memcpy(copy, f->image, f->image_size);
        for (k = 0; k < 1 + round % 4; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            copy[sh.sh_offset + (seed >> 33) % sh.sh_size] = (uint8_t)(seed >> 24);
        }
        rc = xu_cfi_from_memory(copy, f->image_size, NULL, quiet(), &t);
        if (rc == 0) {
            struct xu_cfi_row r;

            xu_cfi_lookup(t, sym("fx_leaf"), &r);
            assert_true(r.kind <= XU_CFI_RULE);
            xu_cfi_free(t);
        } else {
            assert_null(t);
        }
    }
    free(copy);
}

/* xu_cfi_from_memory on img with one change made by edit (NULL: none). */
static int from_hdr_copy(const uint8_t *img, size_t size, void (*edit)(uint8_t *, size_t),
                         struct xu_cfi_stats *st)
{
    uint8_t *copy = malloc(size);
    struct xu_cfi_table *t = NULL;
    int rc;

    assert_non_null(copy);
    memcpy(copy, img, size);
    if (edit)
        edit(copy, size);
    rc = xu_cfi_from_memory(copy, size, NULL, quiet(), &t);
    if (rc == 0)
        xu_cfi_get_stats(t, st);
    else
        assert_null(t);
    xu_cfi_free(t);
    free(copy);
    return rc;
}

/* The hdr as GNU ld writes it: version 1, eh_frame_ptr pcrel sdata4, the
 * count udata4, the table datarel sdata4 (initial location, FDE) pairs. */
static uint8_t *hdr_bytes(uint8_t *img, size_t size)
{
    GElf_Shdr sh;

    assert_true(find_section(img, size, ".eh_frame_hdr", &sh) > 0);
    assert_int_equal(img[sh.sh_offset], 1);
    assert_int_equal(img[sh.sh_offset + 1], DW_EH_PE_pcrel | DW_EH_PE_sdata4);
    assert_int_equal(img[sh.sh_offset + 2], DW_EH_PE_udata4);
    assert_int_equal(img[sh.sh_offset + 3], DW_EH_PE_datarel | DW_EH_PE_sdata4);
    return img + sh.sh_offset;
}

/* the first entry's FDE pointer 4 bytes into that FDE */
static void hdr_entry_inside_fde(uint8_t *img, size_t size)
{
    uint8_t *h = hdr_bytes(img, size);
    int32_t fde;

    memcpy(&fde, h + 16, 4);
    fde += 4;
    memcpy(h + 16, &fde, 4);
}

/* the hdr renamed .eh_frame: two sections of that name */
static void second_eh_frame(uint8_t *img, size_t size)
{
    GElf_Shdr eh, hdr;
    size_t hi = find_section(img, size, ".eh_frame_hdr", &hdr);
    Elf64_Shdr s;

    assert_true(find_section(img, size, ".eh_frame", &eh) > 0);
    memcpy(&s, shdr_in(img, hi), sizeof(s));
    s.sh_name = eh.sh_name;
    memcpy(shdr_in(img, hi), &s, sizeof(s));
}

/* the table pcrel: libdw would use it, from a base this build does not check */
static void hdr_table_pcrel(uint8_t *img, size_t size)
{
    hdr_bytes(img, size)[3] = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
}

/* no count: libdw keeps no table, and reads .eh_frame as the scan does */
static void hdr_without_table(uint8_t *img, size_t size)
{
    hdr_bytes(img, size)[2] = DW_EH_PE_omit;
}

/* libdw reads an FDE at the offset .eh_frame_hdr's table gives, wherever that
 * is: the table must name only FDEs the scan checked, and no second section
 * of a CFI name may leave the choice of bytes to libdw. */
static void test_eh_frame_hdr(void **state)
{
    struct xu_cfi_stats st;
    size_t size;
    uint8_t *img = load(FIXTURE_HDR, &size);

    (void)state;
    hdr_bytes(img, size);
    assert_int_equal(from_hdr_copy(img, size, NULL, &st), 0);
    assert_true(st.from_eh_frame);
    assert_false(st.truncated);
    assert_int_equal(st.fdes, 6);
    assert_int_equal(from_hdr_copy(img, size, hdr_without_table, &st), 0);
    assert_true(st.from_eh_frame);
    assert_int_equal(st.fdes, 6);
    /* the fixture has no other CFI: refusing .eh_frame leaves none */
    assert_int_equal(from_hdr_copy(img, size, hdr_entry_inside_fde, &st), -ENODATA);
    assert_int_equal(from_hdr_copy(img, size, second_eh_frame, &st), -ENODATA);
    assert_int_equal(from_hdr_copy(img, size, hdr_table_pcrel, &st), -ENODATA);
    free(img);
}

static void test_row_cap(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_config cfg = { .max_rows = 4 };
    struct xu_cfi_table *t = NULL;
    struct xu_cfi_stats st;
    struct xu_cfi_row r;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], fp, sp;

    assert_int_equal(xu_cfi_open(FIXTURE, &cfg, quiet(), &t), 0);
    xu_cfi_get_stats(t, &st);
    assert_true(st.truncated);
    assert_true(st.rows <= 4);
    xu_cfi_lookup(t, sym("fx_intr"), &r);
    assert_int_equal(r.kind, XU_CFI_NONE);

    /* the walk stops early but cleanly */
    sp = build_main_chain(f, false, &fp);
    regs_at(f, &regs, sym("fx_leaf_body"), sp, fp);
    walk(f, &xu_unwind_cfi_ops, t, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_true(res.depth >= 1 && res.depth < 5);
    xu_cfi_free(t);

    /* a work bound this small leaves everything unknown */
    cfg.max_rows = 0;
    cfg.max_work = 1;
    assert_int_equal(xu_cfi_open(FIXTURE, &cfg, quiet(), &t), 0);
    xu_cfi_get_stats(t, &st);
    assert_true(st.truncated);
    xu_cfi_lookup(t, sym("fx_leaf"), &r);
    assert_int_equal(r.kind, XU_CFI_UNKNOWN);
    xu_cfi_free(t);
}

static void test_bad_files(void **state)
{
    struct fixture *f = *state;
    struct xu_cfi_table *t = (struct xu_cfi_table *)1;
    static const uint8_t junk[64] = "not an ELF file";

    assert_int_equal(xu_cfi_open("/nonexistent/cfi.elf", NULL, quiet(), &t), -ENOENT);
    assert_null(t);
    assert_int_equal(xu_cfi_from_memory(junk, sizeof(junk), NULL, quiet(), &t), -ENOEXEC);
    assert_null(t);
    /* an ELF for a machine no guest architecture of this build has */
    {
        uint8_t *copy = malloc(f->image_size);
        uint16_t machine = EM_RISCV;

        assert_non_null(copy);
        memcpy(copy, f->image, f->image_size);
        memcpy(copy + offsetof(Elf64_Ehdr, e_machine), &machine, 2);
        assert_int_equal(xu_cfi_from_memory(copy, f->image_size, NULL, quiet(), &t), -ENOEXEC);
        free(copy);
    }
}

/* ------------------------------------------------------------ explicit rows */

static struct xu_cfi_row rsp_row(uint64_t start, uint64_t end, int32_t cfa_off)
{
    struct xu_cfi_row r;

    memset(&r, 0, sizeof(r));
    r.start = start;
    r.end = end;
    r.kind = XU_CFI_RULE;
    r.cfa_reg = XU_CFI_REG_SP;
    r.cfa_off = cfa_off;
    r.ra_off = -8;
    return r;
}

static void test_rows_merge_share_and_gaps(void **state)
{
    struct xu_cfi_row rows[6], r;
    struct xu_cfi_table *t;
    struct xu_cfi_stats st;

    rows[0] = rsp_row(0x1000, 0x1010, 8);
    rows[1] = rsp_row(0x1010, 0x1020, 8);       /* same rule, contiguous: merged */
    rows[2] = rsp_row(0x1020, 0x1030, 16);
    rows[3] = rsp_row(0x1040, 0x1050, 8);       /* after a gap; rule shared */
    rows[4] = rsp_row(0x1048, 0x1060, 32);      /* overlaps: the lower start wins */
    rows[5] = rsp_row(0x1060, 0x1070, 24);
    rows[5].ra_off = 40000;                     /* does not fit: unknown */
    assert_int_equal(xu_cfi_from_rows(rows, 6, NULL, &t), 0);
    xu_cfi_get_stats(t, &st);
    assert_int_equal(st.rules, 5);              /* NONE, UNKNOWN, +8, +16, +32 */
    /* [1000 +8) [1020 +16) [1030 none) [1040 +8) [1050 +32) [1060 unknown) [1070 none) */
    assert_int_equal(st.rows, 7);
    assert_int_equal(st.unknown_rows, 1);
    assert_false(st.truncated);

    xu_cfi_lookup(t, 0x101f, &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    assert_int_equal(r.cfa_off, 8);
    assert_int_equal(r.start, 0x1000);
    assert_int_equal(r.end, 0x1020);
    xu_cfi_lookup(t, 0x1035, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    assert_int_equal(r.start, 0x1030);
    assert_int_equal(r.end, 0x1040);
    xu_cfi_lookup(t, 0x104f, &r);
    assert_int_equal(r.cfa_off, 8);
    xu_cfi_lookup(t, 0x1050, &r);
    assert_int_equal(r.cfa_off, 32);
    xu_cfi_lookup(t, 0x1060, &r);
    assert_int_equal(r.kind, XU_CFI_UNKNOWN);
    xu_cfi_lookup(t, 0x1070, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    assert_int_equal(r.end, UINT64_MAX);
    xu_cfi_lookup(t, 0xfff, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    assert_int_equal(r.end, 0x1000);
    xu_cfi_free(t);

    /* nothing at all */
    assert_int_equal(xu_cfi_from_rows(NULL, 0, NULL, &t), 0);
    xu_cfi_lookup(t, 0x1000, &r);
    assert_int_equal(r.kind, XU_CFI_NONE);
    xu_cfi_free(t);
}

static void test_rule_cap(void **state)
{
    const size_t n = XU_CFI_MAX_RULES + 1000;
    struct xu_cfi_row *rows = calloc(n, sizeof(*rows)), r;
    struct xu_cfi_table *t;
    struct xu_cfi_stats st;
    size_t i;

    assert_non_null(rows);
    for (i = 0; i < n; i++)
        rows[i] = rsp_row(0x100000 + 4 * i, 0x100000 + 4 * i + 4, (int32_t)(8 + 8 * i));
    assert_int_equal(xu_cfi_from_rows(rows, n, NULL, &t), 0);
    xu_cfi_get_stats(t, &st);
    assert_true(st.truncated);
    assert_int_equal(st.rules, XU_CFI_MAX_RULES);
    xu_cfi_lookup(t, 0x100000, &r);
    assert_int_equal(r.kind, XU_CFI_RULE);
    xu_cfi_lookup(t, 0x100000 + 4 * (n - 1), &r);
    assert_int_equal(r.kind, XU_CFI_UNKNOWN);
    xu_cfi_free(t);

    /* and too many rows for max_rows */
    {
        struct xu_cfi_config cfg = { .max_rows = 100 };

        assert_int_equal(xu_cfi_from_rows(rows, n, &cfg, &t), 0);
        xu_cfi_get_stats(t, &st);
        assert_true(st.truncated);
        assert_true(st.rows <= 100);
        xu_cfi_lookup(t, 0x100000 + 4 * 98, &r);
        assert_int_equal(r.kind, XU_CFI_RULE);
        xu_cfi_lookup(t, 0x100000 + 4 * 200, &r);
        assert_int_equal(r.kind, XU_CFI_NONE);
        xu_cfi_free(t);
    }
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_from_eh_frame),
        cmocka_unit_test(test_table_from_debug_frame),
        cmocka_unit_test(test_table_from_clang_eh_frame),
        cmocka_unit_test(test_program_register_bound),
        cmocka_unit_test(test_push_pop_chain),
        cmocka_unit_test(test_remembered_state),
        cmocka_unit_test(test_leaf_and_prologue),
        cmocka_unit_test(test_epilogue),
        cmocka_unit_test(test_signal_frame),
        cmocka_unit_test(test_signal_frame_loop),
        cmocka_unit_test(test_auto_falls_back_to_fp),
        cmocka_unit_test(test_auto_without_cfi_is_fp),
        cmocka_unit_test(test_depth_and_modes),
        cmocka_unit_test(test_garbage_stacks),
        cmocka_unit_test(test_truncated_eh_frame),
        cmocka_unit_test(test_corrupt_eh_frame),
        cmocka_unit_test(test_eh_frame_hdr),
        cmocka_unit_test(test_row_cap),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_rows_merge_share_and_gaps),
        cmocka_unit_test(test_rule_cap),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
