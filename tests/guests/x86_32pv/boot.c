/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 32-bit PV boot code (PAE): the PV console ring for output, and
 * VCPUOP_initialise with a 32-bit vcpu_guest_context for the second vCPU.
 * Runs once; never in a profile.  Hypercalls take their arguments in EBX,
 * ECX, EDX.  Unlike pv/boot.c it publishes no P2M: nothing here dumps a
 * 32-bit PV guest's core.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/event_channel.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/io/console.h>

#include "guest.h"
#include "truth.h"

#define VIRT_BASE 0xc0000000UL

extern char hypercall_page[];
extern char ap_stack_top[];
extern void _start_ap(void);

static start_info_t *start_info;
static struct xencons_interface *cons;
static uint32_t cons_port;
static struct vcpu_guest_context ap_ctxt;

static long hypercall3(unsigned int nr, unsigned long a1, unsigned long a2,
                       unsigned long a3)
{
    long ret;

    __asm__ volatile("call *%[fn]"
                     : "=a"(ret), "+b"(a1), "+c"(a2), "+d"(a3)
                     : [fn] "r"(hypercall_page + nr * 32)
                     : "memory");
    return ret;
}

/* start_info's frame numbers are machine frames; our pages are at
 * VIRT_BASE + pfn * 4096, and the P2M list maps pfn -> mfn. */
static unsigned long virt_to_mfn(const void *va)
{
    unsigned long pfn = ((unsigned long)va - VIRT_BASE) >> 12;

    return ((const unsigned long *)start_info->mfn_list)[pfn];
}

void console_puts(const char *s)
{
    /* A stack slot gives this leaf a frame, so a sample taken while it
     * prints still walks through main. */
    volatile int framed = 0;

    (void)framed;
    if (!cons)
        return;
    XENCONS_RING_IDX prod = cons->out_prod;
    while (*s) {
        /* Full ring: let xenconsoled drain it. */
        while (prod - cons->out_cons >= sizeof(cons->out))
            hypercall3(__HYPERVISOR_sched_op, SCHEDOP_yield, 0, 0);
        cons->out[MASK_XENCONS_IDX(prod, cons->out)] = *s++;
        prod++;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    cons->out_prod = prod;
    struct evtchn_send send = { .port = cons_port };
    hypercall3(__HYPERVISOR_event_channel_op, EVTCHNOP_send,
               (unsigned long)&send, 0);
}

void console_hex(unsigned long v)
{
    char buf[2 + 2 * sizeof(v) + 1] = "0x";

    for (unsigned int i = 0; i < 2 * sizeof(v); i++) {
        unsigned int d = (v >> ((2 * sizeof(v) - 1 - i) * 4)) & 0xf;
        buf[2 + i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    }
    buf[sizeof(buf) - 1] = 0;
    console_puts(buf);
}

long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
    return hypercall3(__HYPERVISOR_vcpu_op, cmd, vcpu, (unsigned long)arg);
}

long start_secondary_vcpu(unsigned int id)
{
    struct vcpu_guest_context *c = &ap_ctxt;
    long rc;

    /* Our address space (the pinned boot page tables) and Xen's flat
     * default GDT; events stay masked, so no trap table or callbacks. */
    c->flags = VGCF_in_kernel;
    c->user_regs.eip = (unsigned long)_start_ap;
    c->user_regs.esp = (unsigned long)ap_stack_top;
    c->user_regs.cs = FLAT_KERNEL_CS;
    c->user_regs.ss = FLAT_KERNEL_SS;
    c->user_regs.ds = c->user_regs.es = FLAT_KERNEL_DS;
    c->user_regs.eflags = 0x2;
    c->kernel_ss = FLAT_KERNEL_SS;
    c->kernel_sp = (unsigned long)ap_stack_top;
    c->ctrlreg[3] = xen_pfn_to_cr3(virt_to_mfn((void *)start_info->pt_base));
    rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_initialise, id, (unsigned long)c);
    if (rc == 0)
        rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_up, id, 0);
    return rc;
}

void start_kernel(start_info_t *si);

void start_kernel(start_info_t *si)
{
    start_info = si;
    /* The console page is given as an MFN: the read-only M2P (the 32-bit
     * one, 4-byte entries) turns it into our PFN. */
    unsigned long pfn = ((unsigned long *)MACH2PHYS_VIRT_START)[si->console.domU.mfn];
    cons = (struct xencons_interface *)(VIRT_BASE + (pfn << 12));
    cons_port = si->console.domU.evtchn;
    console_puts("xu-guest: PV boot, x86_32 (PAE)\n");
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
