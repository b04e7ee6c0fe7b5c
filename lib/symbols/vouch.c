/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vouch.c - the ELF's word on special code and on finished walks
 * (see xu_vouch.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_vouch.h"

/* Distinct outermost functions told apart when saying why stacks are not
 * complete: the common case is one or two (a missing thread entry). */
#define OUTERMOST_KINDS 16

const char *const xu_default_roots[] = {
    "thread_starter",                       /* Mini-OS */
    "asm_thread_starter",                   /* Unikraft */
    "ret_from_fork", "ret_from_fork_asm",   /* Linux */
    "startup_64", "secondary_startup_64", "secondary_startup_64_no_verify",
    "cpu_bringup_and_idle",
    "_start", "_start_ap",                  /* the lab's test guests */
    NULL,
};

const char *const xu_boundary_symbols[] = {
    "hypervisor_callback", "hypervisor_callback2", "error_entry",  /* Mini-OS, Unikraft */
    "xen_hypervisor_callback", "asm_exc_xen_hypervisor_callback",  /* Linux */
    "xen_asm_exc_xen_hypervisor_callback", "asm_sysvec_xen_hvm_callback",
    "asm_common_interrupt",
    NULL,
};

static const uint8_t *elf_code_bytes(const void *ctx, uint64_t addr, size_t len)
{
    return xu_elf_code_before(ctx, addr, len);
}

static bool symtab_func_start(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    const struct xu_symbol *s = xu_symtab_lookup(ctx, pc);

    if (!s || !s->function)
        return false;       /* a label: where its code begins is not known */
    *start = s->start;
    if (thumb)
        *thumb = s->thumb;
    return true;
}

void xu_unwind_env_from_elf(const struct xu_symtab *st, const struct xu_elf_code *code,
                            const struct xu_arch_ops *arch, struct xu_unwind_env *env)
{
    const struct xu_symbol *s;
    const struct xu_code_range *r;
    unsigned int i, n = 0;

    memset(&env->hypercall_page, 0, sizeof(env->hypercall_page));
    env->nr_boundary = env->nr_text = 0;
    if (st && arch->hypercall_stub && (s = xu_symtab_find(st, "hypercall_page"))) {
        /* a page of 128 entries, whatever size the symbol claims */
        env->hypercall_page.start = s->start;
        env->hypercall_page.end = s->start + 128ULL * arch->hypercall_entry_size;
    }
    for (i = 0; st && xu_boundary_symbols[i] && env->nr_boundary < XU_UNWIND_MAX_RANGES; i++) {
        s = xu_symtab_find(st, xu_boundary_symbols[i]);
        if (s && s->size) {
            env->boundary[env->nr_boundary].start = s->start;
            env->boundary[env->nr_boundary].end = s->start + s->size;
            env->nr_boundary++;
        }
    }
    env->code = NULL;
    env->code_ctx = NULL;
    env->func_start = st ? symtab_func_start : NULL;
    env->func_ctx = st;
    if (code) {
        r = xu_elf_code_ranges(code, &n);
        memcpy(env->text, r, n * sizeof(*r));
        env->nr_text = n;
        env->code = elf_code_bytes;
        env->code_ctx = code;
    }
}

int xu_roots_parse(const char *spec, const char ***out)
{
    bool add = spec[0] == '+';
    size_t ndef = 0, n = 0, i, len, bytes;
    const char *p, *e;
    const char **v;
    char *s;

    *out = NULL;
    if (add) {
        spec++;
        while (xu_default_roots[ndef])
            ndef++;
    }
    /* count and check first: then one allocation holds pointers and names */
    for (p = spec;; p = e + 1) {
        e = strchr(p, ',');
        len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 || len >= XU_MAX_ROOT_NAME || ++n > XU_MAX_ROOTS)
            return -EINVAL;
        if (!e)
            break;
    }
    bytes = (ndef + n + 1) * sizeof(*v) + strlen(spec) + 1;
    v = malloc(bytes);
    if (!v)
        return -ENOMEM;
    s = (char *)(v + ndef + n + 1);
    memcpy(s, spec, strlen(spec) + 1);
    for (i = 0; i < ndef; i++)
        v[i] = xu_default_roots[i];
    for (p = s;; p = e + 1) {
        char *comma = strchr(p, ',');

        v[i++] = p;
        if (!comma)
            break;
        *comma = '\0';
        e = comma;
    }
    v[i] = NULL;
    *out = v;
    return 0;
}

/*
 * Entry code: from an entry Xen or the ELF names to the next function
 * symbol, labels inside it included (a unikernel's boot code is one stretch
 * of assembly whose labels, not a function, are the outermost frames), and
 * never into the hypercall page, which Xen fills and nobody starts in.
 */
static bool in_entry_code(const struct xu_vouch *v, uint64_t addr)
{
    uint64_t entries[XU_ELF_CODE_MAX_ENTRIES], end;
    const struct xu_symbol *next, *here, *hc;
    unsigned int i, n;

    if (!v->code)
        return false;
    n = xu_elf_code_entries(v->code, entries);
    hc = v->symtab ? xu_symtab_find(v->symtab, "hypercall_page") : NULL;
    for (i = 0; i < n; i++) {
        if (addr < entries[i])
            continue;
        next = v->symtab ? xu_symtab_next_function(v->symtab, entries[i]) : NULL;
        here = v->symtab ? xu_symtab_lookup(v->symtab, entries[i]) : NULL;
        if (next)
            end = next->start;
        else if (here)
            end = here->start + here->size;     /* the last code: its symbol's end */
        else
            end = entries[i] + 1;               /* no symbols: the entry alone */
        if (hc && hc->start > entries[i] && hc->start < end)
            end = hc->start;
        if (addr < end)
            return true;
    }
    return false;
}

static bool is_root(const struct xu_vouch *v, uint64_t addr)
{
    const struct xu_symbol *s = v->symtab ? xu_symtab_lookup(v->symtab, addr) : NULL;
    const char *const *roots = v->roots ? v->roots : xu_default_roots;
    size_t i;

    if (in_entry_code(v, addr))
        return true;
    if (!s)
        return false;
    for (i = 0; roots[i]; i++)
        if (strcmp(roots[i], s->name) == 0)
            return true;
    return false;
}

/*
 * Every return address of s follows a call, in the file's code or in what the
 * kernel patches into it at boot (a kernel module's code, which the file does
 * not hold, and code the kernel freed after boot, which an image read from its
 * memory does not hold, are taken on the walk's word): frames 1.. that are neither a
 * boundary marker nor the exact PC an event interrupted, nor the outermost
 * frame (last) when it is a root: where a thread's stack begins, its
 * "return address" may be one pushed by hand for unwinders to stop at
 * (Linux's head_64.S pushes .Lafter_lret under the boot CPU's and every
 * secondary CPU's first function).
 */
static bool returns_follow_calls(const struct xu_vouch *v, const struct xu_stack *s,
                                 uint32_t last, bool last_is_root)
{
    size_t n = v->arch->call_window;
    uint32_t i;

    if (!v->arch->follows_call || !v->code)
        return true;        /* nothing to check with: the walk's word stands */
    for (i = 1; i < s->depth; i++) {
        if (i == last && last_is_root)
            continue;
        const uint8_t *b;

        /* a kernel module's code is not in the file, nor code the kernel freed
         * after boot in an image read from its memory: the walk (ORC's) stands */
        if (xu_pc_is_pseudo(s->pcs[i]) || s->pcs[i - 1] == XU_PC_UPCALL ||
            xu_elf_code_patched_call(v->code, s->pcs[i]) ||
            xu_elf_code_freed(v->code, s->pcs[i]) ||
            (v->symtab && xu_symtab_in_chained(v->symtab, s->pcs[i])))
            continue;
        b = xu_elf_code_before(v->code, s->pcs[i], n);
        if (!b) {
            /* near the start of a range: what there is of it */
            size_t k;

            for (k = n - 1; k >= 2 && !b; k--)
                if ((b = xu_elf_code_before(v->code, s->pcs[i], k)))
                    n = k;
            if (!b)
                return false;
        }
        if (!v->arch->follows_call(b, n))
            return false;
        n = v->arch->call_window;
    }
    return true;
}

/* The outermost frame of the walk: below the task a sample may end with. */
static uint32_t outermost(const struct xu_stack *s)
{
    uint32_t last = s->depth - 1;

    while (last > 0 && xu_pc_is_task(s->pcs[last]))
        last--;
    return last;
}

void xu_vouch_profile(struct xu_profile *p, const struct xu_vouch *v)
{
    size_t i, nr = xu_profile_nr_stacks(p);

    for (i = 0; i < nr; i++) {
        const struct xu_stack *s = xu_profile_stack(p, i);
        enum xu_walk_end end = s->end;
        uint32_t last = outermost(s);
        bool root;

        if (end != XU_WALK_COMPLETE && end != XU_WALK_CFI_ROOT)
            continue;
        root = is_root(v, xu_stack_lookup_addr(s, last));
        if (!returns_follow_calls(v, s, last, root))
            end = XU_WALK_NOT_CALL;
        else if (end == XU_WALK_COMPLETE && !root)
            end = XU_WALK_NOT_ROOT;
        else
            end = XU_WALK_COMPLETE;
        if (end != s->end)
            xu_profile_set_end(p, i, end);
    }
}

const char *xu_vouch_outermost_not_root(const struct xu_profile *p, const struct xu_symtab *st,
                                        double *share)
{
    const struct xu_symbol *seen[OUTERMOST_KINDS];
    uint64_t count[OUTERMOST_KINDS] = { 0 }, total = 0;
    size_t i, nr = xu_profile_nr_stacks(p);
    unsigned int k, n = 0, best = 0;

    *share = 0;
    for (i = 0; st && i < nr; i++) {
        const struct xu_stack *s = xu_profile_stack(p, i);
        const struct xu_symbol *sym;

        if (s->end != XU_WALK_NOT_ROOT || s->depth == 0)
            continue;
        total += s->count;
        sym = xu_symtab_lookup(st, xu_stack_lookup_addr(s, outermost(s)));
        if (!sym)
            continue;
        for (k = 0; k < n && seen[k] != sym; k++)
            ;
        if (k == n) {
            if (n == OUTERMOST_KINDS)
                continue;       /* a rare one past the first few: not the answer */
            seen[n++] = sym;
        }
        count[k] += s->count;
    }
    for (k = 1; k < n; k++)
        if (count[k] > count[best])
            best = k;
    if (n == 0 || total == 0)
        return NULL;
    *share = 100.0 * (double)count[best] / (double)total;
    return seen[best]->name;
}
