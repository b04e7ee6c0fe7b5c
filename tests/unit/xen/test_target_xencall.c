/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_target_xencall.c - the xencall backend against a fake hypervisor.
 *
 * libxencall and libxenforeignmemory are replaced at link time (--wrap):
 * domctls go to tests/helpers/fake_xen.c, and every hypercall argument is
 * checked to lie in a buffer from xencall_alloc_buffer, as the kernel
 * driver requires.  malloc and friends are wrapped too (fake_xen.allocs),
 * to prove that the paused window does not allocate.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "arch/x86_64/context.h"
#include "xen/backend.h"

#include <xen/version.h>
#include <xencall.h>
#include <xenforeignmemory.h>

#include "backend_contract.h"
#include "fake_xen.h"
#include "target/xu_pause.h"

#define MAX_BUFS 8

/* hypercall buffers handed out */
static struct {
    void *addr[MAX_BUFS];
    size_t size[MAX_BUFS];
    int live, allocs;
} bufs;

static xencall_handle *const fake_xcall = (xencall_handle *)&bufs.live;
static xenforeignmemory_handle *const fake_fmem = (xenforeignmemory_handle *)&bufs.allocs;

xencall_handle *__wrap_xencall_open(struct xentoollog_logger *logger, unsigned int flags);
int __wrap_xencall_close(xencall_handle *xcall);
void *__wrap_xencall_alloc_buffer(xencall_handle *xcall, size_t size);
void __wrap_xencall_free_buffer(xencall_handle *xcall, void *p);
int __wrap_xencall1(xencall_handle *xcall, unsigned int op, uint64_t arg1);
int __wrap_xencall2(xencall_handle *xcall, unsigned int op, uint64_t arg1, uint64_t arg2);
xenforeignmemory_handle *__wrap_xenforeignmemory_open(struct xentoollog_logger *logger,
                                                      unsigned int flags);
int __wrap_xenforeignmemory_close(xenforeignmemory_handle *fmem);
void *__wrap_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom, int prot,
                                  size_t pages, const xen_pfn_t arr[], int err[]);
int __wrap_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr, size_t pages);

xencall_handle *__wrap_xencall_open(struct xentoollog_logger *logger, unsigned int flags)
{
    (void)flags;
    if (fake_xen.open_errno) {
        /* the real library logs its own complaint */
        xtl_log(logger, XTL_ERROR, fake_xen.open_errno, "xencall", "Could not obtain handle");
        errno = fake_xen.open_errno;
        return NULL;
    }
    fake_xen.handles_live++;
    return fake_xcall;
}

int __wrap_xencall_close(xencall_handle *xcall)
{
    assert_ptr_equal(xcall, fake_xcall);
    fake_xen.handles_live--;
    return 0;
}

void *__wrap_xencall_alloc_buffer(xencall_handle *xcall, size_t size)
{
    int i;

    assert_ptr_equal(xcall, fake_xcall);
    for (i = 0; i < MAX_BUFS; i++) {
        if (!bufs.addr[i]) {
            bufs.addr[i] = mmap(NULL, size, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            assert_true(bufs.addr[i] != MAP_FAILED);
            bufs.size[i] = size;
            bufs.live++;
            bufs.allocs++;
            return bufs.addr[i];
        }
    }
    errno = ENOMEM;
    return NULL;
}

void __wrap_xencall_free_buffer(xencall_handle *xcall, void *p)
{
    int i;

    assert_ptr_equal(xcall, fake_xcall);
    for (i = 0; i < MAX_BUFS; i++) {
        if (bufs.addr[i] == p) {
            munmap(p, bufs.size[i]);
            bufs.addr[i] = NULL;
            bufs.live--;
            return;
        }
    }
    fail_msg("freeing a buffer that xencall_alloc_buffer did not return");
}

/* Hypercall arguments must lie inside buffers from xencall_alloc_buffer. */
static void assert_hypercall_buffer(const void *p, size_t len)
{
    int i;

    for (i = 0; i < MAX_BUFS; i++)
        if (bufs.addr[i] && (const char *)p >= (const char *)bufs.addr[i] &&
            (const char *)p + len <= (const char *)bufs.addr[i] + bufs.size[i])
            return;
    fail_msg("hypercall argument %p is not in a hypercall buffer", p);
}

int __wrap_xencall1(xencall_handle *xcall, unsigned int op, uint64_t arg1)
{
    struct xen_domctl *d = (struct xen_domctl *)(uintptr_t)arg1;
    int rc;

    assert_ptr_equal(xcall, fake_xcall);
    assert_int_equal(op, __HYPERVISOR_domctl);
    assert_hypercall_buffer(d, sizeof(*d));
    if (d->cmd == XEN_DOMCTL_getvcpucontext && d->u.vcpucontext.ctxt.p)
        assert_hypercall_buffer(d->u.vcpucontext.ctxt.p, XU_X86_PV_CONTEXT_SIZE);
    if (d->cmd == XEN_DOMCTL_gethvmcontext_partial)
        assert_hypercall_buffer(d->u.hvmcontext_partial.buffer.p, sizeof(struct hvm_hw_cpu));
    rc = fake_xen_domctl(d);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return rc;
}

/* A multicall of domctls, each run as __wrap_xencall1 runs one, its result
 * stored in its entry as Xen stores it (a negative errno, as an unsigned
 * word).  fake_xen.multicall_errno refuses it whole; multicall_cut stops it
 * after that many entries, with EFAULT, as a fault on the list would. */
static int multicall(multicall_entry_t *calls, uint64_t n)
{
    uint64_t i;

    fake_xen.multicalls++;
    assert_hypercall_buffer(calls, n * sizeof(*calls));
    if (fake_xen.multicall_errno) {
        errno = fake_xen.multicall_errno;
        return -1;
    }
    fake_xen.in_multicall = 1;
    for (i = 0; i < n; i++) {
        int rc;

        if (fake_xen.multicall_cut && i == fake_xen.multicall_cut) {
            fake_xen.in_multicall = 0;
            errno = EFAULT;
            return -1;
        }
        assert_int_equal(calls[i].op, __HYPERVISOR_domctl);
        rc = __wrap_xencall1(fake_xcall, __HYPERVISOR_domctl, calls[i].args[0]);
        calls[i].result = (xen_ulong_t)(long)(rc < 0 ? -errno : rc);
    }
    fake_xen.in_multicall = 0;
    return 0;
}

/* XENVER_version (no buffer) and the multicall go through xencall2. */
int __wrap_xencall2(xencall_handle *xcall, unsigned int op, uint64_t arg1, uint64_t arg2)
{
    long v;

    assert_ptr_equal(xcall, fake_xcall);
    if (op == __HYPERVISOR_multicall)
        return multicall((multicall_entry_t *)(uintptr_t)arg1, arg2);
    assert_int_equal(op, __HYPERVISOR_xen_version);
    assert_int_equal(arg1, XENVER_version);
    assert_int_equal(arg2, 0);
    v = fake_xen_version();
    if (v < 0) {
        errno = (int)-v;
        return -1;
    }
    return (int)v;
}

xenforeignmemory_handle *__wrap_xenforeignmemory_open(struct xentoollog_logger *logger,
                                                      unsigned int flags)
{
    (void)logger;
    (void)flags;
    fake_xen.handles_live++;
    return fake_fmem;
}

int __wrap_xenforeignmemory_close(xenforeignmemory_handle *fmem)
{
    assert_ptr_equal(fmem, fake_fmem);
    fake_xen.handles_live--;
    return 0;
}

void *__wrap_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom, int prot,
                                  size_t pages, const xen_pfn_t arr[], int err[])
{
    void *page = fake_xen_frame(arr[0], &err[0]);

    assert_ptr_equal(fmem, fake_fmem);
    assert_int_equal(dom, fake_xen.domid);
    assert_int_equal(prot, PROT_READ);
    assert_int_equal(pages, 1);
    fake_xen.maps_live++;
    /* like the kernel: a mapping comes back, the frame's error (negated)
     * is in err[] */
    err[0] = -err[0];
    return page ? page : fake_xen_frame(0, &(int){ 0 });
}

int __wrap_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr, size_t pages)
{
    assert_ptr_equal(fmem, fake_fmem);
    assert_int_equal(pages, 1);
    assert_true(fake_xen_is_frame(addr));
    fake_xen.maps_live--;
    return 0;
}

extern const struct xu_target_ops xu_target_xencall_ops;

static int reset(void **state)
{
    memset(&bufs, 0, sizeof(bufs));     /* a failed test may have left some */
    fake_xen_reset();
    return 0;
}

/* Hypercall buffers still held: the contract's leak checks add these. */
static int buffers_live(void)
{
    return bufs.live;
}

static void test_paused_window_does_not_allocate(void **state)
{
    struct xu_target t;
    struct xu_vcpu_regs r;
    struct xu_pause *p;
    int i, a, b;
    unsigned int v;

    for (i = 0; i < 2; i++) {
        fake_xen.flags = i ? XEN_DOMINF_hvm_guest : 0;
        assert_int_equal(xu_target_open(&t, &xu_target_xencall_ops, 7, &fake_xen_log), 0);
        /* the pause module's handle is made before the window, as the
         * sampler's is; take and release allocate nothing */
        assert_int_equal(xu_pause_new(&p, &t, NULL, &fake_xen_log), 0);
        a = fake_xen.allocs;
        b = bufs.allocs;
        for (int s = 0; s < 100; s++) {
            assert_int_equal(xu_pause_take(p), 0);
            for (v = 0; v < FAKE_NR_VCPUS; v++)
                assert_int_equal(xu_target_vcpu_regs(&t, v, &r), 0);
            assert_int_equal(xu_pause_release(p), 0);
        }
        assert_int_equal(fake_xen.allocs, a);
        assert_int_equal(bufs.allocs, b);
        xu_pause_free(p);
        xu_target_close(&t);
    }
    contract_assert_released();
}

/* What one vCPU read gives, as a comparable value. */
struct read {
    int rc;
    struct xu_vcpu_regs regs;
};

/* Each vCPU read one by one from the paused domain: the reference a
 * batched read must equal. */
static void read_one_by_one(struct xu_target *t, struct read *out)
{
    for (unsigned int v = 0; v < FAKE_NR_VCPUS; v++) {
        memset(&out[v].regs, 0, sizeof(out[v].regs));
        out[v].rc = xu_target_vcpu_regs(t, v, &out[v].regs);
    }
}

static void assert_reads_equal(const struct xu_vcpu_regs *regs, const int *rcs,
                               const struct read *ref)
{
    for (unsigned int v = 0; v < FAKE_NR_VCPUS; v++) {
        assert_int_equal(rcs[v], ref[v].rc);
        if (rcs[v] == 0)
            assert_memory_equal(&regs[v], &ref[v].regs, sizeof(regs[v]));
    }
}

/* A target on the fake domain with the pause handle a sampler has, and a
 * tick's registers. */
struct batch {
    struct xu_target t;
    struct xu_pause *p;
    volatile uint32_t word;
    struct xu_vcpu_regs regs[FAKE_NR_VCPUS];
    int rcs[FAKE_NR_VCPUS];
};

static void batch_open(struct batch *b)
{
    memset(b, 0, sizeof(*b));
    assert_int_equal(xu_target_open(&b->t, &xu_target_xencall_ops, 7, &fake_xen_log), 0);
    assert_int_equal(xu_pause_new(&b->p, &b->t, &b->word, &fake_xen_log), 0);
}

static int batch_take(struct batch *b)
{
    return xu_pause_take_regs(b->p, FAKE_NR_VCPUS, b->regs, b->rcs);
}

/* Gives the pause back, closes, and checks that nothing is left. */
static void batch_close(struct batch *b)
{
    if (xu_pause_held(b->p))
        assert_int_equal(xu_pause_release(b->p), 0);
    assert_int_equal(fake_xen.pause_count, 0);
    assert_int_equal(b->word, XU_PAUSE_RUNNING);
    xu_pause_free(b->p);
    xu_target_close(&b->t);
    contract_assert_released();
}

/* One multicall pauses and reads every vCPU, PV and HVM alike, giving what
 * one read per vCPU gives; it counts as one hypercall, allocates nothing,
 * and the domain is paused once, by one reference. */
static void test_pause_regs_in_one_multicall(void **state)
{
    struct read ref[FAKE_NR_VCPUS];
    struct batch b;

    for (int i = 0; i < 2; i++) {
        fake_xen.flags = i ? XEN_DOMINF_hvm_guest : 0;
        fake_xen.multicalls = 0;
        batch_open(&b);
        int a = fake_xen.allocs, bufs_before = bufs.allocs;
        for (int s = 0; s < 50; s++) {
            uint64_t calls = b.t.hypercalls;

            memset(b.regs, 0xa5, sizeof(b.regs));
            assert_int_equal(batch_take(&b), 0);
            /* HVM: the two vCPUs that are not up have no CPU record, and
             * the architecture then asks whether each is online: a call
             * each, after the multicall */
            assert_int_equal(b.t.hypercalls - calls, i ? 3 : 1);
            assert_int_equal(fake_xen.pause_count, 1);
            assert_int_equal(b.word, XU_PAUSE_PAUSED);
            assert_int_equal(fake_xen.allocs, a);
            read_one_by_one(&b.t, ref);
            assert_reads_equal(b.regs, b.rcs, ref);
            assert_true(b.regs[0].online && b.regs[3].online);
            assert_false(b.regs[1].online);
            assert_int_equal(xu_pause_release(b.p), 0);
            assert_int_equal(fake_xen.pause_count, 0);
            assert_int_equal(b.word, XU_PAUSE_RUNNING);
        }
        assert_int_equal(fake_xen.multicalls, 50);
        assert_int_equal(fake_xen.allocs, a);
        assert_int_equal(bufs.allocs, bufs_before);
        batch_close(&b);
    }
}

/* A hypervisor that refuses the multicall: nothing ran, so the ordinary
 * pause is taken and the caller reads (1), and it is not asked again. */
static void test_pause_regs_refused_falls_back(void **state)
{
    struct batch b;

    fake_xen.multicall_errno = ENOSYS;
    batch_open(&b);
    for (int s = 0; s < 3; s++) {
        assert_int_equal(batch_take(&b), 1);
        assert_int_equal(fake_xen.pause_count, 1);
        assert_int_equal(xu_pause_release(b.p), 0);
        assert_int_equal(fake_xen.pause_count, 0);
    }
    assert_int_equal(fake_xen.multicalls, 1);
    assert_int_equal(fake_xen.nr_errors, 0);
    batch_close(&b);
}

/* The pause entry fails: batching turns off, the ordinary pause is tried
 * and its error returned (a hypervisor may refuse domctls in a multicall),
 * nothing is held, the reads that ran after it are dropped, and the state
 * word says RUNNING. */
static void test_pause_regs_pause_fails(void **state)
{
    struct batch b;

    batch_open(&b);
    fake_xen.fail_cmd = XEN_DOMCTL_pausedomain;
    fake_xen.fail_errno = EPERM;
    assert_int_equal(batch_take(&b), -EPERM);
    assert_int_equal(fake_xen.pause_count, 0);
    assert_int_equal(xu_pause_held(b.p), 0);
    assert_int_equal(b.word, XU_PAUSE_RUNNING);
    assert_int_equal(fake_xen.nr_errors, 1);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_pausedomain"));
    /* a pause refused inside a multicall only: the next tick pauses */
    fake_xen.fail_cmd = 0;
    assert_int_equal(batch_take(&b), 1);
    assert_int_equal(fake_xen.pause_count, 1);
    assert_int_equal(fake_xen.multicalls, 1);
    batch_close(&b);
}

/* A read that fails inside the multicall is made again on its own, and
 * its failure is that call's, reported as always; the domain is paused
 * all the same. */
static void test_pause_regs_read_fails(void **state)
{
    struct batch b;
    uint64_t calls;

    batch_open(&b);
    fake_xen.fail_cmd = XEN_DOMCTL_getvcpucontext;
    fake_xen.fail_errno = EFAULT;
    calls = b.t.hypercalls;
    assert_int_equal(batch_take(&b), 0);
    assert_int_equal(b.t.hypercalls - calls, 1 + FAKE_NR_VCPUS);
    assert_int_equal(fake_xen.pause_count, 1);
    for (unsigned int v = 0; v < FAKE_NR_VCPUS; v++)
        assert_int_equal(b.rcs[v], -EFAULT);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_getvcpucontext"));
    batch_close(&b);
}

/* A multicall cut short after its pause ran: the pause is ours (given back
 * by the release), and every vCPU is read again, one call each. */
static void test_pause_regs_cut_short(void **state)
{
    struct read ref[FAKE_NR_VCPUS];
    struct batch b;
    uint64_t calls;

    batch_open(&b);
    fake_xen.multicall_cut = 2;
    calls = b.t.hypercalls;
    assert_int_equal(batch_take(&b), 0);
    assert_int_equal(b.t.hypercalls - calls, 1 + FAKE_NR_VCPUS);
    assert_int_equal(fake_xen.pause_count, 1);
    read_one_by_one(&b.t, ref);
    assert_reads_equal(b.regs, b.rcs, ref);
    batch_close(&b);
}

/* Batching off (the comparison runs), or a reference already held (the ELF
 * check inside a --create run): no multicall, the caller reads. */
static void test_pause_regs_not_batched(void **state)
{
    struct batch b;

    batch_open(&b);
    xu_pause_set_batching(b.p, false);
    assert_int_equal(batch_take(&b), 1);
    assert_int_equal(xu_pause_release(b.p), 0);
    xu_pause_set_batching(b.p, true);
    assert_int_equal(xu_pause_take(b.p), 0);
    assert_int_equal(batch_take(&b), 1);
    assert_int_equal(xu_pause_held(b.p), 2);
    assert_int_equal(fake_xen.pause_count, 1);
    assert_int_equal(xu_pause_release(b.p), 0);
    assert_int_equal(fake_xen.multicalls, 0);
    batch_close(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_paused_window_does_not_allocate, reset),
        cmocka_unit_test_setup(test_pause_regs_in_one_multicall, reset),
        cmocka_unit_test_setup(test_pause_regs_refused_falls_back, reset),
        cmocka_unit_test_setup(test_pause_regs_pause_fails, reset),
        cmocka_unit_test_setup(test_pause_regs_read_fails, reset),
        cmocka_unit_test_setup(test_pause_regs_cut_short, reset),
        cmocka_unit_test_setup(test_pause_regs_not_batched, reset),
    };
    int failed;

    contract_ops = &xu_target_xencall_ops;
    contract_extra_live = buffers_live;
    failed = cmocka_run_group_tests_name("xencall", tests, NULL, NULL);
    return failed + contract_run("xencall: backend contract");
}
