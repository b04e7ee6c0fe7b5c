/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stack_print.c - a snapshot of every vCPU as text (the way eu-stack and
 * gdb's bt print a stack: `#N  0xADDR function+0xOFF (file:line)`,
 * innermost first, inlined functions on lines of their own) or as JSON
 * (the schema is in the man page, STACK JSON).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "record/stack_priv.h"
#include "arch/xu_arch.h"
#include "output/function_ids.h"
#include "profile/xu_profile.h"

#define ARM_PSR_AARCH32 0x10u

const char *xu_stack_end_text(enum xu_walk_end end, bool core)
{
    switch (end) {
    case XU_WALK_COMPLETE:
    case XU_WALK_CFI_ROOT:
        return "reached the root (complete)";
    case XU_WALK_BAD_FRAME:
        return "bad frame: the frame pointer did not rise, was misaligned or left the stack";
    case XU_WALK_UNMAPPED:
        return core ? "unreadable memory: a page of the stack is not in the core (or not "
                      "mapped by the guest)"
                    : "unreadable memory: a page of the stack is not mapped";
    case XU_WALK_DEPTH:
        return "depth bound (--max-depth) reached; the chain goes on";
    case XU_WALK_NO_PAGING:
        return "no unwind: the vCPU runs in a mode whose memory is not walked; only its pc "
               "is known";
    case XU_WALK_NOT_ROOT:
        return "no root: the chain ended in a function that is not a known root (or no ELF "
               "was there to vouch for it)";
    case XU_WALK_NOT_CALL:
        return "not a call: a return address follows no call instruction (the frame "
               "pointer held data)";
    case XU_WALK__COUNT:
        break;
    }
    return "unknown";
}

/* An arm64 Xen's guest of either width: the same registers are shown (an
 * AArch32 guest's ttbcr under "tcr", its width from cpsr). */
static bool is_arm(const struct xu_stack_source *src)
{
    return src->arch && (strcmp(src->arch->name, "arm64") == 0 ||
                         strcmp(src->arch->name, "arm32") == 0);
}

static unsigned int bits_of(const struct xu_stack_source *src, const struct xu_vcpu_regs *r)
{
    if (is_arm(src))
        return (r->cpsr & ARM_PSR_AARCH32) ? 32 : 64;
    if (src->type == XU_GUEST_PV)
        return src->guest_width == 4 ? 32 : 64;
    return r->mmu.paging == XU_PAGING_LONG4 || r->mmu.paging == XU_PAGING_LONG5 ? 64 : 32;
}

/* What the symboliser knows of pcs[i]: its functions, the physical one first
 * and then each inlined in the one before (xu_symbolizer_frames()), their
 * count (0: none), and its symbol (NULL: none). */
static unsigned int frame_lines(const struct xu_stack_snapshot *snap, const struct xu_stack *s,
                                uint32_t i, const struct xu_frame_line **l,
                                const struct xu_symbol **sym)
{
    uint64_t lookup = xu_stack_lookup_addr(s, i);

    *l = NULL;
    *sym = NULL;
    if (!snap->sz)
        return 0;
    xu_symbolizer_name(snap->sz, lookup, sym);
    return xu_symbolizer_frames(snap->sz, lookup, l);
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
    if (s)
        xu_fput_json(f, s);
    else
        fputs("null", f);
}

static void json_regs(FILE *f, const struct xu_stack_source *src, const struct xu_vcpu_regs *r)
{
    fprintf(f, "\"registers\": {\"pc\": \"0x%" PRIx64 "\", \"sp\": \"0x%" PRIx64
            "\", \"fp\": \"0x%" PRIx64 "\"", r->ip, r->sp, r->fp);
    if (is_arm(src))
        fprintf(f, ", \"lr\": \"0x%" PRIx64 "\", \"cpsr\": \"0x%" PRIx64 "\", \"ttbr0\": \"0x%"
                PRIx64 "\", \"ttbr1\": \"0x%" PRIx64 "\", \"tcr\": \"0x%" PRIx64 "\"",
                r->lr, r->cpsr, r->mmu.root, r->mmu.root_hi, r->mmu.ctl);
    else
        fprintf(f, ", \"rflags\": \"0x%" PRIx64 "\", \"cr3\": \"0x%" PRIx64 "\", \"cr0\": \"0x%"
                PRIx64 "\", \"cr4\": \"0x%" PRIx64 "\"", r->rflags, r->mmu.root, r->cr0, r->cr4);
    if (!is_arm(src) && r->mmu.root_hi)
        fprintf(f, ", \"kernel_cr3\": \"0x%" PRIx64 "\"", r->mmu.root_hi);
    fprintf(f, ", \"paging\": \"%s\"}", xu_paging_mode_name(r->mmu.paging));
}

/* The frames at pcs[i], innermost (the deepest inlined function) first. */
static void json_frame(FILE *f, const struct xu_stack_snapshot *snap, const struct xu_stack *s,
                       uint32_t i, unsigned int *level)
{
    const struct xu_frame_line *l;
    const struct xu_symbol *sym;
    unsigned int n, k;

    if (s->pcs[i] == XU_PC_UPCALL) {
        fprintf(f, "%s{\"level\": %u, \"pc\": null, \"function\": \"%s\", \"kind\": \"upcall\"}",
                *level ? ", " : "", *level, XU_UPCALL_FRAME);
        (*level)++;
        return;
    }
    n = frame_lines(snap, s, i, &l, &sym);
    if (n == 0) {
        fprintf(f, "%s{\"level\": %u, \"pc\": \"0x%" PRIx64 "\", \"function\": null, "
                "\"offset\": null, \"file\": null, \"line\": null, \"inlined\": false}",
                *level ? ", " : "", *level, s->pcs[i]);
        (*level)++;
        return;
    }
    for (k = n; k-- > 0;) {
        fprintf(f, "%s{\"level\": %u, \"pc\": \"0x%" PRIx64 "\", \"function\": ",
                *level ? ", " : "", *level, s->pcs[i]);
        json_str(f, sym || l[k].inlined ? l[k].name : NULL);
        if (!l[k].inlined && sym)
            fprintf(f, ", \"offset\": %" PRIu64, s->pcs[i] - sym->start);
        else
            fputs(", \"offset\": null", f);
        fputs(", \"file\": ", f);
        json_str(f, l[k].file);
        if (l[k].line)
            fprintf(f, ", \"line\": %" PRIu32, l[k].line);
        else
            fputs(", \"line\": null", f);
        fprintf(f, ", \"inlined\": %s}", l[k].inlined ? "true" : "false");
        (*level)++;
    }
}

static void json_vcpu(FILE *f, const struct xu_stack_source *src,
                      const struct xu_stack_snapshot *snap, unsigned int v)
{
    const struct xu_stack_vcpu *sv = &snap->vcpus[v];
    struct xu_stack s = { .vcpu = v, .depth = sv->depth, .end = sv->end, .pcs = sv->pcs };
    unsigned int level = 0;
    uint32_t i;

    fprintf(f, "%s{\"vcpu\": %u, \"online\": %s, \"state\": \"%s\"", v ? ", " : "", v,
            sv->rc == 0 && sv->regs.online ? "true" : "false",
            xu_vstate_name(sv->state.state));
    if (sv->rc < 0) {
        fputs(", \"error\": ", f);
        json_str(f, strerror(-sv->rc));
        fputs("}", f);
        return;
    }
    if (!sv->regs.online) {
        fputs("}", f);
        return;
    }
    fprintf(f, ", \"mode\": \"%s\", \"bits\": %u, ", sv->regs.kernel_mode ? "kernel" : "user",
            bits_of(src, &sv->regs));
    json_regs(f, src, &sv->regs);
    fputs(", \"frames\": [", f);
    for (i = 0; sv->pcs && i < sv->depth; i++)
        json_frame(f, snap, &s, i, &level);
    fprintf(f, "], \"end\": \"%s\", \"complete\": %s, \"end_text\": ",
            xu_walk_end_name(sv->end), xu_walk_complete(sv->end) ? "true" : "false");
    json_str(f, xu_stack_end_text(sv->end, src->core != NULL));
    fputs("}", f);
}

static void json_snapshot(FILE *f, const struct xu_stack_source *src,
                          const struct xu_stack_snapshot *snap)
{
    unsigned int v;

    fprintf(f, "%s\n    {\"index\": %u, \"time\": %lld, \"elapsed_s\": %.3f, \"vcpus\": [",
            snap->index ? "," : "", snap->index, (long long)snap->wall, snap->elapsed_s);
    for (v = 0; v < snap->nr_vcpus; v++)
        json_vcpu(f, src, snap, v);
    fputs("]}", f);
}

/* ---- text ---- */

static void text_regs(FILE *f, const struct xu_stack_source *src, const struct xu_vcpu_regs *r)
{
    if (is_arm(src)) {
        fprintf(f, "  pc 0x%" PRIx64 "  sp 0x%" PRIx64 "  fp 0x%" PRIx64 "  lr 0x%" PRIx64
                "  cpsr 0x%" PRIx64 "\n  ttbr0 0x%" PRIx64 "  ttbr1 0x%" PRIx64 "  tcr 0x%"
                PRIx64 "  paging %s\n", r->ip, r->sp, r->fp, r->lr, r->cpsr, r->mmu.root,
                r->mmu.root_hi, r->mmu.ctl, xu_paging_mode_name(r->mmu.paging));
        return;
    }
    fprintf(f, "  pc 0x%" PRIx64 "  sp 0x%" PRIx64 "  fp 0x%" PRIx64 "  rflags 0x%" PRIx64
            "\n  cr3 0x%" PRIx64 " (%s)  cr0 0x%" PRIx64 "  cr4 0x%" PRIx64, r->ip, r->sp,
            r->fp, r->rflags, r->mmu.root, xu_paging_mode_name(r->mmu.paging), r->cr0, r->cr4);
    /* a PV vCPU in user mode: the kernel's table, through which its half is read */
    if (r->mmu.root_hi)
        fprintf(f, "  kernel cr3 0x%" PRIx64, r->mmu.root_hi);
    fputc('\n', f);
}

static void text_line(FILE *f, unsigned int level, uint64_t pc, const char *name,
                      bool with_off, uint64_t off, const struct xu_frame_line *l)
{
    fprintf(f, "  #%-2u 0x%016" PRIx64 " %s", level, pc, name);
    if (with_off)
        fprintf(f, "+0x%" PRIx64, off);
    if (l && l->file && l->line)
        fprintf(f, " (%s:%" PRIu32 ")", l->file, l->line);
    else if (l && l->file)
        fprintf(f, " (%s)", l->file);
    if (l && l->inlined)
        fputs(" [inlined]", f);
    fputc('\n', f);
}

static void text_frame(FILE *f, const struct xu_stack_snapshot *snap, const struct xu_stack *s,
                       uint32_t i, unsigned int *level)
{
    const struct xu_frame_line *l;
    const struct xu_symbol *sym;
    unsigned int n, k;

    if (s->pcs[i] == XU_PC_UPCALL) {
        fprintf(f, "  #%-2u %-18s %s: an event or exception interrupted the frames below\n",
                (*level)++, "", XU_UPCALL_FRAME);
        return;
    }
    n = frame_lines(snap, s, i, &l, &sym);
    if (n == 0 || !sym) {
        text_line(f, (*level)++, s->pcs[i], "??", false, 0, n ? &l[n - 1] : NULL);
        return;
    }
    for (k = n; k-- > 0;)
        text_line(f, (*level)++, s->pcs[i], l[k].name, !l[k].inlined, s->pcs[i] - sym->start,
                  &l[k]);
}

static void text_vcpu(FILE *f, const struct xu_stack_source *src,
                      const struct xu_stack_snapshot *snap, unsigned int v)
{
    const struct xu_stack_vcpu *sv = &snap->vcpus[v];
    struct xu_stack s = { .vcpu = v, .depth = sv->depth, .end = sv->end, .pcs = sv->pcs };
    unsigned int level = 0;
    uint32_t i;

    if (sv->rc < 0) {
        fprintf(f, "vCPU %u: its registers could not be read: %s\n", v, strerror(-sv->rc));
        return;
    }
    if (!sv->regs.online) {
        fprintf(f, "vCPU %u: offline\n", v);
        return;
    }
    fprintf(f, "vCPU %u: ", v);
    /* a core, or a backend without states, says nothing about it */
    if (sv->state.state != XU_VSTATE_UNKNOWN)
        fprintf(f, "%s, ", xu_vstate_name(sv->state.state));
    fprintf(f, "%s mode, %u-bit\n", sv->regs.kernel_mode ? "kernel" : "user",
            bits_of(src, &sv->regs));
    text_regs(f, src, &sv->regs);
    for (i = 0; sv->pcs && i < sv->depth; i++)
        text_frame(f, snap, &s, i, &level);
    fprintf(f, "  walk ended: %s\n", xu_stack_end_text(sv->end, src->core != NULL));
}

static void text_snapshot(FILE *f, const struct xu_stack_source *src,
                          const struct xu_stack_snapshot *snap)
{
    char when[32] = "";
    struct tm tm;
    unsigned int v;

    if (gmtime_r(&snap->wall, &tm))
        strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (src->core)
        fprintf(f, "core %s: %s guest, %u vCPU context%s (numbered in the core's order)",
                src->core, src->type == XU_GUEST_PV ? "PV" : "HVM or PVH", snap->nr_vcpus,
                snap->nr_vcpus == 1 ? "" : "s");
    else
        fprintf(f, "domain %" PRIu32 " (%s): %s, %u vCPU%s, snapshot %u of %u at %s",
                src->domid, src->label, xu_guest_type_name(src->type), snap->nr_vcpus,
                snap->nr_vcpus == 1 ? "" : "s", snap->index + 1, snap->total, when);
    if (src->core && src->xen_major)
        fprintf(f, ", written by Xen %u.%u", src->xen_major, src->xen_minor);
    fprintf(f, "\nsymbols: %s", src->elf ? src->elf : "none (frames are addresses)");
    if (src->slide)
        fprintf(f, ", its kernel moved 0x%" PRIx64 " bytes %s its link-time addresses (KASLR)",
                src->slide > 0 ? (uint64_t)src->slide : -(uint64_t)src->slide,
                src->slide > 0 ? "above" : "below");
    fputc('\n', f);
    for (v = 0; v < snap->nr_vcpus; v++) {
        fputc('\n', f);
        text_vcpu(f, src, snap, v);
    }
    if (snap->index + 1 < snap->total)
        fputc('\n', f);
}

/* ---- the document ---- */

void xu_stack_print_begin(FILE *f, const struct xu_stack_source *src)
{
    if (!src->json)
        return;
    fputs("{\"schema\": \"xen-uniprof-stack/1\", \"source\": ", f);
    fputs(src->core ? "\"core\"" : "\"live\"", f);
    fputs(", \"core\": ", f);
    json_str(f, src->core);
    if (src->core)
        fputs(", \"domid\": null, \"name\": null", f);
    else {
        fprintf(f, ", \"domid\": %" PRIu32 ", \"name\": ", src->domid);
        json_str(f, src->label);
    }
    fprintf(f, ", \"type\": \"%s\", \"arch\": \"%s\", \"xen\": ",
            src->core && src->type != XU_GUEST_PV ? "hvm-or-pvh" : xu_guest_type_name(src->type),
            src->arch ? src->arch->name : "unknown");
    if (src->core && src->xen_major)
        fprintf(f, "\"%u.%u\"", src->xen_major, src->xen_minor);
    else
        fputs("null", f);
    fputs(", \"elf\": ", f);
    json_str(f, src->elf);
    fprintf(f, ", \"slide\": \"%s0x%" PRIx64 "\", \"max_depth\": %u,\n  \"snapshots\": [",
            src->slide < 0 ? "-" : "",
            src->slide < 0 ? -(uint64_t)src->slide : (uint64_t)src->slide, src->max_depth);
}

int xu_stack_print_snapshot(FILE *f, const struct xu_stack_source *src,
                            const struct xu_stack_snapshot *snap)
{
    if (src->json)
        json_snapshot(f, src, snap);
    else
        text_snapshot(f, src, snap);
    return ferror(f) ? -1 : 0;
}

void xu_stack_print_end(FILE *f, const struct xu_stack_source *src)
{
    if (src->json)
        fputs("\n  ]}\n", f);
}
