/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PV events for the hcall program: the shared info page mapped over a page
 * of our own, VIRQ_TIMER bound, Xen's event callback pointed at
 * hypervisor_callback (upcall.S), the periodic timer, events unmasked.
 * Runs once from main; never in a profile.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/vcpu.h>

#include "guest.h"

#define PTE_PRESENT_RW_USER_ACCESSED 0x27UL   /* P | RW | U | A */

extern start_info_t *start_info;
extern char shared_info_page[];
extern struct shared_info *shinfo;     /* hcall.c: do_hypervisor_callback's */
extern void hypervisor_callback(void);

void *events_init(unsigned long period_ns, long *err)
{
    struct shared_info *s = (struct shared_info *)shared_info_page;
    long rc;

    /* start_info names the shared info page by machine address; a 64-bit
     * PV kernel's own mappings run in ring 3, hence the user bit (Xen would
     * add it anyway).  The page we map over is lost, which is fine. */
    rc = guest_hypercall3(__HYPERVISOR_update_va_mapping, (unsigned long)shared_info_page,
                          (start_info->shared_info & ~0xfffUL) | PTE_PRESENT_RW_USER_ACCESSED,
                          UVMF_INVLPG);
    if (rc)
        goto fail;

    /* Xen bounces every event upcall to this address (create_bounce_frame in
     * xen/arch/x86/x86_64/entry.S), with events masked. */
    struct callback_register cb = {
        .type = CALLBACKTYPE_event,
        .address = (unsigned long)hypervisor_callback,
    };
    rc = guest_hypercall3(__HYPERVISOR_callback_op, CALLBACKOP_register, (unsigned long)&cb, 0);
    if (rc)
        goto fail;

    struct evtchn_bind_virq bind = { .virq = VIRQ_TIMER, .vcpu = 0 };
    rc = guest_hypercall3(__HYPERVISOR_event_channel_op, EVTCHNOP_bind_virq,
                          (unsigned long)&bind, 0);
    if (rc)
        goto fail;
    struct evtchn_unmask unmask = { .port = bind.port };
    rc = guest_hypercall3(__HYPERVISOR_event_channel_op, EVTCHNOP_unmask,
                          (unsigned long)&unmask, 0);
    if (rc)
        goto fail;

    struct vcpu_set_periodic_timer per = { .period_ns = period_ns };
    rc = guest_hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_set_periodic_timer, 0,
                          (unsigned long)&per);
    if (rc)
        goto fail;

    shinfo = s;
    /* From here on Xen delivers upcalls (on its next exit to us). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    s->vcpu_info[0].evtchn_upcall_mask = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return s;

fail:
    *err = rc;
    return 0;
}
