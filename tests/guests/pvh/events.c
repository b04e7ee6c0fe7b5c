/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PVH events for the hcall program: the shared info page placed at a page
 * of our own (XENMEM_add_to_physmap), VIRQ_TIMER bound, events delivered as
 * interrupt vector UPCALL_VECTOR (HVM_PARAM_CALLBACK_IRQ, vector type) whose
 * IDT gate is hypervisor_callback (upcall.S), the periodic timer, interrupts
 * enabled.  Runs once from main; never in a profile.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/event_channel.h>
#include <xen/memory.h>
#include <xen/vcpu.h>
#include <xen/hvm/hvm_op.h>
#include <xen/hvm/params.h>

#include "guest.h"

/* Any vector above the exceptions will do: nothing else is delivered. */
#define UPCALL_VECTOR 0xf3
#define KERNEL_CS 0x08          /* head.S's 64-bit code segment */

extern char shared_info_page[];
extern struct shared_info *shinfo;     /* hcall.c: do_hypervisor_callback's */
extern void hypervisor_callback(void);

/* A 64-bit IDT gate (Intel SDM vol. 3, 6.14.1). */
struct idt_gate {
    uint16_t off_lo, sel;
    uint8_t ist, type_attr;     /* 0x8e: present, DPL 0, interrupt gate */
    uint16_t off_mid;
    uint32_t off_hi, zero;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(16)));

static void install_gate(unsigned int vec, void (*fn)(void))
{
    unsigned long a = (unsigned long)fn;

    idt[vec] = (struct idt_gate){
        .off_lo = (uint16_t)a, .sel = KERNEL_CS, .ist = 0, .type_attr = 0x8e,
        .off_mid = (uint16_t)(a >> 16), .off_hi = (uint32_t)(a >> 32),
    };
    struct { uint16_t limit; uint64_t base; } __attribute__((packed)) d = {
        sizeof(idt) - 1, (uint64_t)(unsigned long)idt,
    };
    __asm__ volatile("lidt %0" : : "m"(d));
}

void *events_init(unsigned long period_ns, long *err)
{
    struct shared_info *s = (struct shared_info *)shared_info_page;
    long rc;

    /* Identity-mapped: the page's address is its GPA. */
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_shared_info, .idx = 0,
        .gpfn = (unsigned long)shared_info_page >> 12,
    };
    rc = guest_hypercall3(__HYPERVISOR_memory_op, XENMEM_add_to_physmap,
                          (unsigned long)&xatp, 0);
    if (rc)
        goto fail;

    install_gate(UPCALL_VECTOR, hypervisor_callback);
    /* Vector type (bits 63:56 = 2): Xen injects UPCALL_VECTOR while vCPU 0's
     * evtchn_upcall_pending is set and RFLAGS.IF allows it
     * (hvm_vcpu_has_pending_irq, xen/arch/x86/hvm/irq.c); no EOI. */
    struct xen_hvm_param p = {
        .domid = DOMID_SELF, .index = HVM_PARAM_CALLBACK_IRQ,
        .value = ((uint64_t)HVM_PARAM_CALLBACK_TYPE_VECTOR << 56) | UPCALL_VECTOR,
    };
    rc = guest_hypercall3(__HYPERVISOR_hvm_op, HVMOP_set_param, (unsigned long)&p, 0);
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
    s->vcpu_info[0].evtchn_upcall_mask = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __asm__ volatile("sti" ::: "memory");
    return s;

fail:
    *err = rc;
    return 0;
}
