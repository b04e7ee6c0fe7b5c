/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PV boot code: the PV console ring for output, and VCPUOP_initialise with a
 * vcpu_guest_context for the second vCPU.  Runs once; never in a profile.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/event_channel.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/io/console.h>

#include "guest.h"
#include "truth.h"

#define VIRT_BASE 0xffffffff80000000UL

extern char hypercall_page[];
extern char ap_stack_top[];
extern void _start_ap(void);

start_info_t *start_info;     /* also read by events.c (hcall) */
static struct xencons_interface *cons;
static uint32_t cons_port;
static struct vcpu_guest_context ap_ctxt;

static long hypercall3(unsigned int nr, unsigned long a1, unsigned long a2,
                       unsigned long a3)
{
    register unsigned long rdi __asm__("rdi") = a1;
    register unsigned long rsi __asm__("rsi") = a2;
    register unsigned long rdx __asm__("rdx") = a3;
    long ret;

    __asm__ volatile("call *%[fn]"
                     : "=a"(ret), "+r"(rdi), "+r"(rsi), "+r"(rdx)
                     : [fn] "r"(hypercall_page + nr * 32)
                     : "memory", "rcx", "r11", "r10", "r8", "r9");
    return ret;
}

/* start_info's frame numbers are machine frames; our own pages are at
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
    char buf[19] = "0x";

    for (int i = 0; i < 16; i++) {
        unsigned int d = (v >> ((15 - i) * 4)) & 0xf;
        buf[2 + i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    }
    buf[18] = 0;
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

    /* The new vCPU shares our address space (the pinned boot page tables)
     * and Xen's flat default GDT; it never unmasks events, so it needs no
     * trap table or callbacks. */
    c->flags = VGCF_in_kernel;
    c->user_regs.rip = (unsigned long)_start_ap;
    c->user_regs.rsp = (unsigned long)ap_stack_top;
    c->user_regs.cs = FLAT_KERNEL_CS;
    c->user_regs.ss = FLAT_KERNEL_SS;
    c->user_regs.rflags = 0x2;
    c->kernel_ss = FLAT_KERNEL_SS;
    c->kernel_sp = (unsigned long)ap_stack_top;
    c->ctrlreg[3] = xen_pfn_to_cr3(virt_to_mfn((void *)start_info->pt_base));
    rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_initialise, id, (unsigned long)c);
    if (rc == 0)
        rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_up, id, 0);
    return rc;
}

/*
 * The P2M published in the shared info page, as a PV kernel does, so that
 * the toolstack can tell our frames: xl dump-core (and on_crash =
 * "coredump-destroy") walks it, through the two-level frame list, to find
 * every page.  The shared info page is mapped over a page of our own.
 */
#define FRAMES_PER_PAGE 512UL
#define PTE_PRESENT_RW_USER_ACCESSED 0x27UL   /* P | RW | U | A */
static unsigned long p2m_frame_list_list[FRAMES_PER_PAGE] __attribute__((aligned(4096)));
static unsigned long p2m_frame_list[FRAMES_PER_PAGE] __attribute__((aligned(4096)));
static char shinfo_page[4096] __attribute__((aligned(4096)));

static void publish_p2m(void)
{
    struct shared_info *s = (struct shared_info *)shinfo_page;
    unsigned long frames = (start_info->nr_pages + FRAMES_PER_PAGE - 1) / FRAMES_PER_PAGE;
    unsigned long i;

    if (frames > FRAMES_PER_PAGE)
        frames = FRAMES_PER_PAGE;
    for (i = 0; i < frames; i++)
        p2m_frame_list[i] = virt_to_mfn((const char *)start_info->mfn_list + i * 4096);
    p2m_frame_list_list[0] = virt_to_mfn(p2m_frame_list);
    if (hypercall3(__HYPERVISOR_update_va_mapping, (unsigned long)shinfo_page,
                   (start_info->shared_info & ~0xfffUL) | PTE_PRESENT_RW_USER_ACCESSED,
                   UVMF_INVLPG) != 0) {
        console_puts("xu-guest: cannot map the shared info page: no P2M for dump-core\n");
        return;
    }
    s->arch.max_pfn = start_info->nr_pages;
    s->arch.pfn_to_mfn_frame_list_list = virt_to_mfn(p2m_frame_list_list);
}

void start_kernel(start_info_t *si);

void start_kernel(start_info_t *si)
{
    start_info = si;
    /* The console page is given as an MFN: the read-only M2P turns it into
     * our PFN, which the boot mapping puts at VIRT_BASE + pfn * 4096. */
    unsigned long pfn = ((unsigned long *)MACH2PHYS_VIRT_START)[si->console.domU.mfn];
    cons = (struct xencons_interface *)(VIRT_BASE + (pfn << 12));
    cons_port = si->console.domU.evtchn;
    console_puts("xu-guest: PV boot\n");
    publish_p2m();
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
