/* SPDX-License-Identifier: GPL-2.0-only */
/* backend_contract.c - what every Xen backend must do, against fake_xen. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/xu_arch.h"
#include "backend_contract.h"
#include "fake_xen.h"
#include "target/xu_pause.h"

const struct xu_target_ops *contract_ops;
int (*contract_extra_live)(void);

int contract_reset(void **state)
{
    (void)state;
    fake_xen_reset();
    return 0;
}

/* Everything the backend took is given back. */
void contract_assert_released(void)
{
    assert_int_equal(fake_xen.handles_live, 0);
    assert_int_equal(fake_xen.maps_live, 0);
    assert_int_equal(fake_xen.pause_count, 0);
    if (contract_extra_live)
        assert_int_equal(contract_extra_live(), 0);
}

static void contract_open_without_privcmd(void **state)
{
    struct xu_target t;

    fake_xen.open_errno = ENOENT;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), -ENOENT);
    assert_int_equal(fake_xen.nr_errors, 1);
    assert_non_null(strstr(fake_xen.last_msg, "are you root in dom0 with the xen-privcmd module loaded?"));
    assert_null(t.priv);
    contract_assert_released();
}

static void contract_open_interface_version_mismatch(void **state)
{
    struct xu_target t;

    fake_xen.version = XEN_DOMCTL_INTERFACE_VERSION + 1;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), -EPROTO);
    assert_int_equal(fake_xen.nr_errors, 1);
    /* one line, naming the running Xen (XENVER_version) and the built one */
    assert_null(strchr(fake_xen.last_msg, '\n'));
    assert_non_null(strstr(fake_xen.last_msg, "running hypervisor is Xen 4.99,"));
    assert_non_null(strstr(fake_xen.last_msg, "built for Xen " XU_BUILT_XEN_VERSION " "));
    assert_non_null(strstr(fake_xen.last_msg, "--with-xen="));
    contract_assert_released();

    /* XENVER_version failing too still gives the line, without a version */
    fake_xen_reset();
    fake_xen.version = XEN_DOMCTL_INTERFACE_VERSION + 1;
    fake_xen.xen_version = -1;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), -EPROTO);
    assert_int_equal(fake_xen.nr_errors, 1);
    assert_non_null(strstr(fake_xen.last_msg, "version unknown"));
    assert_non_null(strstr(fake_xen.last_msg, "built for"));
    contract_assert_released();
}

static void contract_open_no_such_domain(void **state)
{
    struct xu_target t;

    /* the fake answers for domain 7 when asked for 3, as Xen < 4.18 does */
    assert_int_equal(xu_target_open(&t, contract_ops, 3, &fake_xen_log), -ESRCH);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_getdomaininfo: no domain 3"));
    assert_int_equal(xu_target_open(&t, contract_ops, 9, &fake_xen_log), -ESRCH);
    contract_assert_released();
}

static void contract_open_reserved_domid(void **state)
{
    struct xu_target t;

    /* 0x10007 would reach domain 7 through the 16-bit domid_t */
    assert_int_equal(xu_target_open(&t, contract_ops, 0x10007, &fake_xen_log), -EINVAL);
    assert_int_equal(xu_target_open(&t, contract_ops, DOMID_SELF, &fake_xen_log), -EINVAL);
    assert_non_null(strstr(fake_xen.last_msg, "reserved"));
    assert_int_equal(fake_xen.domctls, 0);
    contract_assert_released();
}

/*
 * Pauses go through the pause module, as everywhere outside the backends.
 * One handle per reference, so that every pause here is a hypercall; the
 * last taken is given back first.
 */
static struct xu_pause *held[4];
static unsigned int nheld;

static int contract_try_pause(struct xu_target *t)
{
    struct xu_pause *p;
    int rc;

    assert_true(nheld < sizeof(held) / sizeof(held[0]));
    assert_int_equal(xu_pause_new(&p, t, NULL, &fake_xen_log), 0);
    rc = xu_pause_take(p);
    if (rc < 0)
        xu_pause_free(p);
    else
        held[nheld++] = p;
    return rc;
}

static void contract_pause(struct xu_target *t)
{
    assert_int_equal(contract_try_pause(t), 0);
}

static void contract_unpause(void)
{
    assert_true(nheld > 0);
    assert_int_equal(xu_pause_release(held[--nheld]), 0);
    xu_pause_free(held[nheld]);
}

/* After the target's close: the handles still holding a reference are
 * freed without asking Xen (the backend's close gave the references back). */
static void contract_forget(void)
{
    while (nheld)
        xu_pause_free(held[--nheld]);
}

static void contract_info_pv(void **state)
{
    struct xu_target t;
    struct xu_domain_info info;

    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_int_equal(xu_target_info(&t, &info), 0);
    assert_int_equal(info.domid, 7);
    assert_int_equal(info.type, XU_GUEST_PV);
    assert_int_equal(info.guest_width, 8);
    assert_int_equal(info.max_vcpu_id, FAKE_NR_VCPUS - 1);
    assert_int_equal(info.nr_online_vcpus, 2);
    assert_false(info.paused);
    assert_int_equal(info.handle[0] & 0xff, 0xab);
    contract_pause(&t);
    assert_int_equal(xu_target_info(&t, &info), 0);
    assert_true(info.paused);
    contract_unpause();
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_info_pvh_and_hvm(void **state)
{
    struct xu_target t;
    struct xu_domain_info info;

    fake_xen.flags = XEN_DOMINF_hvm_guest;
    fake_xen.emulation = XEN_X86_EMU_LAPIC;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_int_equal(xu_target_info(&t, &info), 0);
#ifdef HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG
    assert_int_equal(info.type, XU_GUEST_PVH);
#else
    /* no emulation flags in getdomaininfo (Xen 4.8): the safe label */
    assert_int_equal(info.type, XU_GUEST_HVM);
#endif
    assert_int_equal(info.guest_width, 8);
    xu_target_close(&t);

#ifdef XEN_X86_EMU_VPCI
    fake_xen.emulation = XEN_X86_EMU_ALL & ~XEN_X86_EMU_VPCI;    /* vPCI: a PVH dom0's */
#else
    fake_xen.emulation = XEN_X86_EMU_ALL;
#endif
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_int_equal(xu_target_info(&t, &info), 0);
    assert_int_equal(info.type, XU_GUEST_HVM);
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_pv_regs_and_offline_vcpus(void **state)
{
    struct xu_target t;
    struct xu_vcpu_regs r;

    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_regs(&t, 0, &r), 0);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.mmu.paging, XU_PAGING_LONG4);
    assert_int_equal(r.ip, 0xffffffff80002000ULL);
    assert_int_equal(r.fp, 0xffffffff80006f10ULL);
    assert_int_equal(r.mmu.root, 2 * XU_PAGE_SIZE);
    assert_int_equal(xu_target_vcpu_regs(&t, 3, &r), 0);
    assert_int_equal(r.ip, 0xffffffff80002003ULL);
    /* never initialised (ENODATA) and down (no VGCF_online): offline, not errors */
    memset(&r, 0xa5, sizeof(r));
    assert_int_equal(xu_target_vcpu_regs(&t, 1, &r), 0);
    assert_false(r.online);
    memset(&r, 0xa5, sizeof(r));
    assert_int_equal(xu_target_vcpu_regs(&t, 2, &r), 0);
    assert_false(r.online);
    assert_int_equal(fake_xen.nr_errors, 0);
    /* a vCPU that does not exist is an error */
    assert_int_equal(xu_target_vcpu_regs(&t, FAKE_NR_VCPUS, &r), -EINVAL);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_getvcpucontext for domain 7"));
    contract_unpause();
    xu_target_close(&t);
    contract_assert_released();
}

/* State and CPU time come from getvcpuinfo, paused or not, and a failure
 * there is quiet (debug only): it is asked every tick. */
static void contract_vcpu_state(void **state)
{
    struct xu_target t;
    struct xu_vcpu_state vs;

    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_non_null(contract_ops->vcpu_state);
    assert_int_equal(xu_target_vcpu_state(&t, 0, &vs), 0);
    assert_int_equal(vs.state, XU_VSTATE_RUNNING);
    assert_int_equal(vs.cpu_time_ns, 1000000);
    assert_int_equal(xu_target_vcpu_state(&t, 3, &vs), 0);
    assert_int_equal(vs.cpu_time_ns, 4000000);
    assert_int_equal(xu_target_vcpu_state(&t, 2, &vs), 0);
    assert_int_equal(vs.state, XU_VSTATE_OFFLINE);
    /* a paused domain's vCPUs are not running: why the sampler asks first */
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_state(&t, 0, &vs), 0);
    assert_int_equal(vs.state, XU_VSTATE_RUNNABLE);
    contract_unpause();
    assert_true(xu_target_vcpu_state(&t, FAKE_NR_VCPUS, &vs) < 0);
    assert_int_equal(vs.state, XU_VSTATE_UNKNOWN);
    assert_int_equal(vs.cpu_time_ns, 0);
    assert_int_equal(fake_xen.nr_errors, 0);
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_pv32_guest(void **state)
{
    struct xu_target t;
    struct xu_domain_info info;
    struct xu_vcpu_regs r;

    fake_xen.address_size = 32;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    /* the guest's width, not the dom0's, picks its rules */
    assert_ptr_equal(t.arch, &xu_arch_x86_32);
    assert_int_equal(xu_target_info(&t, &info), 0);
    assert_int_equal(info.guest_width, 4);
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_regs(&t, 0, &r), 0);
    assert_true(r.online);
    assert_int_equal(r.mmu.paging, XU_PAGING_PAE);
    assert_int_equal(r.ip, 0xc0100000u);
    assert_int_equal(r.mmu.root, 3 * XU_PAGE_SIZE);
    contract_unpause();
    xu_target_close(&t);
    contract_assert_released();
}

/* An HVM or PVH guest's architecture is its vCPUs' mode. */
static void contract_hvm_arch_by_mode(void **state)
{
    struct xu_target t;
    struct xu_vcpu_regs r;

    fake_xen.flags = XEN_DOMINF_hvm_guest;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_ptr_equal(t.arch, &xu_arch_x86_64);
    xu_target_close(&t);

    fake_xen.hvm_mode = FAKE_HVM_PAE;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_ptr_equal(t.arch, &xu_arch_x86_32);
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_regs(&t, 0, &r), 0);
    assert_int_equal(r.mmu.paging, XU_PAGING_PAE);
    assert_int_equal(r.sp, 0xc1000f00u);        /* ESP, not RSP's stale upper half */
    assert_true(t.arch->stack_readable(&r));
    contract_unpause();
    xu_target_close(&t);

    /* vCPU 0 never brought up: the first with a record decides */
    fake_xen.hvm_mode = FAKE_HVM_2LEVEL;
    fake_xen.vcpu[0] = FAKE_VCPU_NONE;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_ptr_equal(t.arch, &xu_arch_x86_32);
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_regs(&t, 3, &r), 0);
    assert_int_equal(r.mmu.paging, XU_PAGING_32);
    assert_int_equal(r.mmu.ctl & 0x10, 0x10);   /* CR4.PSE goes with the tables */
    contract_unpause();
    xu_target_close(&t);
    assert_int_equal(fake_xen.nr_errors, 0);

    /* real mode: refused with one line, nothing held */
    fake_xen.hvm_mode = FAKE_HVM_REAL;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), -EOPNOTSUPP);
    assert_int_equal(fake_xen.nr_errors, 1);
    assert_non_null(strstr(fake_xen.last_msg, "domain 7 is not profiled"));
    assert_non_null(strstr(fake_xen.last_msg, "real mode"));
    assert_null(t.priv);
    contract_assert_released();
}

static void contract_hvm_regs_and_offline_vcpus(void **state)
{
    struct xu_target t;
    struct xu_vcpu_regs r;
    uint64_t before;

    fake_xen.flags = XEN_DOMINF_hvm_guest;
    fake_xen.emulation = XEN_X86_EMU_LAPIC;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    contract_pause(&t);
    before = fake_xen.domctls;
    assert_int_equal(xu_target_vcpu_regs(&t, 0, &r), 0);
    assert_int_equal(fake_xen.domctls - before, 1);  /* one hypercall for an online vCPU */
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.mmu.paging, XU_PAGING_LONG4);
    assert_int_equal(r.ip, 0x100100);
    assert_int_equal(r.mmu.root, 0x101000);
    assert_int_equal(r.efer, 0x500);
    assert_int_equal(xu_target_vcpu_regs(&t, 1, &r), 0);
    assert_false(r.online);
    assert_int_equal(xu_target_vcpu_regs(&t, 2, &r), 0);
    assert_false(r.online);
    assert_int_equal(fake_xen.nr_errors, 0);
    contract_unpause();
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_hvm_missing_record_of_online_vcpu_is_error(void **state)
{
    struct xu_target t;
    struct xu_vcpu_regs r;

    fake_xen.flags = XEN_DOMINF_hvm_guest;
    fake_xen.fail_cmd = XEN_DOMCTL_gethvmcontext_partial;
    fake_xen.fail_errno = ENODATA;
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    contract_pause(&t);
    assert_int_equal(xu_target_vcpu_regs(&t, 0, &r), -ENODATA);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_gethvmcontext_partial for domain 7"));
    contract_unpause();
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_close_undoes_our_pauses(void **state)
{
    struct xu_target t;

    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    contract_pause(&t);
    contract_pause(&t);
    contract_unpause();
    assert_int_equal(fake_xen.pause_count, 1);
    xu_target_close(&t);
    contract_forget();
    contract_assert_released();
}

static void contract_close_keeps_pauses_of_others(void **state)
{
    struct xu_target t;

    fake_xen.pause_count = 1;     /* an administrator's `xl pause` */
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    contract_pause(&t);
    contract_unpause();
    xu_target_close(&t);
    assert_int_equal(fake_xen.pause_count, 1);
}

static void contract_pause_failure_is_reported(void **state)
{
    struct xu_target t;

    fake_xen.fail_cmd = XEN_DOMCTL_pausedomain;
    fake_xen.fail_errno = EUSERS;     /* Xen's limit on nested controller pauses */
    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    assert_int_equal(contract_try_pause(&t), -EUSERS);
    assert_non_null(strstr(fake_xen.last_msg, "XEN_DOMCTL_pausedomain for domain 7"));
    xu_target_close(&t);
    contract_assert_released();
}

static void contract_map_frames(void **state)
{
    struct xu_target t;
    const uint8_t *a, *b, *c;

    assert_int_equal(xu_target_open(&t, contract_ops, 7, &fake_xen_log), 0);
    a = t.ops->map_frame(&t, 5);
    assert_non_null(a);
    assert_int_equal(a[0], 5);
    assert_int_equal(a[XU_PAGE_SIZE - 1], 5);
    b = t.ops->map_frame(&t, 6);
    c = t.ops->map_frame(&t, 7);
    assert_non_null(b);
    assert_non_null(c);
    assert_int_equal(fake_xen.maps_live, 3);
    /* a frame Xen refuses: NULL with its errno, and nothing left mapped */
    errno = 0;
    assert_null(t.ops->map_frame(&t, 1000));
    assert_int_equal(errno, EFAULT);
    assert_int_equal(fake_xen.maps_live, 3);
    t.ops->unmap_frame(&t, b);
    assert_int_equal(fake_xen.maps_live, 2);
    /* close() releases what the caller did not */
    xu_target_close(&t);
    contract_assert_released();
}


int contract_run(const char *name)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(contract_open_without_privcmd, contract_reset),
        cmocka_unit_test_setup(contract_open_interface_version_mismatch, contract_reset),
        cmocka_unit_test_setup(contract_open_no_such_domain, contract_reset),
        cmocka_unit_test_setup(contract_open_reserved_domid, contract_reset),
        cmocka_unit_test_setup(contract_info_pv, contract_reset),
        cmocka_unit_test_setup(contract_info_pvh_and_hvm, contract_reset),
        cmocka_unit_test_setup(contract_pv_regs_and_offline_vcpus, contract_reset),
        cmocka_unit_test_setup(contract_vcpu_state, contract_reset),
        cmocka_unit_test_setup(contract_pv32_guest, contract_reset),
        cmocka_unit_test_setup(contract_hvm_arch_by_mode, contract_reset),
        cmocka_unit_test_setup(contract_hvm_regs_and_offline_vcpus, contract_reset),
        cmocka_unit_test_setup(contract_hvm_missing_record_of_online_vcpu_is_error, contract_reset),
        cmocka_unit_test_setup(contract_close_undoes_our_pauses, contract_reset),
        cmocka_unit_test_setup(contract_close_keeps_pauses_of_others, contract_reset),
        cmocka_unit_test_setup(contract_pause_failure_is_reported, contract_reset),
        cmocka_unit_test_setup(contract_map_frames, contract_reset),
    };

    return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL);
}
