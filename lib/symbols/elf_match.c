/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf_match.c - does the symbol ELF match the guest that runs?  (See
 * xu_elf_find.h for what is compared and why by share of bytes.)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/xu_elf_find.h"
#include "symbols/xu_kaslr.h"
#include "target/xu_pause.h"

#define MAX_TEXT_SECTIONS 64
#define BUILD_ID_MAX 64

struct text_section {
    uint64_t addr, size;
    Elf_Data *data;             /* file bytes, d_size >= size */
};

/* One range to compare, planned before the guest is paused. */
struct chunk {
    uint64_t va;
    unsigned int len;
    const uint8_t *file;        /* the file's bytes for [va, va+len) */
};

struct elf_text {
    int fd;
    Elf *elf;
    uint64_t entry;
    struct text_section sec[MAX_TEXT_SECTIONS];
    unsigned int nsec;
    uint64_t total;             /* sum of sizes */
    uint8_t build_id[BUILD_ID_MAX];
    size_t build_id_len;
    uint64_t build_id_va;       /* 0: the note is not loaded */
    struct chunk plan[XU_ELF_MATCH_CHUNKS];
    unsigned int nplan;
    struct xu_kaslr_anchors anchors;    /* what a relocated kernel's slide is read against */
};

static void plan_chunks(const char *path, struct elf_text *t);

const char *xu_elf_verdict_name(enum xu_elf_verdict v)
{
    switch (v) {
    case XU_ELF_UNKNOWN:  return "unknown";
    case XU_ELF_MATCH:    return "match";
    case XU_ELF_MISMATCH: return "mismatch";
    }
    return "unknown";
}

/* Text freed after boot (Linux frees .init.*; .exit.* is discarded) is
 * unmapped or reused in the running guest: comparing it says nothing. */
static bool boot_only(const char *name)
{
    return name && (strncmp(name, ".init", 5) == 0 || strncmp(name, ".exit", 5) == 0);
}

static void read_note(const GElf_Shdr *sh, Elf_Data *data, struct elf_text *t)
{
    size_t off = 0, next, name_off, desc_off;
    unsigned int guard = 0;
    GElf_Nhdr nh;

    while (guard++ < 1024 && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4
            && memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0
            && nh.n_descsz > 0 && nh.n_descsz <= BUILD_ID_MAX) {
            memcpy(t->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
            t->build_id_len = nh.n_descsz;
            /* Loaded only when the section is allocated at an address. */
            if ((sh->sh_flags & SHF_ALLOC) && sh->sh_addr)
                t->build_id_va = sh->sh_addr + desc_off;
            return;
        }
        off = next;
    }
}

static void text_close(struct elf_text *t)
{
    if (t->elf)
        elf_end(t->elf);
    if (t->fd >= 0)
        close(t->fd);
    memset(t, 0, sizeof(*t));
    t->fd = -1;
}

static int text_open(const char *path, struct xu_log *log, struct elf_text *t)
{
    Elf_Scn *scn = NULL;
    GElf_Ehdr eh;
    size_t shstrndx;
    unsigned int n = 0;
    int rc;

    memset(t, 0, sizeof(*t));
    t->fd = -1;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -ENOEXEC;
    t->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (t->fd < 0) {
        rc = -errno;
        xu_error(log, "cannot open %s: %s", path, strerror(-rc));
        goto out;
    }
    t->elf = elf_begin(t->fd, ELF_C_READ, NULL);
    if (!t->elf || elf_kind(t->elf) != ELF_K_ELF || !gelf_getehdr(t->elf, &eh)
        || elf_getshdrstrndx(t->elf, &shstrndx) != 0) {
        xu_error(log, "%s is not a readable ELF file", path);
        rc = -ENOEXEC;
        goto out;
    }
    /* an ARM ELF's Thumb entry has bit 0 set: its code starts below it */
    t->entry = eh.e_machine == EM_ARM ? eh.e_entry & ~(uint64_t)1 : eh.e_entry;
    while ((scn = elf_nextscn(t->elf, scn)) && n++ < 65536) {
        GElf_Shdr sh;
        Elf_Data *data;
        const char *name;

        if (!gelf_getshdr(scn, &sh))
            continue;
        name = elf_strptr(t->elf, shstrndx, sh.sh_name);
        if (sh.sh_type == SHT_NOTE && !t->build_id_len) {
            data = elf_getdata(scn, NULL);
            if (data && data->d_buf)
                read_note(&sh, data, t);
            continue;
        }
        /* NOBITS text (a separate debug file) has no bytes to compare. */
        if (sh.sh_type != SHT_PROGBITS || (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR))
                != (SHF_ALLOC | SHF_EXECINSTR) || sh.sh_size == 0 || boot_only(name))
            continue;
        if (t->nsec == MAX_TEXT_SECTIONS)
            continue;
        data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf || data->d_size < sh.sh_size)
            continue;
        t->sec[t->nsec].addr = sh.sh_addr;
        t->sec[t->nsec].size = sh.sh_size;
        t->sec[t->nsec].data = data;
        t->total += sh.sh_size;
        t->nsec++;
    }
    plan_chunks(path, t);
    rc = 0;
out:
    if (rc < 0)
        text_close(t);
    return rc;
}

/* The section holding va with at least one byte, or NULL. */
static const struct text_section *section_at(const struct elf_text *t, uint64_t va)
{
    unsigned int i;

    for (i = 0; i < t->nsec; i++)
        if (va >= t->sec[i].addr && va - t->sec[i].addr < t->sec[i].size)
            return &t->sec[i];
    return NULL;
}

/* The va of the text byte at offset off of all text sections together. */
static uint64_t text_offset_va(const struct elf_text *t, uint64_t off)
{
    unsigned int i;

    for (i = 0; i < t->nsec; i++) {
        if (off < t->sec[i].size)
            return t->sec[i].addr + off;
        off -= t->sec[i].size;
    }
    return 0;
}

/* A chunk of one repeated byte (alignment padding, a zeroed page Xen
 * fills in at boot such as the hypercall page) says nothing either way. */
static bool uniform(const uint8_t *p, unsigned int len)
{
    unsigned int i;

    for (i = 1; i < len; i++)
        if (p[i] != p[0])
            return false;
    return true;
}

/* The chunk starting at va, bounded by its section and max; false when
 * it is not in loaded text or holds no information. */
static bool make_chunk(const struct elf_text *t, uint64_t va, uint64_t max, struct chunk *c)
{
    const struct text_section *s = section_at(t, va);
    uint64_t len;

    if (!s)
        return false;
    len = s->addr + s->size - va;
    if (len > max)
        len = max;
    if (len > XU_ELF_MATCH_CHUNK_LEN)
        len = XU_ELF_MATCH_CHUNK_LEN;
    c->va = va;
    c->len = (unsigned int)len;
    c->file = (const uint8_t *)s->data->d_buf + (va - s->addr);
    return len >= 4 && !uniform(c->file, c->len);
}

/* Past the highest text byte. */
static uint64_t text_end(const struct elf_text *t)
{
    uint64_t end = 0;
    unsigned int i;

    for (i = 0; i < t->nsec; i++)
        if (t->sec[i].addr + t->sec[i].size > end)
            end = t->sec[i].addr + t->sec[i].size;
    return end;
}

/* The lowest text address. */
static uint64_t text_start(const struct elf_text *t)
{
    uint64_t lo = UINT64_MAX;
    unsigned int i;

    for (i = 0; i < t->nsec; i++)
        if (t->sec[i].addr < lo)
            lo = t->sec[i].addr;
    return lo;
}

static void silent_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    (void)msg;
}

/*
 * Choose what to compare: the entry point, then function starts spread
 * over the text (code, not the data or padding that may share a section),
 * found by probing the symbol table at evenly spaced addresses.  Without
 * symbols, evenly spaced raw chunks.  All file work happens here, before
 * any pause.
 */
static void plan_chunks(const char *path, struct elf_text *t)
{
    enum { PROBES = 4 * XU_ELF_MATCH_CHUNKS };
    struct xu_log silent = { silent_emit, NULL, XU_LOG_ERROR };
    struct xu_symtab *st = NULL;
    struct chunk cand[PROBES];
    unsigned int ncand = 0, k, want;
    uint64_t last = UINT64_MAX;

    t->nplan = 0;
    if (t->nsec == 0)
        return;
    /* only where to compare: the file's machine was checked when it was chosen */
    if (xu_symtab_open_for(path, EM_NONE, &silent, &st) < 0)
        st = NULL;
    xu_kaslr_anchors_from(st, text_start(t), text_end(t), &t->anchors);
    for (k = 0; k < PROBES; k++) {
        uint64_t va = text_offset_va(t, t->total * k / PROBES);
        uint64_t max = XU_ELF_MATCH_CHUNK_LEN;
        struct chunk c;

        if (st) {
            const struct xu_symbol *sym = xu_symtab_lookup(st, va);
            if (!sym)
                continue;
            va = sym->start;
            if (sym->size)
                max = sym->size;
        }
        if (va == last || va == t->entry)
            continue;
        last = va;
        if (make_chunk(t, va, max, &c))
            cand[ncand++] = c;
    }
    if (make_chunk(t, t->entry, XU_ELF_MATCH_CHUNK_LEN, &t->plan[0]))
        t->nplan = 1;
    want = XU_ELF_MATCH_CHUNKS - t->nplan;
    if (ncand <= want) {
        memcpy(&t->plan[t->nplan], cand, ncand * sizeof(cand[0]));
        t->nplan += ncand;
    } else {
        for (k = 0; k < want; k++)
            t->plan[t->nplan++] = cand[(uint64_t)k * ncand / want];
    }
    xu_symtab_free(st);
}

/* The file's chunk against the guest's bytes slide above it. */
static void compare_chunk(const struct chunk *c, struct xu_mem *m, int64_t slide,
                          struct xu_elf_match *out)
{
    uint8_t guest[XU_ELF_MATCH_CHUNK_LEN];
    unsigned int i, equal = 0;

    if (xu_mem_read(m, c->va + (uint64_t)slide, guest, c->len) < 0) {
        out->unreadable++;
        return;
    }
    out->chunks++;
    out->bytes += c->len;
    for (i = 0; i < c->len; i++) {
        if (guest[i] == c->file[i])
            equal++;
        else if (!out->first_diff_va)
            out->first_diff_va = c->va + (uint64_t)slide + i;
    }
    out->equal_bytes += equal;
    if (equal * 100 >= c->len * XU_ELF_MATCH_MIN_PERCENT)
        out->agreeing++;
}

/* Compare an opened ELF with the guest, its addresses slide bytes higher
 * there: memory reads only, no I/O. */
static void check_text(const struct elf_text *t, struct xu_mem *m, int64_t slide,
                       struct xu_elf_match *out)
{
    unsigned int i;

    memset(out, 0, sizeof(*out));
    out->slide = slide;
    if (t->build_id_va) {
        uint8_t id[BUILD_ID_MAX];

        if (xu_mem_read(m, t->build_id_va + (uint64_t)slide, id, t->build_id_len) == 0) {
            out->build_id_checked = true;
            out->build_id_equal = memcmp(id, t->build_id, t->build_id_len) == 0;
        }
    }
    for (i = 0; i < t->nplan; i++)
        compare_chunk(&t->plan[i], m, slide, out);

    if (out->build_id_checked)
        out->verdict = out->build_id_equal ? XU_ELF_MATCH : XU_ELF_MISMATCH;
    else if (out->chunks == 0)
        out->verdict = XU_ELF_UNKNOWN;
    else if (out->agreeing * 4 >= out->chunks * 3)
        out->verdict = XU_ELF_MATCH;
    else
        out->verdict = XU_ELF_MISMATCH;
}

/* After the guest runs again. */
static void report(const char *path, const struct elf_text *t, struct xu_log *log,
                   const struct xu_elf_match *out)
{
    xu_debug(log, "%s vs guest: %s (build-id %s; %u of %u chunks agree, %u unmapped, "
             "%llu/%llu bytes equal)", path, xu_elf_verdict_name(out->verdict),
             out->build_id_checked ? (out->build_id_equal ? "equal" : "differs") : "not loaded",
             out->agreeing, out->chunks, out->unreadable, (unsigned long long)out->equal_bytes,
             (unsigned long long)out->bytes);
    if (out->verdict == XU_ELF_UNKNOWN && t->nplan == 0 && !t->build_id_va)
        xu_info(log, "%s holds no loaded text: it cannot be compared with the guest", path);
    else if (out->verdict == XU_ELF_UNKNOWN)
        xu_info(log, "the guest maps none of %s's text where the file says: loaded "
                "elsewhere (KASLR?) or not this kernel", path);
}

int xu_elf_match_check(const char *path, const char *name, struct xu_mem *m,
                       struct xu_log *log, struct xu_elf_match *out)
{
    struct elf_text t;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = text_open(path, log, &t);
    if (rc < 0)
        return rc;
    check_text(&t, m, 0, out);
    report(name ? name : path, &t, log, out);
    text_close(&t);
    return 0;
}

/* Which of two outcomes tells more: a match, then a mismatch (text read and
 * differing: the refusal), then nothing read. */
static int rank(const struct xu_elf_match *r)
{
    return r->verdict == XU_ELF_MATCH ? 2 : r->verdict == XU_ELF_MISMATCH ? 1 : 0;
}

/*
 * The slides the vCPU points at (kaslr.c), then where the file says: the
 * first that matches wins, else the attempt that tells most.  A kernel
 * without anchors, or a guest whose registers hold none (PV, unikernels),
 * is compared where the file says alone, as it always was.
 */
static void check_slides(const struct elf_text *t, struct xu_mem *m,
                         const struct xu_vcpu_regs *regs, struct xu_elf_match *out)
{
    struct xu_kaslr_candidate cand[XU_KASLR_MAX_CANDIDATES + 1];
    struct xu_elf_match r;
    unsigned int n, i, rejected;
    bool have_zero = false;

    n = xu_kaslr_candidates(&t->anchors, regs, m, cand, &rejected);
    for (i = 0; i < n; i++)
        have_zero |= cand[i].slide == 0;
    if (!have_zero)
        cand[n++] = (struct xu_kaslr_candidate){ .slide = 0, .source = XU_KASLR_NONE };
    memset(out, 0, sizeof(*out));
    for (i = 0; i < n; i++) {
        check_text(t, m, cand[i].slide, &r);
        r.slide_source = cand[i].source;
        r.slide_runtime = cand[i].runtime;
        if (i == 0 || rank(&r) > rank(out))
            *out = r;
        if (r.verdict == XU_ELF_MATCH)
            break;
    }
    out->slide_candidates = n - (have_zero ? 0 : 1);
    out->slide_rejected = rejected;
    out->kaslr_anchors = xu_kaslr_has_anchors(&t->anchors);
}

int xu_elf_match_guest(const char *path, const char *name, struct xu_target *t,
                       struct xu_mem *m, struct xu_pause *pause, struct xu_log *log,
                       struct xu_elf_match *out)
{
    struct xu_pause *own_pause = NULL;
    struct elf_text tx;
    struct xu_domain_info info;
    struct xu_vcpu_regs regs, chosen;
    bool paused = false, have = false;
    unsigned int v, nvcpus;
    int rc;

    memset(out, 0, sizeof(*out));
    /* All file work before the pause: the paused window holds reads only. */
    rc = text_open(path, log, &tx);
    if (rc < 0)
        return rc;
    rc = xu_target_info(t, &info);
    if (rc < 0)
        goto out;
    if (!pause) {
        rc = xu_pause_new(&own_pause, t, NULL, log);
        if (rc < 0)
            goto out;
        pause = own_pause;
    }
    /* Our own reference, whether or not someone else paused it too. */
    rc = xu_pause_take(pause);
    if (rc < 0)
        goto out;
    paused = true;

    /* Prefer a vCPU in kernel mode: a PV guest's user-mode page tables do
     * not map the kernel. */
    nvcpus = info.max_vcpu_id + 1;
    if (nvcpus > XU_MAX_VCPUS)
        nvcpus = XU_MAX_VCPUS;
    for (v = 0; v < nvcpus; v++) {
        if (xu_target_vcpu_regs(t, v, &regs) < 0 || !regs.online)
            continue;
        if (!have || (regs.kernel_mode && !chosen.kernel_mode)) {
            chosen = regs;
            have = true;
        }
        if (chosen.kernel_mode)
            break;
    }
    rc = 0;
    if (have) {     /* else nothing to read through: the verdict stays unknown */
        xu_mem_begin(m);
        xu_mem_set_context(m, &chosen);
        check_slides(&tx, m, &chosen, out);
    }
out:
    if (paused) {
        /* A failure is logged there, with the command that fixes it. */
        int r = xu_pause_release(pause);
        if (r < 0 && rc == 0)
            rc = r;
    }
    xu_pause_free(own_pause);
    if (rc == 0)
        report(name ? name : path, &tx, log, out);
    text_close(&tx);
    return rc;
}
