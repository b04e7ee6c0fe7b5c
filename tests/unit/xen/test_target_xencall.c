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

/* Only XENVER_version goes through xencall2: it needs no buffer. */
int __wrap_xencall2(xencall_handle *xcall, unsigned int op, uint64_t arg1, uint64_t arg2)
{
    long v;

    assert_ptr_equal(xcall, fake_xcall);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_paused_window_does_not_allocate, reset),
    };
    int failed;

    contract_ops = &xu_target_xencall_ops;
    contract_extra_live = buffers_live;
    failed = cmocka_run_group_tests_name("xencall", tests, NULL, NULL);
    return failed + contract_run("xencall: backend contract");
}
