/* SPDX-License-Identifier: GPL-2.0-only */
/* mkcore.c - xl dump-core files from the simulated guest (see mkcore.h). */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/elfnote.h>
#include <xen/xen.h>
#include <xen/foreign/arm64.h>
#include <xen/foreign/x86_64.h>

#include "mkcore.h"

#define PAGE 4096u
#define MAGIC_PV  0xF00FEBEDULL
#define MAGIC_HVM 0xF00FEBEEULL
#define ALL_ONES  (~(uint64_t)0)

#define X86_CR0_PE_PG ((1ULL << 0) | (1ULL << 31))
#define X86_CR4_PAE   (1ULL << 5)
#define ARM_SCTLR_M   1ULL
#define ARM_EL1H      0x5ULL

struct buf {
    uint8_t *p;
    size_t len, cap;
};

static int put(struct buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        uint8_t *p;

        while (cap < b->len + n)
            cap *= 2;
        if (!(p = realloc(b->p, cap)))
            return -ENOMEM;
        b->p = p;
        b->cap = cap;
    }
    if (data)
        memcpy(b->p + b->len, data, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
    return 0;
}

static uint16_t machine(const struct mkcore *c)
{
    return c->machine ? c->machine : EM_X86_64;
}

static bool is_arm(const struct mkcore *c)
{
    return machine(c) == EM_AARCH64 || machine(c) == EM_ARM;
}

static size_t context_size(const struct mkcore *c)
{
    return is_arm(c) ? sizeof(vcpu_guest_context_arm64_t) : sizeof(vcpu_guest_context_x86_64_t);
}

/* One vCPU's context, as Xen's arch_get_info_guest() leaves it. */
static void encode_x86(const struct mkcore *c, const struct xu_vcpu_regs *r, void *out)
{
    vcpu_guest_context_x86_64_t *x = out;

    memset(x, 0, sizeof(*x));
    if (!r->online)
        return;
    x->flags = VGCF_online | (!c->hvm && r->kernel_mode ? VGCF_in_kernel : 0);
    x->user_regs.rip = r->ip;
    x->user_regs.rsp = r->sp;
    x->user_regs.rbp = r->fp;
    x->user_regs.rflags = r->rflags;
    x->ctrlreg[3] = r->mmu.root;
    if (c->hvm) {
        x->user_regs.cs = r->kernel_mode ? 0x10 : 0x33;
        x->ctrlreg[0] = X86_CR0_PE_PG;
        x->ctrlreg[4] = X86_CR4_PAE;
    } else {
        x->user_regs.cs = r->kernel_mode ? 0xe033 : 0xe02b;
    }
}

static void encode_arm64(const struct xu_vcpu_regs *r, void *out)
{
    vcpu_guest_context_arm64_t *a = out;

    memset(a, 0, sizeof(*a));
    if (!r->online)
        return;
    a->flags = VGCF_online_ARM64;
    a->user_regs.pc64 = r->ip;
    a->user_regs.sp_el1 = r->sp;
    a->user_regs.x29 = r->fp;
    a->user_regs.x30 = r->lr;
    a->user_regs.cpsr = r->cpsr ? r->cpsr : ARM_EL1H;
    a->sctlr = r->mmu.paging == XU_PAGING_ARM64 ? ARM_SCTLR_M : 0;
    a->ttbr0 = r->mmu.root;
    a->ttbr1 = r->mmu.root_hi;
    a->ttbcr = r->mmu.ctl;
}

uint64_t mkcore_pv_pfn(const struct mkcore *c, uint64_t frame)
{
    return c->nr_frames - 1 - frame;
}

static bool is_missing(const struct mkcore *c, uint64_t frame)
{
    size_t i;

    for (i = 0; i < c->nr_missing; i++)
        if (c->missing[i] == frame)
            return true;
    return false;
}

static int put_note(struct buf *b, uint32_t type, const void *desc, uint32_t descsz)
{
    uint32_t head[3] = { 4, descsz, type };
    int rc = put(b, head, sizeof(head));

    if (rc == 0)
        rc = put(b, "Xen", 4);
    if (rc == 0)
        rc = put(b, desc, descsz);
    return rc;
}

static int put_notes(const struct mkcore *c, struct buf *b)
{
    uint64_t header[4] = { c->hvm ? MAGIC_HVM : MAGIC_PV, c->nr_vcpus, c->nr_frames, PAGE };
    uint64_t version[2] = { c->xen_major ? c->xen_major : 4, c->xen_major ? c->xen_minor : 17 };
    uint64_t format = 1;
    int rc = put_note(b, XEN_ELFNOTE_DUMPCORE_NONE, NULL, 0);

    if (rc == 0 && !(c->omit & MKCORE_NO_HEADER))
        rc = put_note(b, XEN_ELFNOTE_DUMPCORE_HEADER, header, sizeof(header));
    if (rc == 0 && !(c->omit & MKCORE_NO_VERSION))
        rc = put_note(b, XEN_ELFNOTE_DUMPCORE_XEN_VERSION, version, sizeof(version));
    if (rc == 0)
        rc = put_note(b, XEN_ELFNOTE_DUMPCORE_FORMAT_VERSION, &format, sizeof(format));
    return rc;
}

static int put_contexts(const struct mkcore *c, struct buf *b)
{
    size_t size = context_size(c);
    uint8_t *ctx = malloc(size);
    unsigned int v;
    int rc = ctx ? 0 : -ENOMEM;

    for (v = 0; rc == 0 && v < c->nr_vcpus; v++) {
        if (is_arm(c))
            encode_arm64(&c->regs[v], ctx);
        else
            encode_x86(c, &c->regs[v], ctx);
        rc = put(b, ctx, size);
    }
    free(ctx);
    return rc;
}

/* Page k of the dump: the frame Xen would write k-th (in pfn order). */
static uint64_t frame_at(const struct mkcore *c, uint64_t k)
{
    return c->hvm ? k : c->nr_frames - 1 - k;
}

static int put_pages(const struct mkcore *c, struct buf *b)
{
    uint64_t k;
    int rc = 0;

    for (k = 0; rc == 0 && k < c->nr_frames; k++) {
        uint64_t f = frame_at(c, k);

        rc = put(b, is_missing(c, f) ? NULL : xu_sim_frame(c->sim, f), PAGE);
    }
    return rc;
}

static int put_map(const struct mkcore *c, struct buf *b)
{
    uint64_t k, e[2];
    int rc = 0;

    for (k = 0; rc == 0 && k < c->nr_frames; k++) {
        uint64_t f = frame_at(c, k);

        if (c->hvm) {
            e[0] = is_missing(c, f) ? ALL_ONES : f;
            rc = put(b, e, 8);
        } else {
            e[0] = is_missing(c, f) ? ALL_ONES : mkcore_pv_pfn(c, f);
            e[1] = is_missing(c, f) ? ALL_ONES : f;
            rc = put(b, e, 16);
        }
    }
    return rc;
}

struct sec {
    const char *name;
    uint32_t type;
    uint64_t off, size, entsize;
};

static const char strtab[] = "\0.shstrtab\0.note.Xen\0.xen_prstatus\0.xen_pages\0"
                             ".xen_p2m\0.xen_pfn";

static uint32_t name_off(const char *name)
{
    const char *p = strtab + 1;

    while (p < strtab + sizeof(strtab)) {
        if (strcmp(p, name) == 0)
            return (uint32_t)(p - strtab);
        p += strlen(p) + 1;
    }
    return 0;
}

/* The body (notes, contexts, pages, map, names) after room for the headers. */
static int put_body(const struct mkcore *c, struct buf *b, struct sec *s, unsigned int *n)
{
    int rc = 0;
    size_t start;

    *n = 0;
    s[(*n)++] = (struct sec){ ".shstrtab", SHT_STRTAB, 0, 0, 0 };
    if (!(c->omit & MKCORE_NO_NOTE)) {
        start = b->len;
        rc = put_notes(c, b);
        s[(*n)++] = (struct sec){ ".note.Xen", SHT_NOTE, start, b->len - start, 0 };
    }
    if (rc == 0 && !(c->omit & MKCORE_NO_PRSTATUS)) {
        start = b->len;
        rc = put_contexts(c, b);
        s[(*n)++] = (struct sec){ ".xen_prstatus", SHT_PROGBITS, start, b->len - start,
                                  context_size(c) };
    }
    if (rc == 0)
        rc = put(b, NULL, (PAGE - b->len % PAGE) % PAGE);
    if (rc == 0 && !(c->omit & MKCORE_NO_PAGES)) {
        start = b->len;
        rc = put_pages(c, b);
        s[(*n)++] = (struct sec){ ".xen_pages", SHT_PROGBITS, start, b->len - start, PAGE };
    }
    if (rc == 0 && !(c->omit & MKCORE_NO_MAP)) {
        start = b->len;
        rc = put_map(c, b);
        s[(*n)++] = (struct sec){ c->hvm ? ".xen_pfn" : ".xen_p2m", SHT_PROGBITS, start,
                                  b->len - start, c->hvm ? 8 : 16 };
    }
    if (rc == 0) {
        s[0].off = b->len;
        s[0].size = sizeof(strtab);
        rc = put(b, strtab, sizeof(strtab));
    }
    return rc;
}

int mkcore_build(const struct mkcore *c, uint8_t **out, size_t *len)
{
    /* the headers first: ELF header, then the null section and 6 more at most */
    const size_t headers = sizeof(Elf64_Ehdr) + 7 * sizeof(Elf64_Shdr);
    struct buf b = { 0 };
    struct sec s[6];
    Elf64_Ehdr eh;
    Elf64_Shdr sh;
    unsigned int n = 0, i;
    int rc = put(&b, NULL, headers);

    if (rc == 0)
        rc = put_body(c, &b, s, &n);
    if (rc < 0) {
        free(b.p);
        return rc;
    }
    memset(&eh, 0, sizeof(eh));
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_CORE;
    eh.e_machine = machine(c);
    eh.e_version = EV_CURRENT;
    eh.e_shoff = sizeof(eh);
    eh.e_ehsize = sizeof(eh);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = (uint16_t)(n + 1);
    eh.e_shstrndx = 1;
    memcpy(b.p, &eh, sizeof(eh));
    memset(b.p + sizeof(eh), 0, sizeof(sh));
    for (i = 0; i < n; i++) {
        memset(&sh, 0, sizeof(sh));
        sh.sh_name = name_off(s[i].name);
        sh.sh_type = s[i].type;
        sh.sh_offset = s[i].off;
        sh.sh_size = s[i].size;
        sh.sh_entsize = s[i].entsize;
        memcpy(b.p + sizeof(eh) + (i + 1) * sizeof(sh), &sh, sizeof(sh));
    }
    *out = b.p;
    *len = b.len;
    return 0;
}

int mkcore_write(const struct mkcore *c, const char *path)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc = mkcore_build(c, &buf, &len);

    if (rc < 0)
        return rc;
    f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len)
        rc = -EIO;
    if (f && fclose(f) != 0)
        rc = -EIO;
    free(buf);
    return rc;
}
