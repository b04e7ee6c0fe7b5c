/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PVH boot code: output on Xen's debug port 0xe9 (Xen prints it as
 * "(dN) ..."), a hypercall page installed through Xen's CPUID leaves and
 * MSR, and VCPUOP_initialise with a vcpu_hvm_context for the second vCPU.
 * Runs once; never in a profile.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/vcpu.h>
#include <xen/hvm/hvm_vcpu.h>

#include "guest.h"
#include "truth.h"

extern char hypercall_page[];
extern char pml4[];
extern char ap_stack_top[];
extern void _start_ap(void);

static int have_hypercalls;
static struct vcpu_hvm_context ap_ctxt;

static void outb(unsigned short port, unsigned char v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

void console_puts(const char *s)
{
    /* A stack slot gives this leaf a frame, so a sample taken while it
     * prints still walks through main. */
    volatile int framed = 0;

    (void)framed;
    while (*s)
        outb(0xe9, (unsigned char)*s++);
}

void console_hex(unsigned long v)
{
    console_puts("0x");
    for (int i = 15; i >= 0; i--) {
        unsigned int d = (v >> (i * 4)) & 0xf;
        outb(0xe9, (unsigned char)(d < 10 ? '0' + d : 'a' + d - 10));
    }
}

static void cpuid(uint32_t leaf, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(0));
}

/* Xen's leaves sit at 0x40000000 or, with Viridian, 0x100 further on:
 * find the signature, then write the hypercall page's address into the MSR
 * that leaf +2 names. */
static void setup_hypercall_page(void)
{
    for (uint32_t base = 0x40000000; base < 0x40010000; base += 0x100) {
        uint32_t r[4];

        cpuid(base, r);
        if (r[1] == 0x566e6558 && r[2] == 0x65584d4d && r[3] == 0x4d4d566e &&
            r[0] >= base + 2) {
            cpuid(base + 2, r);
            uint64_t pa = (uint64_t)(unsigned long)hypercall_page;
            __asm__ volatile("wrmsr" : : "c"(r[1]), "a"((uint32_t)pa),
                             "d"((uint32_t)(pa >> 32)) : "memory");
            have_hypercalls = 1;
            return;
        }
    }
}

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

long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
    if (!have_hypercalls)
        return -38; /* ENOSYS */
    return hypercall3(__HYPERVISOR_vcpu_op, cmd, vcpu, (unsigned long)arg);
}

long start_secondary_vcpu(unsigned int id)
{
    struct vcpu_hvm_x86_64 *r = &ap_ctxt.cpu_regs.x86_64;
    long rc;

    if (!have_hypercalls)
        return -38; /* ENOSYS */
    /* Straight into long mode on our identity map; Xen loads flat 64-bit
     * segments for VCPU_HVM_MODE_64B. */
    ap_ctxt.mode = VCPU_HVM_MODE_64B;
    r->rip = (unsigned long)_start_ap;
    r->rsp = (unsigned long)ap_stack_top;
    r->rflags = 0x2;
    r->cr0 = 0x80000011;            /* PG | ET | PE */
    r->cr3 = (unsigned long)pml4;
    r->cr4 = 0x20;                  /* PAE */
    r->efer = 0x500;                /* LMA | LME */
    rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_initialise, id, (unsigned long)&ap_ctxt);
    if (rc == 0)
        rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_up, id, 0);
    return rc;
}

void start_kernel(unsigned long start_info_pa);

void start_kernel(unsigned long start_info_pa)
{
    (void)start_info_pa;
    console_puts("xu-guest: PVH boot\n");
    setup_hypercall_page();
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
