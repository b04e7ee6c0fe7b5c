/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_build.c - reading an ELF's CFI with libdw into the compact table.
 *
 * libdw interprets the CFI programs (dwarf_cfi_addrframe), but has no call
 * that lists FDEs by address, so the FDEs are enumerated here with
 * dwarf_next_cfi and their initial_location/address_range decoded from the
 * CIE's pointer encoding.  Every FDE is then compiled row by row: the row
 * libdw returns for an address carries its [start, end), so the next query
 * is at end, never at every byte.
 *
 * All of it is hostile input.  FDEs are kept only inside executable
 * PT_LOAD segments; the number of FDEs and rows is capped by max_rows; and
 * because libdw runs an FDE's program from its start for each row (rows^2
 * per FDE), the bytes of CFI program it is asked to run are counted against
 * max_work.  Past a bound, the rest becomes UNKNOWN and the table is marked
 * truncated.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cfi_priv.h"
#include "cfi_sections.h"

#define MAX_EXEC_SEGMENTS 64
#define MAX_ROWS_PER_FDE  (1u << 16)

enum fde_source { SRC_EH_FRAME = 0, SRC_DEBUG_FRAME = 1 };

/* 16 bytes: a hostile file may hold millions of FDEs */
struct fde_ref {
    uint64_t start;             /* ELF address */
    uint32_t len;               /* bytes covered */
    uint32_t cost : 31;         /* CFI program bytes one query runs */
    uint32_t src : 1;
};

struct range {
    uint64_t lo, hi;
};

struct build {
    struct xu_log *log;
    const struct xu_arch_ops *arch;     /* from the ELF's machine: its DWARF registers */
    const unsigned char *ident;
    bool addr32;                /* an ELFCLASS32 file: its "absptr" is 4 bytes */
    struct range exec[MAX_EXEC_SEGMENTS];
    unsigned int nexec;
    struct fde_ref *fdes;
    size_t nfdes, cap, max_fdes;
    uint64_t *eh_offs;          /* every .eh_frame FDE checked, by offset, ascending */
    size_t n_eh, cap_eh;
    size_t ignored;
    bool truncated;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool in_exec(const struct build *b, uint64_t lo, uint64_t hi)
{
    unsigned int i;

    for (i = 0; i < b->nexec; i++)
        if (lo >= b->exec[i].lo && hi <= b->exec[i].hi)
            return true;
    return false;
}

/* A pointer encoding at the file's address size: DW_EH_PE_absptr is a
 * target address, 4 bytes in an ELFCLASS32 file (cfi_read_encoded() reads
 * 8 for it), so there it reads as udata4. */
static uint8_t at_address_size(uint8_t enc, bool addr32)
{
    if (addr32 && enc != DW_EH_PE_omit && (enc & 0x0f) == DW_EH_PE_absptr)
        return (uint8_t)((enc & 0xf0) | DW_EH_PE_udata4);
    return enc;
}

/* The FDE pointer encoding from a CIE's augmentation ('R'), absptr without. */
static int cie_fde_encoding(const Dwarf_CIE *cie, bool addr32, uint8_t *enc)
{
    const char *a = cie->augmentation;
    const uint8_t *p = cie->augmentation_data;
    const uint8_t *end = p + cie->augmentation_data_size;
    uint64_t skip;

    *enc = at_address_size(DW_EH_PE_absptr, addr32);
    if (a[0] != 'z')        /* unsized: only flags without data are understood */
        return a[strspn(a, "S")] == '\0' ? 0 : -1;
    for (a++; *a; a++) {
        switch (*a) {
        case 'R':
            if (p >= end)
                return -1;
            *enc = at_address_size(*p++, addr32);
            break;
        case 'L':
            if (p >= end)
                return -1;
            p++;
            break;
        case 'P':
            if (p >= end)
                return -1;
            {
                uint8_t penc = *p++;

                if (cfi_read_encoded(at_address_size(penc, addr32) & 0x0f, false, &p, end, 0,
                                     NULL, &skip) < 0)
                    return -1;
            }
            break;
        case 'S':
        case 'B':
            break;
        default:
            return 0;       /* the rest is sized by 'z': the encoding so far stands */
        }
    }
    return 0;
}

static int add_fde(struct build *b, uint64_t start, uint64_t end, uint64_t cost, int src)
{
    if (cost > 0x7fffffffu)
        cost = 0x7fffffffu;
    if (b->nfdes == b->max_fdes) {
        b->truncated = true;
        return 1;
    }
    if (b->nfdes == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        struct fde_ref *f;

        if (cap > b->max_fdes)
            cap = b->max_fdes;
        f = realloc(b->fdes, cap * sizeof(*f));
        if (!f)
            return -ENOMEM;
        b->fdes = f;
        b->cap = cap;
    }
    b->fdes[b->nfdes++] = (struct fde_ref){ .start = start, .len = (uint32_t)(end - start),
                                            .cost = (uint32_t)cost, .src = (uint32_t)src };
    return 0;
}

/* An .eh_frame FDE whose program and CIE were checked, for cfi_eh_frame_hdr_ok(). */
static int note_checked(struct build *b, uint64_t off)
{
    if (b->n_eh == b->cap_eh) {
        /* an entry takes 8 bytes at least: the section's size bounds the count */
        size_t cap = b->cap_eh ? b->cap_eh * 2 : 1024;
        uint64_t *o = realloc(b->eh_offs, cap * sizeof(*o));

        if (!o)
            return -ENOMEM;
        b->eh_offs = o;
        b->cap_eh = cap;
    }
    b->eh_offs[b->n_eh++] = off;
    return 0;
}

static int unsafe_section(struct build *b, const char *name, uint64_t off)
{
    xu_warn(b->log, "%s: the entry at offset %#llx names a register above %u or does not "
            "decode: the whole section is ignored", name, (unsigned long long)off,
            CFI_MAX_DWARF_REG);
    return 1;
}

/* Every FDE of one section (.eh_frame or .debug_frame): 0, 1 when the
 * section must not be used at all, or -errno. */
static int collect_fdes(struct build *b, Elf_Data *data, uint64_t sec_addr, int src)
{
    bool eh = src == SRC_EH_FRAME;
    Dwarf_Off off = 0, next, cie_off = (Dwarf_Off)-1;
    uint8_t cie_enc = 0;
    size_t cie_cost = 0;
    bool cie_ok = false, cie_z = false, full = false;
    const char *name = eh ? ".eh_frame" : ".debug_frame";

    for (;;) {
        Dwarf_CFI_Entry e;
        const uint8_t *p, *end;
        uint64_t start, range, aug_len;
        int r = dwarf_next_cfi(b->ident, data, eh, off, &next, &e);

        if (r > 0)
            break;
        if (r < 0 || next <= off) {
            xu_warn(b->log, "%s: unreadable entry at offset %#llx (%s): CFI cut short there",
                    name, (unsigned long long)off, dwarf_errmsg(-1));
            b->truncated = true;
            break;
        }
        if (dwarf_cfi_cie_p(&e))
            goto next_entry;
        /*
         * Every FDE's program is checked, the ones outside executable code
         * too: libdw finds FDEs by address itself and may run any of them
         * for an address a good FDE covers.  One that names an absurd
         * register (cfi_priv.h) or does not decode, or whose CIE does not,
         * makes the whole section unusable.
         */
        if (e.fde.CIE_pointer != cie_off) {
            Dwarf_CFI_Entry c;
            Dwarf_Off cnext;

            if (dwarf_next_cfi(b->ident, data, eh, e.fde.CIE_pointer, &cnext, &c) != 0 ||
                !dwarf_cfi_cie_p(&c) || cie_fde_encoding(&c.cie, b->addr32, &cie_enc) < 0)
                return unsafe_section(b, name, off);
            cie_off = e.fde.CIE_pointer;
            cie_cost = (size_t)(c.cie.initial_instructions_end - c.cie.initial_instructions);
            /* libdw sizes its register array by the return address
             * column too */
            cie_ok = c.cie.return_address_register <= CFI_MAX_DWARF_REG &&
                     cfi_program_ok(c.cie.initial_instructions,
                                    c.cie.initial_instructions_end, cie_enc);
            cie_z = c.cie.augmentation[0] == 'z';
        }
        p = e.fde.start;
        end = e.fde.end;
        if (!cie_ok ||
            cfi_read_encoded(cie_enc, true, &p, end,
                             sec_addr + (uint64_t)(p - (const uint8_t *)data->d_buf), NULL,
                             &start) < 0 ||
            cfi_read_encoded(cie_enc & 0x0f, false, &p, end, 0, NULL, &range) < 0)
            return unsafe_section(b, name, off);
        if (cie_z) {
            if (cfi_read_leb(&p, end, false, &aug_len) < 0 || aug_len > (uint64_t)(end - p))
                return unsafe_section(b, name, off);
            p += aug_len;
        }
        if (!cfi_program_ok(p, end, cie_enc))
            return unsafe_section(b, name, off);
        if (eh && (r = note_checked(b, off)) < 0)
            return r;
        if (range == 0 || start + range < start || !in_exec(b, start, start + range)) {
            b->ignored++;
            goto next_entry;
        }
        /* in_exec() bounds range below 4 GiB; an entry's size bounds the cost.
         * Past the cap the rest is still checked: libdw may reach it. */
        if (!full) {
            r = add_fde(b, start, start + range,
                        (uint64_t)(e.fde.end - e.fde.start) + cie_cost + 1, src);
            if (r < 0)
                return r;
            if (r > 0) {
                xu_warn(b->log, "%s: more FDEs than the table may hold: the rest is ignored",
                        name);
                full = true;
            }
        }
next_entry:
        off = next;
    }
    return 0;
}

static int fde_cmp(const void *a, const void *b)
{
    const struct fde_ref *x = a, *y = b;

    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (int)x->src - (int)y->src;   /* .eh_frame first */
}

/* CFA + offset as libdw spells it: call_frame_cfa [plus_uconst N] [stack_value]. */
static bool cfa_relative(const Dwarf_Op *ops, size_t nops, int64_t *off, bool *value)
{
    size_t i = 1;

    if (nops == 0 || ops[0].atom != DW_OP_call_frame_cfa)
        return false;
    *off = 0;
    *value = false;
    if (i < nops && ops[i].atom == DW_OP_plus_uconst)
        *off = (int64_t)ops[i++].number;
    if (i < nops && ops[i].atom == DW_OP_stack_value) {
        *value = true;
        i++;
    }
    return i == nops && *off >= INT32_MIN && *off <= INT32_MAX;
}

/* The rule of one libdw frame state; UNKNOWN where it needs more than we have. */
static void compile_row(const struct xu_arch_ops *a, Dwarf_Frame *fr, int ra_reg, bool signal,
                        struct xu_cfi_row *row)
{
    Dwarf_Op mem[3], *ops;
    size_t nops;
    uint64_t reg;
    int64_t off;
    bool value;

    memset(row, 0, sizeof(*row));
    row->kind = XU_CFI_UNKNOWN;
    if (dwarf_frame_cfa(fr, &ops, &nops) != 0 || nops != 1)
        return;
    if (ops[0].atom == DW_OP_bregx) {
        reg = ops[0].number;
        off = (int64_t)ops[0].number2;
    } else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
        reg = ops[0].atom - DW_OP_breg0;
        off = (int64_t)ops[0].number;
    } else {
        return;
    }
    if ((reg != a->dwarf_sp && reg != a->dwarf_fp) || off < INT32_MIN || off > INT32_MAX)
        return;
    row->cfa_reg = reg == a->dwarf_fp ? XU_CFI_REG_FP : XU_CFI_REG_SP;
    row->cfa_off = (int32_t)off;

    /* return address: saved at CFA + N, undefined in the outermost frame, or
     * "same value": still in the link register (an AArch64 leaf, or a
     * function before its prologue stored x30); without a link register
     * the rule means nothing */
    if (dwarf_frame_register(fr, ra_reg, mem, &ops, &nops) != 0)
        return;
    if (nops == 0) {
        if (!ops && (!a->has_link_register || ra_reg != (int)a->dwarf_ra))
            return;
        row->ra = ops ? XU_CFI_RA_UNDEFINED : XU_CFI_RA_LINK;
    } else if (cfa_relative(ops, nops, &off, &value) && !value) {
        row->ra_off = (int32_t)off;
    } else {
        return;
    }

    /* caller's fp: anything but same/saved leaves it unknown, the frame still unwinds */
    row->fp = XU_CFI_FP_UNDEFINED;
    if (dwarf_frame_register(fr, (int)a->dwarf_fp, mem, &ops, &nops) == 0) {
        if (nops == 0 && !ops) {
            row->fp = XU_CFI_FP_SAME;
        } else if (nops && cfa_relative(ops, nops, &off, &value) && !value) {
            row->fp = XU_CFI_FP_AT_CFA;
            row->fp_off = (int32_t)off;
        }
    }

    /* caller's sp: the CFA by definition, unless an interrupt frame saved it */
    if (dwarf_frame_register(fr, (int)a->dwarf_sp, mem, &ops, &nops) != 0)
        return;
    if (nops) {
        if (!cfa_relative(ops, nops, &off, &value))
            return;
        row->sp = value ? XU_CFI_SP_CFA : XU_CFI_SP_AT_CFA;
        row->sp_off = (int32_t)off;
    }
    row->signal = signal;
    row->kind = XU_CFI_RULE;
}

/* Compile the rows of every FDE, in address order, into the builder. */
static int compile_fdes(struct build *b, Dwarf_CFI *cfi[2], const struct xu_cfi_config *cfg,
                        struct cfi_builder *cb, size_t *compiled)
{
    uint64_t work = 0, max_work = cfg->max_work ? cfg->max_work : XU_CFI_DEFAULT_WORK;
    uint64_t bias = cfg->bias;
    struct xu_cfi_row unknown;
    size_t i;
    int rc = 0;

    memset(&unknown, 0, sizeof(unknown));
    unknown.kind = XU_CFI_UNKNOWN;
    for (i = 0; i < b->nfdes && rc == 0; i++) {
        const struct fde_ref *f = &b->fdes[i];
        uint64_t addr = f->start, fend = f->start + f->len;
        unsigned int nrows = 0;

        if (!cfi[f->src])
            continue;
        (*compiled)++;
        while (addr < fend && rc == 0) {
            Dwarf_Frame *fr = NULL;
            Dwarf_Addr s, e;
            struct xu_cfi_row row;
            bool signal = false;
            int ra_reg;

            if (f->cost > max_work || work > max_work - f->cost || nrows == MAX_ROWS_PER_FDE) {
                if (!b->truncated)
                    xu_warn(b->log, "CFI: work bound reached at %#llx: the remaining code "
                            "is marked unknown", (unsigned long long)addr);
                b->truncated = true;
                rc = cfi_builder_add(cb, addr + bias, fend + bias, &unknown);
                break;
            }
            work += f->cost;
            nrows++;
            if (dwarf_cfi_addrframe(cfi[f->src], addr, &fr) != 0) {
                rc = cfi_builder_add(cb, addr + bias, fend + bias, &unknown);
                break;
            }
            ra_reg = dwarf_frame_info(fr, &s, &e, &signal);
            if (ra_reg < 0 || e <= addr) {
                free(fr);
                rc = cfi_builder_add(cb, addr + bias, fend + bias, &unknown);
                break;
            }
            if (e > fend)
                e = fend;
            compile_row(b->arch, fr, ra_reg, signal, &row);
            free(fr);
            rc = cfi_builder_add(cb, addr + bias, e + bias, &row);
            addr = e;
        }
    }
    if (rc > 0) {
        xu_warn(b->log, "CFI: more rows than the table may hold (%zu): the rest is ignored",
                cb->max_rows);
        rc = 0;
    }
    return rc;
}

static int build_from_elf(Elf *elf, const struct xu_cfi_config *cfg, struct xu_log *log,
                          struct xu_cfi_table **out)
{
    struct xu_cfi_config defaults = { 0 };
    struct build b;
    struct cfi_builder cb;
    Dwarf *dw = NULL;
    Dwarf_CFI *cfi[2] = { NULL, NULL };
    Elf_Data *eh = NULL, *dbg = NULL;
    GElf_Ehdr eh_hdr;
    uint64_t eh_addr = 0, dbg_addr = 0, lo = UINT64_MAX, hi = 0;
    size_t phnum, shstrndx, i, compiled = 0;
    double t0 = now_s();
    int rc;

    memset(&b, 0, sizeof(b));
    memset(&cb, 0, sizeof(cb));
    *out = NULL;
    if (!cfg)
        cfg = &defaults;
    b.log = log;
    /* every FDE makes a row at least; half the rows bounds the transient list */
    b.max_fdes = (cfg->max_rows ? cfg->max_rows : XU_CFI_DEFAULT_MAX_ROWS) / 2 + 1;
    rc = -ENOEXEC;
    if (!gelf_getehdr(elf, &eh_hdr) || !(b.ident = (const unsigned char *)elf_getident(elf, NULL)))
        goto out;
    /* the class must be the architecture's: an i386 file is ELFCLASS32 */
    b.addr32 = eh_hdr.e_ident[EI_CLASS] == ELFCLASS32;
    if ((eh_hdr.e_ident[EI_CLASS] != ELFCLASS64 && !b.addr32) ||
        eh_hdr.e_ident[EI_DATA] != ELFDATA2LSB ||
        !(b.arch = xu_arch_by_elf_machine(eh_hdr.e_machine)) ||
        (b.arch->word_bytes == 4) != b.addr32 ||
        (eh_hdr.e_type != ET_EXEC && eh_hdr.e_type != ET_DYN)) {
        xu_debug(log, "CFI: not a little-endian executable or shared object of a guest "
                 "architecture this build knows, at its word size");
        goto out;
    }
    if (elf_getphdrnum(elf, &phnum) < 0 || elf_getshdrstrndx(elf, &shstrndx) < 0)
        goto out;
    for (i = 0; i < phnum && b.nexec < MAX_EXEC_SEGMENTS; i++) {
        GElf_Phdr ph;

        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
            ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
            continue;
        b.exec[b.nexec++] = (struct range){ ph.p_vaddr, ph.p_vaddr + ph.p_memsz };
        if (ph.p_vaddr < lo)
            lo = ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > hi)
            hi = ph.p_vaddr + ph.p_memsz;
    }
    rc = -ENODATA;
    if (b.nexec == 0) {
        xu_debug(log, "CFI: the ELF has no executable segment");
        goto out;
    }
    rc = -E2BIG;
    if (hi - lo > UINT32_MAX || lo + cfg->bias < lo) {
        xu_debug(log, "CFI: executable code spans 4 GiB or more");
        goto out;
    }

    /* .debug_frame through a Dwarf handle first: it decompresses the section */
    dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (dw && (cfi[SRC_DEBUG_FRAME] = dwarf_getcfi(dw)))
        dbg = cfi_section(elf, shstrndx, ".debug_frame", &dbg_addr, log);
    eh = cfi_section(elf, shstrndx, ".eh_frame", &eh_addr, log);
    if (eh)
        cfi[SRC_EH_FRAME] = dwarf_getcfi_elf(elf);
    if (!cfi[SRC_EH_FRAME])
        eh = NULL;
    if (!dbg)
        cfi[SRC_DEBUG_FRAME] = NULL;
    rc = -ENODATA;
    if (!eh && !dbg) {
        xu_debug(log, "CFI: the ELF has neither .eh_frame nor .debug_frame");
        goto out;
    }
    if (eh) {
        size_t before = b.nfdes;

        if ((rc = collect_fdes(&b, eh, eh_addr, SRC_EH_FRAME)) < 0)
            goto out;
        if (rc == 0 && !cfi_eh_frame_hdr_ok(elf, shstrndx, eh_addr, b.eh_offs, b.n_eh, log))
            rc = 1;
        if (rc > 0) {
            b.nfdes = before;
            b.truncated = true;
            eh = NULL;
        }
    }
    if (dbg) {
        size_t before = b.nfdes;

        if ((rc = collect_fdes(&b, dbg, dbg_addr, SRC_DEBUG_FRAME)) < 0)
            goto out;
        if (rc > 0) {
            b.nfdes = before;
            b.truncated = true;
            dbg = NULL;
        }
    }
    rc = -ENODATA;
    if (b.nfdes == 0) {
        xu_debug(log, "CFI: no FDE describes executable code");
        goto out;
    }
    qsort(b.fdes, b.nfdes, sizeof(*b.fdes), fde_cmp);
    rc = cfi_builder_init(&cb, lo + cfg->bias, hi - lo, cfg->max_rows);
    if (rc < 0)
        goto out;
    rc = compile_fdes(&b, cfi, cfg, &cb, &compiled);
    if (rc < 0)
        goto out;
    if (cb.t->stats.truncated)
        b.truncated = true;
    *out = cfi_builder_finish(&cb);
    if (!*out) {
        rc = -ENOMEM;
        goto out;
    }
    (*out)->stats.fdes = compiled;
    (*out)->stats.fdes_ignored = b.ignored;
    (*out)->stats.from_eh_frame = eh != NULL;
    (*out)->stats.from_debug_frame = dbg != NULL;
    (*out)->stats.truncated = b.truncated;
    (*out)->stats.build_seconds = now_s() - t0;
    if (b.truncated)
        xu_warn(log, "CFI table truncated: some code will unwind by frame pointer or not at all");
    rc = 0;
out:
    cfi_builder_dispose(&cb);
    if (cfi[SRC_EH_FRAME])
        dwarf_cfi_end(cfi[SRC_EH_FRAME]);
    if (dw)
        dwarf_end(dw);
    free(b.fdes);
    free(b.eh_offs);
    return rc;
}

int xu_cfi_from_memory(const void *image, size_t size, const struct xu_cfi_config *cfg,
                       struct xu_log *log, struct xu_cfi_table **out)
{
    Elf *elf;
    int rc;

    *out = NULL;
    elf_version(EV_CURRENT);
    /* libelf wants a writable pointer but ELF_C_READ never writes through it */
    elf = elf_memory((char *)(uintptr_t)image, size);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        xu_debug(log, "CFI: not an ELF image");
        rc = -ENOEXEC;
        goto out;
    }
    rc = build_from_elf(elf, cfg, log, out);
out:
    if (elf)
        elf_end(elf);
    return rc;
}

int xu_cfi_open(const char *path, const struct xu_cfi_config *cfg, struct xu_log *log,
                struct xu_cfi_table **out)
{
    Elf *elf = NULL;
    int fd = -1, rc;

    *out = NULL;
    elf_version(EV_CURRENT);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rc = -errno;
        xu_debug(log, "CFI: cannot open %s: %s", path, strerror(errno));
        goto out;
    }
    elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        xu_debug(log, "CFI: %s is not an ELF file", path);
        rc = -ENOEXEC;
        goto out;
    }
    rc = build_from_elf(elf, cfg, log, out);
    if (rc == 0) {
        struct xu_cfi_stats st;

        xu_cfi_get_stats(*out, &st);
        xu_info(log, "CFI of %s: %zu FDEs, %zu rows, %zu rules, %zu KiB, %.3f s", path,
                st.fdes, st.rows, st.rules, st.bytes >> 10, st.build_seconds);
    }
out:
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return rc;
}

const char *xu_cfi_strerror(int rc)
{
    switch (rc) {
    case -ENOEXEC: return "not a 64-bit ELF executable of a guest architecture this build knows";
    case -ENODATA: return "no .eh_frame or .debug_frame describing its code";
    case -E2BIG:   return "its executable code spans 4 GiB or more";
    }
    return strerror(rc < 0 ? -rc : rc);
}
