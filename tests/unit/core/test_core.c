/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_core.c - the xl dump-core reader (lib/core/) on cores the tests make
 * from the simulated guest (tests/helpers/mkcore.c): x86-64 PV (.xen_p2m,
 * pages found by machine frame) and HVM (.xen_pfn), arm64; every section;
 * missing pages; stacks walked from the core by the same page walk and
 * unwinder as live memory; and every kind of bad file refused in one line.
 */
#include "config.h"

#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/xu_core.h"
#include "mem/xu_mem.h"
#include "mkcore.h"
#include "sim_arm64.h"
#include "sim_guest.h"
#include "unwind/xu_unwind.h"

#define NR_FRAMES 512u

static const uint64_t chain5[] = {
    SIM_TEXT_BASE + 0x1010, SIM_TEXT_BASE + 0x2024, SIM_TEXT_BASE + 0x3048,
    SIM_TEXT_BASE + 0x401c, SIM_TEXT_BASE + 0x5014,
};
static const uint64_t chain3[] = {
    SIM_TEXT_BASE + 0x6010, SIM_TEXT_BASE + 0x7024, SIM_TEXT_BASE + 0x8048,
};

/* A logger that counts errors and keeps the last one. */
struct capture {
    struct xu_log log;
    unsigned int errors;
    char last[512];
};

static void capture_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    if (level < XU_LOG_ERROR)
        return;
    c->errors++;
    snprintf(c->last, sizeof(c->last), "%s", msg);
}

static void capture_init(struct capture *c)
{
    memset(c, 0, sizeof(*c));
    c->log.emit = capture_emit;
    c->log.ctx = c;
    c->log.min_level = XU_LOG_DEBUG;
}

/* An x86 guest with vCPU 0 in chain5, vCPU 1 in chain3, vCPU 2 offline. */
struct x86_guest {
    struct sim_guest g;
    struct xu_vcpu_regs regs[3];
};

static void x86_guest_init(struct x86_guest *x, enum xu_guest_type type)
{
    memset(x, 0, sizeof(*x));
    assert_int_equal(sim_guest_init(&x->g, type, 3, NR_FRAMES), 0);
    assert_int_equal(sim_guest_chain(&x->g, 0, chain5, 5, &x->regs[0]), 0);
    assert_int_equal(sim_guest_chain(&x->g, 1, chain3, 3, &x->regs[1]), 0);
    x->regs[0].kernel_mode = true;
    x->regs[0].rflags = 0x246;
    x->regs[1].kernel_mode = true;
}

static struct mkcore x86_core(struct x86_guest *x, bool hvm)
{
    return (struct mkcore){ .hvm = hvm, .sim = x->g.sim, .nr_frames = NR_FRAMES,
                            .regs = x->regs, .nr_vcpus = 3 };
}

static char *temp_core(const struct mkcore *mc)
{
    static char path[64];
    int fd;

    snprintf(path, sizeof(path), "/tmp/test_core_XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkcore_write(mc, path), 0);
    return path;
}

/* Walk vCPU v of the core at path with frame pointers, through mem/. */
static void walk_core(const char *path, unsigned int v, uint64_t *pcs, unsigned int max,
                      struct xu_unwind_result *res)
{
    struct xu_target t;
    struct xu_vcpu_regs r;
    struct xu_mem *m;

    assert_int_equal(xu_core_target_open(&t, path, NULL, NULL), 0);
    assert_int_equal(xu_target_vcpu_regs(&t, v, &r), 0);
    m = xu_mem_new(&t, NULL);
    assert_non_null(m);
    xu_mem_begin(m);
    xu_mem_set_context(m, &r);
    xu_unwind_fp(NULL, m, &r, pcs, max, res);
    xu_mem_free(m);
    xu_target_close(&t);
}

static void check_x86(bool hvm)
{
    struct x86_guest x;
    struct mkcore mc;
    struct xu_core *c = NULL;
    struct xu_core_info ci;
    struct xu_domain_info info;
    struct xu_target t;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    uint8_t *buf;
    size_t len;
    const struct xu_vcpu_regs *r;
    char *path;

    x86_guest_init(&x, hvm ? XU_GUEST_HVM : XU_GUEST_PV);
    mc = x86_core(&x, hvm);
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    assert_int_equal(xu_core_parse(buf, len, "t", NULL, &c, NULL), 0);
    xu_core_get_info(c, &ci);
    assert_ptr_equal(ci.arch, &xu_arch_x86_64);
    assert_int_equal(ci.type, hvm ? XU_GUEST_HVM : XU_GUEST_PV);
    assert_int_equal(ci.nr_vcpus, 3);
    assert_int_equal(ci.nr_pages, NR_FRAMES);
    assert_int_equal(ci.invalid_entries, 0);
    assert_int_equal(ci.xen_major, 4);
    assert_int_equal(ci.xen_minor, 17);

    /* registers, decoded by the architecture's decoder */
    r = xu_core_vcpu(c, 0);
    assert_true(r->online);
    assert_true(r->kernel_mode);
    assert_int_equal(r->ip, chain5[0]);
    assert_int_equal(r->sp, x.regs[0].sp);
    assert_int_equal(r->fp, x.regs[0].fp);
    assert_int_equal(r->mmu.root, x.g.root);
    assert_int_equal(r->mmu.paging, XU_PAGING_LONG4);
    assert_int_equal(r->rflags, 0x246);
    assert_false(xu_core_vcpu(c, 2)->online);
    assert_null(xu_core_vcpu(c, 3));

    /* every frame by the number the page tables hold (PV: the machine
     * frame, which the dump does not keep in page order) */
    for (uint64_t f = 0; f < NR_FRAMES; f += 7)
        assert_memory_equal(xu_core_frame(c, f), xu_sim_frame(x.g.sim, f), 4096);
    assert_null(xu_core_frame(c, NR_FRAMES));
    xu_core_free(c);
    free(buf);

    /* as a target: the same walk as live memory gives */
    path = temp_core(&mc);
    assert_int_equal(xu_core_target_open(&t, path, NULL, NULL), 0);
    assert_int_equal(xu_target_info(&t, &info), 0);
    assert_int_equal(info.max_vcpu_id, 2);
    assert_int_equal(info.nr_online_vcpus, 2);
    assert_int_equal(info.type, hvm ? XU_GUEST_HVM : XU_GUEST_PV);
    assert_int_equal(t.ops->pause(&t), 0);
    assert_int_equal(t.ops->unpause(&t), 0);
    xu_target_close(&t);
    walk_core(path, 0, pcs, 16, &res);
    assert_int_equal(res.depth, 5);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_memory_equal(pcs, chain5, sizeof(chain5));
    walk_core(path, 1, pcs, 16, &res);
    assert_int_equal(res.depth, 3);
    assert_memory_equal(pcs, chain3, sizeof(chain3));
    unlink(path);
    sim_guest_fini(&x.g);
}

static void test_x86_pv(void **state)
{
    (void)state;
    check_x86(false);
}

static void test_x86_hvm(void **state)
{
    (void)state;
    check_x86(true);
}

/* A page of the stack not in the core: the walk ends as unmapped. */
static void test_missing_stack_page(void **state)
{
    struct x86_guest x;
    struct mkcore mc;
    struct xu_unwind_result res;
    struct xu_core *c = NULL;
    struct xu_core_info ci;
    struct xu_target t;
    struct xu_mem *m;
    uint64_t pcs[16], frame, missing[1];
    uint8_t *buf;
    size_t len;
    char *path;

    (void)state;
    x86_guest_init(&x, XU_GUEST_PV);
    /* the frame holding the second frame record */
    {
        struct xu_target st;

        assert_int_equal(xu_sim_target_open(x.g.sim, &st, NULL), 0);
        m = xu_mem_new(&st, NULL);
        xu_mem_begin(m);
        xu_mem_set_context(m, &x.regs[0]);
        assert_int_equal(xu_mem_translate(m, sim_guest_frame_addr(0, 5, 1), &frame), 0);
        xu_mem_free(m);
        xu_target_close(&st);
    }
    missing[0] = frame;
    mc = x86_core(&x, false);
    mc.missing = missing;
    mc.nr_missing = 1;
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    assert_int_equal(xu_core_parse(buf, len, "t", NULL, &c, NULL), 0);
    xu_core_get_info(c, &ci);
    assert_int_equal(ci.invalid_entries, 1);
    assert_null(xu_core_frame(c, frame));
    assert_non_null(xu_core_frame(c, frame ^ 1));
    xu_core_free(c);
    free(buf);

    path = temp_core(&mc);
    assert_int_equal(xu_core_target_open(&t, path, NULL, NULL), 0);
    xu_target_close(&t);
    walk_core(path, 0, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_true(res.depth >= 1 && res.depth < 5);
    assert_int_equal(pcs[0], chain5[0]);
    unlink(path);
    sim_guest_fini(&x.g);
}

/* arm64: TTBR1 tables in the sim, contexts in Xen's arm64 layout. */
#define A64_STACK_LO  0xffff800010000000ULL
#define A64_STACK_TOP (A64_STACK_LO + 0x10000ULL)

static void test_arm64(void **state)
{
    static const uint64_t a64_chain[] = {
        0xffff800008003010ULL, 0xffff800008002024ULL, 0xffff800008001048ULL,
        0xffff800008000014ULL,
    };
    struct xu_sim *sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    struct sim_a64 hi;
    struct xu_vcpu_regs r;
    struct mkcore mc;
    struct xu_core *c = NULL;
    struct xu_core_info ci;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    uint8_t *buf;
    size_t len;
    unsigned int k, n = 4;
    char *path;

    (void)state;
    assert_non_null(sim);
    xu_sim_set_arch(sim, &xu_arch_arm64);
    assert_int_equal(sim_a64_init(&hi, sim, 12, 48), 0);
    assert_int_equal(sim_a64_map_range(&hi, A64_STACK_LO, 0x10000), 0);
    memset(&r, 0, sizeof(r));
    for (k = 0; k + 1 < n; k++) {
        uint64_t at = A64_STACK_TOP - 64 - (uint64_t)(n - 1 - k) * 48;
        uint64_t next = k + 2 < n ? at + 48 : 0;

        assert_int_equal(sim_a64_write_u64(&hi, at, next), 0);
        assert_int_equal(sim_a64_write_u64(&hi, at + 8, a64_chain[k + 1]), 0);
    }
    r.online = true;
    r.kernel_mode = true;
    r.ip = a64_chain[0];
    r.fp = r.sp = A64_STACK_TOP - 64 - (uint64_t)(n - 1) * 48;
    r.lr = a64_chain[1];
    r.mmu.paging = XU_PAGING_ARM64;
    r.mmu.root_hi = hi.root;
    r.mmu.ctl = sim_a64_tcr(12, 48, 12, 48);
    mc = (struct mkcore){ .machine = EM_AARCH64, .hvm = true, .sim = sim,
                          .nr_frames = NR_FRAMES, .regs = &r, .nr_vcpus = 1 };
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    assert_int_equal(xu_core_parse(buf, len, "t", NULL, &c, NULL), 0);
    xu_core_get_info(c, &ci);
    assert_ptr_equal(ci.arch, &xu_arch_arm64);
    assert_int_equal(ci.nr_vcpus, 1);
    assert_int_equal(xu_core_vcpu(c, 0)->ip, r.ip);
    assert_int_equal(xu_core_vcpu(c, 0)->sp, r.sp);
    assert_int_equal(xu_core_vcpu(c, 0)->lr, r.lr);
    assert_int_equal(xu_core_vcpu(c, 0)->mmu.root_hi, hi.root);
    assert_int_equal(xu_core_vcpu(c, 0)->mmu.paging, XU_PAGING_ARM64);
    assert_true(xu_core_vcpu(c, 0)->kernel_mode);
    xu_core_free(c);
    free(buf);

    path = temp_core(&mc);
    walk_core(path, 0, pcs, 16, &res);
    assert_int_equal(res.depth, n);
    assert_memory_equal(pcs, a64_chain, sizeof(a64_chain));
    unlink(path);

    /* as Xen's arm toolstack labels it (xc_core_arm.h: EM_ARM, 64-bit file) */
    mc.machine = EM_ARM;
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    assert_int_equal(xu_core_parse(buf, len, "t", NULL, &c, NULL), 0);
    xu_core_get_info(c, &ci);
    assert_ptr_equal(ci.arch, &xu_arch_arm64);
    assert_int_equal(xu_core_vcpu(c, 0)->ip, r.ip);
    xu_core_free(c);
    free(buf);
    xu_sim_free(sim);
}

/* ---- bad input: one error line, the right reason, never a crash ---- */

static void expect_refused(const uint8_t *buf, size_t len, enum xu_core_error want)
{
    struct capture cap;
    struct xu_core *c = (struct xu_core *)1;
    enum xu_core_error err = XU_CORE_OK;

    capture_init(&cap);
    assert_int_equal(xu_core_parse(buf, len, "bad", &cap.log, &c, &err), -EINVAL);
    assert_null(c);
    assert_int_equal(err, want);
    assert_int_equal(cap.errors, 1);
    assert_non_null(strstr(cap.last, "bad: "));
}

static void build_with(struct x86_guest *x, unsigned int omit, uint8_t **buf, size_t *len)
{
    struct mkcore mc = x86_core(x, false);

    mc.omit = omit;
    assert_int_equal(mkcore_build(&mc, buf, len), 0);
}

static void test_bad_sections(void **state)
{
    struct x86_guest x;
    uint8_t *buf;
    size_t len;
    Elf64_Ehdr *eh;

    (void)state;
    x86_guest_init(&x, XU_GUEST_PV);
    build_with(&x, MKCORE_NO_PRSTATUS, &buf, &len);
    expect_refused(buf, len, XU_CORE_NO_VCPUS);
    free(buf);
    build_with(&x, MKCORE_NO_NOTE, &buf, &len);
    expect_refused(buf, len, XU_CORE_NOT_CORE);
    free(buf);
    build_with(&x, MKCORE_NO_HEADER, &buf, &len);
    expect_refused(buf, len, XU_CORE_NOT_CORE);
    free(buf);
    build_with(&x, MKCORE_NO_PAGES, &buf, &len);
    expect_refused(buf, len, XU_CORE_MALFORMED);
    free(buf);
    build_with(&x, MKCORE_NO_MAP, &buf, &len);
    expect_refused(buf, len, XU_CORE_MALFORMED);
    free(buf);

    /* without the version note it still reads */
    build_with(&x, MKCORE_NO_VERSION, &buf, &len);
    {
        struct xu_core *c;
        struct xu_core_info ci;

        assert_int_equal(xu_core_parse(buf, len, "t", NULL, &c, NULL), 0);
        xu_core_get_info(c, &ci);
        assert_int_equal(ci.xen_major, 0);
        xu_core_free(c);
    }
    /* another architecture; a non-core ELF; not an ELF; a 32-bit ELF */
    eh = (Elf64_Ehdr *)buf;
    eh->e_machine = EM_PPC64;
    expect_refused(buf, len, XU_CORE_ARCH);
    eh->e_machine = EM_X86_64;
    eh->e_type = ET_EXEC;
    expect_refused(buf, len, XU_CORE_NOT_CORE);
    eh->e_type = ET_CORE;
    buf[EI_CLASS] = ELFCLASS32;
    expect_refused(buf, len, XU_CORE_NOT_CORE);
    buf[EI_CLASS] = ELFCLASS64;
    buf[0] = 'X';
    expect_refused(buf, len, XU_CORE_NOT_ELF);
    buf[0] = ELFMAG0;
    /* the section table out of the file */
    eh->e_shoff = len - 10;
    expect_refused(buf, len, XU_CORE_TRUNCATED);
    free(buf);
    sim_guest_fini(&x.g);
}

/* No vCPU context: the header says none, or the section is empty. */
static void test_no_vcpus(void **state)
{
    struct x86_guest x;
    struct mkcore mc;
    uint8_t *buf;
    size_t len;

    (void)state;
    x86_guest_init(&x, XU_GUEST_PV);
    mc = x86_core(&x, false);
    mc.nr_vcpus = 0;
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    expect_refused(buf, len, XU_CORE_NO_VCPUS);
    free(buf);
    sim_guest_fini(&x.g);
}

/* Every cut of a core is refused (or, past the last byte any section
 * needs, read), with one line; never a crash. */
static void test_truncated(void **state)
{
    struct x86_guest x;
    uint8_t *buf;
    size_t len, cut;

    (void)state;
    x86_guest_init(&x, XU_GUEST_PV);
    build_with(&x, 0, &buf, &len);
    for (cut = 0; cut < len; cut += (cut < 8192 ? 1 : 4093)) {
        struct capture cap;
        struct xu_core *c = NULL;
        enum xu_core_error err;
        int rc;

        capture_init(&cap);
        rc = xu_core_parse(buf, cut, "cut", &cap.log, &c, &err);
        assert_int_equal(rc, -EINVAL);
        assert_int_equal(cap.errors, 1);
        assert_true(err == XU_CORE_NOT_ELF || err == XU_CORE_TRUNCATED ||
                    err == XU_CORE_NOT_CORE);
    }
    free(buf);
    sim_guest_fini(&x.g);
}

/* A file that is not there, a directory, an empty file: one line each. */
static void test_open_errors(void **state)
{
    struct capture cap;
    struct xu_target t;
    enum xu_core_error err;
    char path[] = "/tmp/test_core_empty_XXXXXX";
    int fd;

    (void)state;
    capture_init(&cap);
    assert_true(xu_core_target_open(&t, "/nonexistent/core", &cap.log, &err) < 0);
    assert_null(t.ops);
    assert_int_equal(cap.errors, 1);
    capture_init(&cap);
    assert_true(xu_core_target_open(&t, "/tmp", &cap.log, &err) < 0);
    assert_int_equal(cap.errors, 1);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    capture_init(&cap);
    assert_int_equal(xu_core_target_open(&t, path, &cap.log, &err), -EINVAL);
    assert_int_equal(err, XU_CORE_NOT_ELF);
    assert_int_equal(cap.errors, 1);
    unlink(path);
}

/*
 * With XU_CORE_CORPUS=DIR the valid cores are also written there: the
 * recipe of tests/fuzz/corpus/fuzz_core (which holds small ones).
 */
static void test_write_corpus(void **state)
{
    const char *dir = getenv("XU_CORE_CORPUS");
    struct sim_guest g;
    struct xu_vcpu_regs regs[2];
    struct mkcore mc;
    char path[512];
    uint8_t *buf;
    size_t len;
    FILE *f;

    (void)state;
    if (!dir)
        skip();
    /* small guests whose stacks are all in the core: walks that go somewhere */
    memset(regs, 0, sizeof(regs));
    assert_int_equal(sim_guest_init(&g, XU_GUEST_PV, 2, 80), 0);
    assert_int_equal(sim_guest_chain(&g, 0, chain5, 5, &regs[0]), 0);
    mc = (struct mkcore){ .sim = g.sim, .nr_frames = 80, .regs = regs, .nr_vcpus = 2 };
    snprintf(path, sizeof(path), "%s/pv", dir);
    assert_int_equal(mkcore_write(&mc, path), 0);
    mc.hvm = true;
    snprintf(path, sizeof(path), "%s/hvm", dir);
    assert_int_equal(mkcore_write(&mc, path), 0);
    mc.machine = EM_AARCH64;
    snprintf(path, sizeof(path), "%s/arm64_layout", dir);
    assert_int_equal(mkcore_write(&mc, path), 0);
    /* and broken ones: cut, without contexts */
    mc.machine = 0;
    mc.hvm = false;
    assert_int_equal(mkcore_build(&mc, &buf, &len), 0);
    snprintf(path, sizeof(path), "%s/pv_cut", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, 5000, f), 5000);
    fclose(f);
    free(buf);
    mc.omit = MKCORE_NO_PRSTATUS;
    mc.nr_frames = 8;
    snprintf(path, sizeof(path), "%s/pv_no_contexts", dir);
    assert_int_equal(mkcore_write(&mc, path), 0);
    sim_guest_fini(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x86_pv),
        cmocka_unit_test(test_x86_hvm),
        cmocka_unit_test(test_missing_stack_page),
        cmocka_unit_test(test_arm64),
        cmocka_unit_test(test_bad_sections),
        cmocka_unit_test(test_no_vcpus),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_write_corpus),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
