/* SPDX-License-Identifier: GPL-2.0-only */
/* test_xen_backend.c - getdomaininfo -> xu_domain_info, and the error lines. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "xen/backend.h"

static char last_msg[1024];
static int nr_msgs;

static void capture(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    snprintf(last_msg, sizeof(last_msg), "%s", msg);
    nr_msgs++;
}

static struct xu_log log_capture = { .emit = capture, .min_level = XU_LOG_WARN };
static struct xen_domctl_getdomaininfo di;

static int reset(void **state)
{
    memset(&di, 0, sizeof(di));
    di.domain = 7;
    di.max_vcpu_id = 3;
    di.nr_online_vcpus = 2;
    last_msg[0] = '\0';
    nr_msgs = 0;
    return 0;
}

static void test_type_pv(void **state)
{
    di.flags = 0;
#ifdef HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG
    di.arch_config.emulation_flags = 0;
#endif
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_PV);
}

static void test_type_pvh_and_hvm(void **state)
{
    di.flags = XEN_DOMINF_hvm_guest;
#ifdef HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG
    di.arch_config.emulation_flags = XEN_X86_EMU_LAPIC;
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_PVH);
    /* a PVH dom0 also has vPCI */
    di.arch_config.emulation_flags = XEN_X86_EMU_LAPIC | XEN_X86_EMU_VPCI;
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_PVH);
    di.arch_config.emulation_flags = XEN_X86_EMU_ALL & ~XEN_X86_EMU_VPCI;
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_HVM);
    di.arch_config.emulation_flags = XEN_X86_EMU_LAPIC | XEN_X86_EMU_PIT;
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_HVM);
#endif
    /* not filled in by the hypervisor: the safe label */
#ifdef HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG
    di.arch_config.emulation_flags = 0;
#endif
    assert_int_equal(xu_xen_guest_type(&di), XU_GUEST_HVM);
}

static void test_info_fields(void **state)
{
    struct xu_domain_info out;
    unsigned int i;

    di.flags = XEN_DOMINF_paused | XEN_DOMINF_shutdown | XEN_DOMINF_dying |
               (3u << XEN_DOMINF_shutdownshift);   /* SHUTDOWN_crash */
    for (i = 0; i < sizeof(di.handle); i++)
        di.handle[i] = (uint8_t)(0x10 + i);
    assert_int_equal(xu_xen_domain_info(&di, 8, &out), 0);
    assert_int_equal(out.domid, 7);
    assert_int_equal(out.type, XU_GUEST_PV);
    assert_int_equal(out.max_vcpu_id, 3);
    assert_int_equal(out.nr_online_vcpus, 2);
    assert_int_equal(out.guest_width, 8);
    assert_true(out.paused);
    assert_true(out.shutdown);
    assert_true(out.dying);
    assert_int_equal(out.shutdown_reason, 3);
    assert_memory_equal(out.handle, di.handle, 16);
}

static void test_info_running_and_widths(void **state)
{
    struct xu_domain_info out;

    di.flags = XEN_DOMINF_running | XEN_DOMINF_blocked;
    assert_int_equal(xu_xen_domain_info(&di, 4, &out), 0);
    assert_false(out.paused);
    assert_false(out.shutdown);
    assert_false(out.dying);
    assert_int_equal(out.shutdown_reason, 0);
    assert_int_equal(out.guest_width, 4);       /* a 32-bit PV guest */

    di.flags = XEN_DOMINF_hvm_guest;
    assert_int_equal(xu_xen_domain_info(&di, 4, &out), 0);
    assert_int_equal(out.guest_width, 8);       /* HVM: modes are per vCPU */
}

static void test_info_without_vcpus(void **state)
{
    struct xu_domain_info out;

    di.max_vcpu_id = XEN_INVALID_MAX_VCPU_ID;
    assert_int_equal(xu_xen_domain_info(&di, 8, &out), -EAGAIN);
}

static void test_version_mismatch_is_eproto(void **state)
{
    char want[32];

    assert_int_equal(xu_xen_domctl_failed(&log_capture, "XEN_DOMCTL_getdomaininfo", 5, EACCES),
                     -EPROTO);
    assert_int_equal(nr_msgs, 1);
    snprintf(want, sizeof(want), "0x%08x", xu_xen_domctl_version());
    assert_non_null(strstr(last_msg, want));
    assert_non_null(strstr(last_msg, "version unknown"));
    assert_non_null(strstr(last_msg, "built for"));
    assert_non_null(strstr(last_msg, XU_BUILT_XEN_VERSION));
}

static void test_mismatch_line(void **state)
{
    char line[512], want[256];

    /* XENVER_version packs major << 16 | minor */
    xu_xen_mismatch_format(line, sizeof(line), (4L << 16) | 20);
    snprintf(want, sizeof(want), "the running hypervisor is Xen 4.20, this xen-uniprof was "
             "built for Xen %s (domctl interface 0x%08x, which Xen 4.20 rejects)",
             XU_BUILT_XEN_VERSION, xu_xen_domctl_version());
    assert_non_null(strstr(line, want));
    assert_non_null(strstr(line, "rebuild xen-uniprof against Xen 4.20's headers: "
                                 "scripts/xen-sysroot 4.20 DIR && ./configure --with-xen=DIR"));
    assert_null(strchr(line, '\n'));
    assert_int_equal(strncmp(line, "Xen version mismatch: ", 22), 0);

    xu_xen_mismatch_format(line, sizeof(line), (4L << 16) | 8);
    assert_non_null(strstr(line, "running hypervisor is Xen 4.8,"));

    /* a short buffer is cut, never overrun, and stays terminated */
    memset(line, 'x', sizeof(line));
    xu_xen_mismatch_format(line, 16, (4L << 16) | 14);
    assert_int_equal(strlen(line), 15);
    assert_int_equal(line[16], 'x');

    /* logged as one error, and -EPROTO (the CLI's exit code 7) */
    assert_int_equal(xu_xen_mismatch(&log_capture, (4L << 16) | 17), -EPROTO);
    assert_int_equal(nr_msgs, 1);
    assert_non_null(strstr(last_msg, "Xen 4.17,"));
}

static void test_other_errors_pass_through(void **state)
{
    /* EACCES from another domctl is not taken for a version mismatch */
    assert_int_equal(xu_xen_domctl_failed(&log_capture, "XEN_DOMCTL_pausedomain", 5, EACCES),
                     -EACCES);
    assert_non_null(strstr(last_msg, "XEN_DOMCTL_pausedomain"));
    assert_null(strstr(last_msg, "interface version"));
    assert_int_equal(xu_xen_domctl_failed(&log_capture, "XEN_DOMCTL_getdomaininfo", 9, ESRCH),
                     -ESRCH);
    assert_non_null(strstr(last_msg, "no domain 9"));
    /* a failure that lost its errno still fails */
    assert_int_equal(xu_xen_domctl_failed(&log_capture, "XEN_DOMCTL_getvcpucontext", 9, 0),
                     -EIO);
}

static void test_open_failure_line(void **state)
{
    assert_int_equal(xu_xen_open_failed(&log_capture, "xencall_open", ENOENT), -ENOENT);
    assert_int_equal(nr_msgs, 1);
    assert_non_null(strstr(last_msg, "are you root in dom0 with the xen-privcmd module loaded?"));
    assert_int_equal(xu_xen_open_failed(&log_capture, "xencall_open", EACCES), -EACCES);
    assert_non_null(strstr(last_msg, "are you root"));
    assert_int_equal(xu_xen_open_failed(&log_capture, "xencall_open", EMFILE), -EMFILE);
    assert_null(strstr(last_msg, "are you root"));
}

static void test_domid_range(void **state)
{
    assert_int_equal(xu_xen_check_domid(&log_capture, 0), 0);
    assert_int_equal(xu_xen_check_domid(&log_capture, DOMID_FIRST_RESERVED - 1), 0);
    assert_int_equal(nr_msgs, 0);
    assert_int_equal(xu_xen_check_domid(&log_capture, DOMID_FIRST_RESERVED), -EINVAL);
    assert_int_equal(xu_xen_check_domid(&log_capture, 0x10001), -EINVAL);
    assert_int_equal(nr_msgs, 2);
}

static void test_library_lines_become_debug(void **state)
{
    struct xu_xtl_logger l;
    struct xu_log dbg = { .emit = capture, .min_level = XU_LOG_DEBUG };

    xu_xtl_logger_init(&l, &dbg);
    xtl_log(&l.xtl, XTL_ERROR, ENOENT, "xencall", "Could not obtain handle %d", 42);
    assert_int_equal(nr_msgs, 1);
    assert_non_null(strstr(last_msg, "xencall: Could not obtain handle 42"));

    /* at the default level the user sees only our own line */
    xu_xtl_logger_init(&l, &log_capture);
    xtl_log(&l.xtl, XTL_ERROR, -1, "xc", "noise");
    assert_int_equal(nr_msgs, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_type_pv, reset),
        cmocka_unit_test_setup(test_type_pvh_and_hvm, reset),
        cmocka_unit_test_setup(test_info_fields, reset),
        cmocka_unit_test_setup(test_info_running_and_widths, reset),
        cmocka_unit_test_setup(test_info_without_vcpus, reset),
        cmocka_unit_test_setup(test_version_mismatch_is_eproto, reset),
        cmocka_unit_test_setup(test_mismatch_line, reset),
        cmocka_unit_test_setup(test_other_errors_pass_through, reset),
        cmocka_unit_test_setup(test_open_failure_line, reset),
        cmocka_unit_test_setup(test_domid_range, reset),
        cmocka_unit_test_setup(test_library_lines_become_debug, reset),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
