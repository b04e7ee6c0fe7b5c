/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * glue.c: what the lab's programs get from their boot code (tests/guests/guest.h),
 * provided on Unikraft: the console (Unikraft's printf), the vCPU hypercall (truth.c
 * registers the runstate area with it) and Xen's periodic timer for the upcalls.  The
 * hypercalls go through guest.h's call into the hypercall page Xen filled (Unikraft's
 * hypercall_page), with Xen's ABI numbers written out: Unikraft's platform headers are
 * not on an application's include path.
 */
#include <stdint.h>
#include <stdio.h>

#include "guest.h"

/* xen/include/public/xen.h and vcpu.h */
#define XEN_HYPERCALL_VCPU_OP 24
#define VCPUOP_SET_PERIODIC_TIMER 6
struct vcpu_set_periodic_timer {
    uint64_t period_ns;
};

void console_puts(const char *s)
{
    printf("%s", s);
}

void console_hex(unsigned long v)
{
    printf("0x%016lx", v);
}

long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
    return guest_hypercall3(XEN_HYPERCALL_VCPU_OP, cmd, vcpu, (unsigned long)arg);
}

/* VIRQ_TIMER is Unikraft's (bound to its timer_handler at boot): a periodic timer makes
 * it fire while the program works, not only when a nap ends. */
long upcalls_start(unsigned long period_ns)
{
    struct vcpu_set_periodic_timer t = { .period_ns = period_ns };

    return guest_vcpu_op(VCPUOP_SET_PERIODIC_TIMER, 0, &t);
}
