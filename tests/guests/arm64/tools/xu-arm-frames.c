/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu-arm-frames DOMID NSAMPLES: a dom0 check of the arm64 ground-truth guests'
 * frame-record chains, independent of xen-uniprof (whose arm64 support is
 * written separately).  Debian's arm64 xenctx prints registers only, so this
 * is the lab's only other look at the chains.
 *
 * Per sample: pause the domain, read every online vCPU's registers
 * (XEN_DOMCTL_getvcpucontext), follow x29 through the AAPCS64 frame records
 * {previous x29, return address}, translating each address through the
 * guest's own stage-1 tables (TTBR1/TTBR0, 4 KiB granule, 48-bit: what
 * tests/guests/arm64/head.S sets up; anything else is reported, not walked),
 * then unpause.  Addresses only: the host symbolizes with the guest's map.
 *
 *   sample N vcpuV pc=.. lr=.. fp=.. sp=.. sctlr=.. ttbr0=.. ttbr1=.. tcr=..
 *     frame fp=.. next=.. ret=..
 *     end fp=0 | end fault VA | end limit
 *
 * A domain its admin had paused is left paused; every other is unpaused on
 * every path out of a sample.
 */
#define XC_WANT_COMPAT_MAP_FOREIGN_API 1
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xenctrl.h>

#define MAX_FRAMES 32
#define OA_MASK    0x0000fffffffff000ULL   /* output address bits 47:12 */

static xc_interface *xch;
static uint32_t domid;

/* The 64-bit word at guest physical address ipa. */
static int read_ipa(uint64_t ipa, uint64_t *val)
{
    void *p = xc_map_foreign_range(xch, domid, 4096, PROT_READ, ipa >> 12);

    if (!p)
        return -1;
    memcpy(val, (char *)p + (ipa & 0xff8), sizeof(*val));
    munmap(p, 4096);
    return 0;
}

/* VA -> IPA through the guest's tables: 4 levels of 4 KiB tables, 1 GiB and
 * 2 MiB blocks allowed at levels 1 and 2. */
static int translate(const vcpu_guest_context_t *c, uint64_t va, uint64_t *ipa)
{
    uint64_t tcr = c->ttbcr, base, desc;
    int high = (va >> 55) & 1;
    unsigned int tsz = high ? (tcr >> 16) & 63 : tcr & 63;
    unsigned int tg = high ? (tcr >> 30) & 3 : (tcr >> 14) & 3;

    if (!(c->sctlr & 1)) {              /* MMU off: VA == IPA */
        *ipa = va;
        return 0;
    }
    if (tsz != 16 || tg != (high ? 2u : 0u))
        return -1;                      /* not the guests' layout */
    base = (high ? c->ttbr1 : c->ttbr0) & OA_MASK;
    for (int level = 0; level < 4; level++) {
        unsigned int shift = 39 - 9 * level;

        if (read_ipa(base + ((va >> shift) & 511) * 8, &desc) < 0 || !(desc & 1))
            return -1;
        if (level == 3 || (desc & 2) == 0) {
            if (level == 0 || (level == 3 && (desc & 2) == 0))
                return -1;              /* no blocks at level 0, no level-3 blocks */
            uint64_t span = 1ULL << shift;
            *ipa = (desc & OA_MASK & ~(span - 1)) | (va & (span - 1));
            return 0;
        }
        base = desc & OA_MASK;
    }
    return -1;
}

static int read_va(const vcpu_guest_context_t *c, uint64_t va, uint64_t *val)
{
    uint64_t ipa;

    return translate(c, va, &ipa) < 0 ? -1 : read_ipa(ipa, val);
}

static void dump_vcpu(int sample, unsigned int v, const vcpu_guest_context_t *c)
{
    const struct vcpu_guest_core_regs *r = &c->user_regs;
    uint64_t fp = r->x29;

    printf("sample %d vcpu%u pc=%016" PRIx64 " lr=%016" PRIx64 " fp=%016" PRIx64
           " sp=%016" PRIx64 " sctlr=%" PRIx64 " ttbr0=%" PRIx64 " ttbr1=%" PRIx64
           " tcr=%" PRIx64 "\n", sample, v, r->pc64, r->x30, fp, r->sp_el1, c->sctlr,
           c->ttbr0, c->ttbr1, c->ttbcr);
    for (int n = 0; n < MAX_FRAMES; n++) {
        uint64_t next, ret;

        if (fp == 0) {
            printf("  end fp=0\n");
            return;
        }
        if (read_va(c, fp, &next) < 0 || read_va(c, fp + 8, &ret) < 0) {
            printf("  end fault %016" PRIx64 "\n", fp);
            return;
        }
        printf("  frame fp=%016" PRIx64 " next=%016" PRIx64 " ret=%016" PRIx64 "\n",
               fp, next, ret);
        fp = next;
    }
    printf("  end limit\n");
}

int main(int argc, char **argv)
{
    xc_dominfo_t info;
    int samples, rc = 0;

    if (argc != 3) {
        fprintf(stderr, "usage: xu-arm-frames DOMID NSAMPLES\n");
        return 2;
    }
    domid = (uint32_t)strtoul(argv[1], NULL, 0);
    samples = atoi(argv[2]);
    if (samples < 1 || samples > 1000)
        samples = 1;
    xch = xc_interface_open(NULL, NULL, 0);
    if (!xch) {
        perror("xc_interface_open");
        return 1;
    }
    for (int s = 0; s < samples; s++) {
        if (xc_domain_getinfo(xch, domid, 1, &info) != 1 || info.domid != domid) {
            fprintf(stderr, "xu-arm-frames: no domain %u\n", domid);
            rc = 1;
            break;
        }
        int admin_paused = info.paused;

        if (!admin_paused && xc_domain_pause(xch, domid) < 0) {
            perror("xc_domain_pause");
            rc = 1;
            break;
        }
        for (unsigned int v = 0; v <= info.max_vcpu_id && v < 64; v++) {
            vcpu_guest_context_any_t ctx;

            if (xc_vcpu_getcontext(xch, domid, v, &ctx) < 0)
                continue;
            if (!(ctx.c.flags & VGCF_online)) {
                printf("sample %d vcpu%u offline\n", s, v);
                continue;
            }
            dump_vcpu(s, v, &ctx.c);
        }
        if (!admin_paused && xc_domain_unpause(xch, domid) < 0) {
            perror("xc_domain_unpause");
            rc = 1;
            break;
        }
        fflush(stdout);
        usleep(50000 + (s * 7919 % 50) * 1000);   /* spread the samples over the loop */
    }
    xc_interface_close(xch);
    return rc;
}
