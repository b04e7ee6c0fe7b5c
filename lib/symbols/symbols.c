/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols.c - function symbols of an ELF file, read with libelf.
 *
 * The table is built once and is read-only afterwards:
 *
 *   1. every STT_FUNC / STT_GNU_IFUNC symbol that is defined, and every
 *      untyped (STT_NOTYPE) symbol in an executable section (assembly entry
 *      points such as _start or hypercall_page), from .symtab and .dynsym;
 *      section and file symbols, compiler-local labels (.L*) and ARM mapping
 *      symbols ($x, $d, ...) are not functions and are skipped;
 *   2. sorted by address; of several symbols at one address the most
 *      specific wins (sized over unsized, FUNC over NOTYPE, GLOBAL over WEAK
 *      over LOCAL, then by name so the choice never depends on file order);
 *      a source's symbols (symtab_source.h) that rank alike keep the order
 *      it added them in, which is its own preference: kallsyms lists first
 *      the name the kernel prints in its backtraces, before the linker's
 *      section markers at the same address;
 *   3. a symbol of size 0 extends to the next symbol, but never past the end
 *      of its section nor past the end of a sized symbol enclosing it;
 *   4. cover[i] is the symbol among 0..i that reaches furthest, so a lookup
 *      that falls past the end of the nearest symbol below it can still find
 *      an enclosing one (a function with a sized inner label), and otherwise
 *      resolves to nothing: a gap between functions is not "the function
 *      before it";
 *   5. the address range from the first symbol to the last is cut into
 *      about as many equal buckets as there are symbols, and first[b] is
 *      the first symbol starting in bucket b or above: a lookup searches
 *      only between first[b] and first[b + 1], one or two symbols when code
 *      is dense.  A symboliser filled from a profile's frames asks in no
 *      order (millions of distinct addresses), where a binary search over
 *      the whole table was a branch mispredicted and a cache line read at
 *      each of its 15 steps; symbols far apart (modules, user space) only
 *      make some buckets hold more.
 *
 * Names live in one string pool, so the table is four allocations however
 * many symbols the file has.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/symtab_source.h"
#include "symbols/xu_symbols.h"

#define BUILD_ID_MAX 64         /* sha1 is 20, md5/uuid 16: anything larger is bogus */
/* Section headers we index; libelf already checks the table fits in the file. */
#define MAX_SECTIONS (1u << 24)
/* The file is read whole (ELF_C_READ): a guest kernel with full debug
 * information is a few hundred MiB. */
#define MAX_FILE_BYTES (2ULL << 30)
/* Function symbols kept: 8 Mi, about 1 GiB while the table is built (a
 * Linux kernel has under 200 Ki). */
#define MAX_SYMBOLS (1u << 23)

struct xu_symtab {
    struct xu_symbol *syms;     /* sorted by start, distinct starts */
    size_t *cover;              /* see above */
    size_t n;
    uint32_t *first;            /* nr_buckets + 1 entries, see above */
    size_t nr_buckets;          /* a power of two */
    unsigned int shift;         /* bucket of addr: (addr - syms[0].start) >> shift */
    char *pool;                 /* all names */
    unsigned int machine;
    const char *origin;         /* NULL: .symtab/.dynsym; else a source's name */
    size_t build_id_len;
    uint8_t build_id[BUILD_ID_MAX];
    struct xu_symtab *next;     /* asked where this one has no symbol; owned */
};

/* A symbol while the table is being built. */
struct cand {
    uint64_t start, size;
    size_t name_off;            /* into the pool, which may still move */
    const char *name;           /* set once the pool has stopped moving */
    size_t shndx;               /* section index, 0 when special (SHN_ABS...) */
    unsigned char type, bind;
    bool thumb;                 /* EM_ARM: a Thumb function (its value's bit 0, cleared) */
    size_t order;               /* a source's symbols: 1 + how many it added before */
};

struct section {
    uint64_t addr, size;
    bool exec;
};

struct xu_symtab_sink {
    const char *path;
    struct xu_log *log;
    uint64_t file_size;         /* to tell a damaged file from a stripped one */
    char problem[256];          /* the first thing found wrong, "" if none */
    struct section *secs;
    size_t nsecs;
    struct cand *cands;
    size_t n, cap;
    char *pool;
    size_t pool_len, pool_cap;
    bool skip_sources;          /* XU_SYMTAB_ELF_ONLY */
    unsigned int machine;       /* the file's e_machine */
    size_t *xsecs;              /* executable sections by address, for sources */
    size_t nxsecs;
    char source_why[192];       /* why the last source tried gave nothing */
};

static int pool_add(struct xu_symtab_sink *b, const char *s, size_t *off)
{
    size_t len = strlen(s) + 1;

    if (len > b->pool_cap - b->pool_len) {
        size_t cap = b->pool_cap ? b->pool_cap : 4096;
        char *p;

        while (cap - b->pool_len < len) {
            if (cap > SIZE_MAX / 2)
                return -ENOMEM;
            cap *= 2;
        }
        p = realloc(b->pool, cap);
        if (!p)
            return -ENOMEM;
        b->pool = p;
        b->pool_cap = cap;
    }
    memcpy(b->pool + b->pool_len, s, len);
    *off = b->pool_len;
    b->pool_len += len;
    return 0;
}

static int cand_add(struct xu_symtab_sink *b, const struct cand *c)
{
    if (b->n >= MAX_SYMBOLS)
        return -E2BIG;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        struct cand *p;

        if (cap > SIZE_MAX / sizeof(*p))
            return -ENOMEM;
        p = realloc(b->cands, cap * sizeof(*p));
        if (!p)
            return -ENOMEM;
        b->cands = p;
        b->cap = cap;
    }
    b->cands[b->n++] = *c;
    return 0;
}

static int xsec_cmp(const void *pa, const void *pb, void *secs)
{
    const struct section *s = secs;
    uint64_t a = s[*(const size_t *)pa].addr, b = s[*(const size_t *)pb].addr;

    return a < b ? -1 : a > b;
}

/* The executable sections sorted by address, once: a source's symbols are
 * placed by binary search, however many sections a hostile file has. */
static int index_exec_sections(struct xu_symtab_sink *b)
{
    size_t i;

    b->xsecs = malloc((b->nsecs ? b->nsecs : 1) * sizeof(*b->xsecs));
    if (!b->xsecs)
        return -ENOMEM;
    for (i = 1; i < b->nsecs; i++)
        if (b->secs[i].exec && b->secs[i].size)
            b->xsecs[b->nxsecs++] = i;
    qsort_r(b->xsecs, b->nxsecs, sizeof(*b->xsecs), xsec_cmp, b->secs);
    return 0;
}

/* The executable section holding addr (the last one starting at or below
 * it), or 0. */
static size_t exec_section_of(const struct xu_symtab_sink *b, uint64_t addr)
{
    size_t lo = 0, hi = b->nxsecs, i;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (b->secs[b->xsecs[mid]].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    i = b->xsecs[lo - 1];
    return addr - b->secs[i].addr < b->secs[i].size ? i : 0;
}

int xu_symtab_sink_add(struct xu_symtab_sink *b, const char *name, uint64_t start,
                       uint64_t size, bool function)
{
    struct cand c = { .start = start, .size = size, .order = b->n + 1,
                      .type = function ? STT_FUNC : STT_NOTYPE, .bind = STB_GLOBAL };
    size_t i;
    int rc;

    if (!b->xsecs && (rc = index_exec_sections(b)) < 0)
        return rc;
    i = exec_section_of(b, start);
    if (i == 0)
        return 0;
    c.shndx = i;
    if (size > b->secs[i].size - (start - b->secs[i].addr))
        c.size = 0;             /* past its section: up to the next symbol instead */
    rc = pool_add(b, name, &c.name_off);
    return rc < 0 ? rc : cand_add(b, &c);
}

/* No .symtab symbols: each source in turn until one gives some. */
static int read_sources(struct xu_symtab_sink *b, Elf *elf, struct xu_symtab *st)
{
    size_t i;
    int rc;

    for (i = 0; xu_symtab_sources[i]; i++) {
        b->source_why[0] = '\0';
        rc = xu_symtab_sources[i]->read(elf, b->path, b->log, b, b->source_why,
                                        sizeof(b->source_why));
        if (rc == 0 && b->n > 0) {
            st->origin = xu_symtab_sources[i]->name;
            return 0;
        }
        if (rc < 0 && rc != -ENODATA)
            return rc;
        xu_debug(b->log, "%s: no symbols from %s: %s", b->path, xu_symtab_sources[i]->name,
                 b->source_why[0] ? b->source_why : "none");
    }
    return 0;
}

static bool is_local_label(const char *name)
{
    if (name[0] == '.' && name[1] == 'L')
        return true;
    /* ARM/AArch64 mapping symbols: "$x", "$d", "$a", "$t", optionally ".n" */
    if (name[0] == '$' && name[1] && strchr("xdat", name[1]) &&
        (name[2] == '\0' || name[2] == '.'))
        return true;
    return false;
}

/*
 * Whether sym is worth keeping, and its section (0 when special).  shndx is
 * the real section index (extended indices resolved), special tells that
 * st_shndx was a reserved value such as SHN_ABS.
 */
static bool keep_symbol(const struct xu_symtab_sink *b, const GElf_Sym *sym, GElf_Word shndx,
                        bool special, size_t *sec)
{
    unsigned char type = GELF_ST_TYPE(sym->st_info);
    bool in_section = !special && shndx != SHN_UNDEF && shndx < b->nsecs;

    *sec = in_section ? shndx : 0;
    switch (type) {
    case STT_FUNC:
    case STT_GNU_IFUNC:
        /* undefined: an import, its value is not an address in this file */
        return shndx != SHN_UNDEF;
    case STT_NOTYPE:
        return in_section && b->secs[shndx].exec;
    default:
        return false;
    }
}

/* Remember the first problem: it is the error when no symbol is found. */
static void problem(struct xu_symtab_sink *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void problem(struct xu_symtab_sink *b, const char *fmt, ...)
{
    va_list ap;

    if (b->problem[0])
        return;
    va_start(ap, fmt);
    vsnprintf(b->problem, sizeof(b->problem), fmt, ap);
    va_end(ap);
}

/* Whether [off, off + size) lies inside the file. */
static bool in_file(const struct xu_symtab_sink *b, uint64_t off, uint64_t size)
{
    return off <= b->file_size && size <= b->file_size - off;
}

/*
 * An ARM ELF's function symbol has bit 0 set when the function is Thumb
 * code (the ARM ELF ABI's rule for STT_FUNC): the function starts at the
 * value with bit 0 clear, and the bit says which instruction set to
 * decode its code in.  Other symbols' values are addresses as they are.
 */
static void arm_thumb_bit(const struct xu_symtab_sink *b, struct cand *c)
{
    c->thumb = false;
    if (b->machine != EM_ARM || c->type != STT_FUNC || !(c->start & 1))
        return;
    c->start &= ~(uint64_t)1;
    c->thumb = true;
}

static int read_symbol_section(struct xu_symtab_sink *b, Elf *elf, Elf_Scn *scn,
                               const GElf_Shdr *shdr, Elf_Data *xndx)
{
    /* Elf32_Sym or Elf64_Sym: libelf hands either class back as GElf_Sym */
    size_t index = elf_ndxscn(scn), count, i, symsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    GElf_Shdr strsh;
    Elf_Scn *strscn;
    Elf_Data *data;
    int rc = 0;

    if (!in_file(b, shdr->sh_offset, shdr->sh_size)) {
        problem(b, "its symbol table (section %zu) lies past the end of the file "
                "(truncated?)", index);
        return 0;
    }
    if (symsize == 0 || shdr->sh_entsize != symsize) {
        problem(b, "its symbol table (section %zu) has entries of %llu bytes, not %zu",
                index, (unsigned long long)shdr->sh_entsize, symsize);
        return 0;
    }
    strscn = elf_getscn(elf, shdr->sh_link);
    if (shdr->sh_link == 0 || !strscn || !gelf_getshdr(strscn, &strsh) ||
        strsh.sh_type != SHT_STRTAB || !in_file(b, strsh.sh_offset, strsh.sh_size)) {
        problem(b, "its symbol table (section %zu) takes its names from section %u, "
                "which is not a string table in the file", index, shdr->sh_link);
        return 0;
    }
    data = elf_getdata(scn, NULL);
    if (!data) {
        problem(b, "its symbol table (section %zu) cannot be read: %s", index, elf_errmsg(-1));
        return 0;
    }
    count = data->d_size / symsize;
    if (count > INT_MAX)                /* gelf_getsymshndx takes an int */
        count = INT_MAX;
    for (i = 1; i < count; i++) {      /* entry 0 is the null symbol */
        GElf_Sym sym;
        GElf_Word shndx = 0;
        const char *name;
        struct cand c = { 0 };
        bool special;

        if (!gelf_getsymshndx(data, xndx, (int)i, &sym, &shndx))
            continue;
        special = sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_XINDEX;
        if (sym.st_shndx != SHN_XINDEX)
            shndx = sym.st_shndx;
        if (!keep_symbol(b, &sym, shndx, special, &c.shndx))
            continue;
        name = elf_strptr(elf, shdr->sh_link, sym.st_name);
        if (!name || !name[0] || is_local_label(name))
            continue;
        c.start = sym.st_value;
        c.size = sym.st_size;
        c.type = GELF_ST_TYPE(sym.st_info);
        c.bind = GELF_ST_BIND(sym.st_info);
        c.name = NULL;
        arm_thumb_bit(b, &c);
        rc = pool_add(b, name, &c.name_off);
        if (rc < 0)
            break;
        rc = cand_add(b, &c);
        if (rc == -E2BIG) {
            problem(b, "more than %u function symbols: the rest are ignored", MAX_SYMBOLS);
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
    }
    return rc;
}

static void read_build_id(struct xu_symtab *st, Elf_Scn *scn)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t off = 0, next, name_off, desc_off;
    GElf_Nhdr nh;

    if (!data)
        return;
    /* gelf_getnote returns 0 at the end or on a malformed note */
    while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0 &&
            nh.n_descsz > 0 && nh.n_descsz <= BUILD_ID_MAX) {
            memcpy(st->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
            st->build_id_len = nh.n_descsz;
            return;
        }
        if (next <= off)
            return;
        off = next;
    }
}

/* Most specific first: the one a name should come from. */
static int rank(const struct cand *c)
{
    int r = 0;

    if (c->size > 0)
        r += 8;
    if (c->type != STT_NOTYPE)
        r += 4;
    if (c->bind == STB_GLOBAL)
        r += 2;
    else if (c->bind == STB_WEAK)
        r += 1;
    return r;
}

static int cand_cmp(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    int ra, rb, r;

    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    ra = rank(a);
    rb = rank(b);
    if (ra != rb)
        return rb - ra;
    if (a->order && b->order && a->order != b->order)
        return a->order < b->order ? -1 : 1;
    r = strcmp(a->name, b->name);
    if (r)
        return r;
    /* the same name twice (.symtab and .dynsym): any remaining difference
     * still orders them, so the winner never depends on qsort's whims */
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    if (a->shndx != b->shndx)
        return a->shndx < b->shndx ? -1 : 1;
    if (a->bind != b->bind)
        return (int)a->bind - (int)b->bind;
    return (int)a->type - (int)b->type;
}

static uint64_t sat_end(uint64_t start, uint64_t size)
{
    return size > UINT64_MAX - start ? UINT64_MAX : start + size;
}

/* Step 5 of the header comment.  0 or -ENOMEM. */
static int build_buckets(struct xu_symtab *st)
{
    uint64_t span = st->n ? st->syms[st->n - 1].start - st->syms[0].start : 0;
    size_t nb = 1, b, i = 0;

    /* MAX_SYMBOLS keeps indices and bucket counts well inside 32 bits;
     * with two symbols or more nb >= 2, so a shift of 63 always suffices */
    while (nb < st->n)
        nb *= 2;
    st->shift = 0;
    while (st->shift < 63 && (span >> st->shift) >= nb)
        st->shift++;
    st->nr_buckets = nb;
    st->first = malloc((nb + 1) * sizeof(*st->first));
    if (!st->first)
        return -ENOMEM;
    for (b = 0; b <= nb; b++) {
        /* the first symbol whose bucket is b or above */
        while (i < st->n && ((st->syms[i].start - st->syms[0].start) >> st->shift) < b)
            i++;
        st->first[b] = (uint32_t)i;
    }
    return 0;
}

/* Steps 2-5 of the header comment. */
static int build_table(struct xu_symtab_sink *b, struct xu_symtab *st)
{
    size_t i, n = 0, best = 0;
    uint64_t best_end = 0;

    for (i = 0; i < b->n; i++)
        b->cands[i].name = b->pool + b->cands[i].name_off;
    qsort(b->cands, b->n, sizeof(*b->cands), cand_cmp);

    for (i = 0; i < b->n; i++)          /* keep the first of each address */
        if (n == 0 || b->cands[i].start != b->cands[n - 1].start)
            b->cands[n++] = b->cands[i];

    st->syms = calloc(n ? n : 1, sizeof(*st->syms));
    st->cover = calloc(n ? n : 1, sizeof(*st->cover));
    if (!st->syms || !st->cover)
        return -ENOMEM;

    for (i = 0; i < n; i++) {
        const struct cand *c = &b->cands[i];
        uint64_t end;

        if (c->size > 0) {
            end = sat_end(c->start, c->size);
        } else {
            const struct section *sec = c->shndx ? &b->secs[c->shndx] : NULL;
            uint64_t sec_end = sec ? sat_end(sec->addr, sec->size) : UINT64_MAX;

            end = sec_end > c->start ? sec_end : UINT64_MAX;
            if (i + 1 < n && b->cands[i + 1].start < end)
                end = b->cands[i + 1].start;
            if (i > 0 && best_end > c->start && best_end < end)
                end = best_end;         /* an inner label stays inside its function */
            if (end == UINT64_MAX)      /* nothing bounds it: its own address only */
                end = c->start + 1;
        }
        st->syms[i].start = c->start;
        st->syms[i].size = end - c->start;
        st->syms[i].name = c->name;    /* the pool moves to st as is */
        st->syms[i].function = c->type != STT_NOTYPE;
        st->syms[i].thumb = c->thumb;
        if (i == 0 || end > best_end) {
            best = i;
            best_end = end;
        }
        st->cover[i] = best;
    }
    st->n = n;
    return build_buckets(st);
}

static const char *machine_name(unsigned int m)
{
    switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "arm64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_RISCV: return "riscv";
    case EM_PPC64: return "ppc64";
    default: return "another architecture";
    }
}

static int read_elf(struct xu_symtab_sink *b, Elf *elf, unsigned int machine, struct xu_symtab *st)
{
    GElf_Ehdr ehdr;
    Elf_Scn *scn = NULL;
    size_t shnum = 0, declared, i, bad_headers = 0, shsize;
    int rc = 0;

    if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
        xu_error(b->log, "%s is not an ELF file%s", b->path,
                 elf_kind(elf) == ELF_K_ELF ? " (its header is cut short)" : "");
        return -ENOEXEC;
    }
    /* 32-bit ELF files only for the 32-bit machines profiled (not x32) */
    if (gelf_getclass(elf) != ELFCLASS64 &&
        (gelf_getclass(elf) != ELFCLASS32 || (ehdr.e_machine != EM_386 && ehdr.e_machine != EM_ARM))) {
        xu_error(b->log, "%s is a 32-bit ELF file for %s (e_machine %u): only 64-bit guests "
                 "and 32-bit x86 and ARM guests are profiled", b->path,
                 machine_name(ehdr.e_machine), ehdr.e_machine);
        return -ENOEXEC;
    }
    shsize = gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT);
    if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB) {
        xu_error(b->log, "%s is a big-endian ELF file: the guests profiled are little-endian",
                 b->path);
        return -ENOEXEC;
    }
    st->machine = ehdr.e_machine;
    b->machine = ehdr.e_machine;
    if (machine != EM_NONE && ehdr.e_machine != machine) {
        xu_error(b->log, "%s is an ELF file for %s (e_machine %u), not for this %s guest",
                 b->path, machine_name(ehdr.e_machine), ehdr.e_machine, machine_name(machine));
        return -ENOEXEC;
    }
    if (elf_getshdrnum(elf, &shnum) < 0 || shnum > MAX_SECTIONS) {
        xu_error(b->log, "%s: unreadable section headers: %s", b->path, elf_errmsg(-1));
        return -ENOEXEC;
    }
    /* what the header declares: libelf reports 0 sections when it cannot
     * read them, which must not pass for a file without any */
    declared = ehdr.e_shnum ? ehdr.e_shnum : shnum;
    if ((declared > 0 || ehdr.e_shoff) && ehdr.e_shentsize != shsize) {
        xu_error(b->log, "%s: section headers of %u bytes, not %zu: a damaged ELF file",
                 b->path, ehdr.e_shentsize, shsize);
        return -ENOEXEC;
    }
    if ((declared > 0 || ehdr.e_shoff) &&
        (shnum == 0 || !in_file(b, ehdr.e_shoff, (uint64_t)declared * shsize))) {
        xu_error(b->log, "%s: its %zu section headers at offset %llu lie past the end of the "
                 "file (%llu bytes): truncated or damaged", b->path, declared,
                 (unsigned long long)ehdr.e_shoff, (unsigned long long)b->file_size);
        return -ENOEXEC;
    }
    if (shnum == 0) {
        xu_error(b->log, "%s has no section headers, so no symbol table: pass the unstripped "
                 "ELF with --elf, e.g. the .dbg file", b->path);
        return -ENODATA;
    }
    b->secs = calloc(shnum ? shnum : 1, sizeof(*b->secs));
    if (!b->secs)
        return -ENOMEM;
    b->nsecs = shnum;

    /* first the sections' extents, which symbols refer to by index */
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;

        i = elf_ndxscn(scn);
        if (i >= shnum || !gelf_getshdr(scn, &sh)) {
            bad_headers++;
            continue;
        }
        b->secs[i].addr = sh.sh_addr;
        b->secs[i].size = sh.sh_size;
        b->secs[i].exec = (sh.sh_flags & SHF_EXECINSTR) != 0;
        if (sh.sh_type == SHT_NOTE && st->build_id_len == 0)
            read_build_id(st, scn);
    }

    scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *xndx = NULL;
        Elf_Scn *x = NULL;

        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
            continue;
        /* extended section indices, only in files with >= 0xff00 sections */
        while ((x = elf_nextscn(elf, x))) {
            GElf_Shdr xs;

            if (gelf_getshdr(x, &xs) && xs.sh_type == SHT_SYMTAB_SHNDX &&
                xs.sh_link == elf_ndxscn(scn)) {
                xndx = elf_getdata(x, NULL);
                break;
            }
        }
        rc = read_symbol_section(b, elf, scn, &sh, xndx);
        if (rc < 0)
            return rc;
    }
    if (bad_headers)
        problem(b, "%zu of its section headers cannot be read", bad_headers);
    if (b->n == 0 && b->problem[0]) {
        xu_error(b->log, "%s: no symbols read: %s", b->path, b->problem);
        return -ENOEXEC;
    }
    if (b->problem[0])
        xu_warn(b->log, "%s: %s (the other symbols are used)", b->path, b->problem);
    if (b->n == 0 && !b->skip_sources) {
        rc = read_sources(b, elf, st);
        if (rc < 0)
            return rc;
    }
    if (b->n == 0) {
        xu_error(b->log, "%s has no symbol table (stripped?)%s%s%s: pass the unstripped ELF "
                 "with --elf, e.g. the .dbg file", b->path,
                 b->source_why[0] ? " and " : "", b->source_why,
                 b->source_why[0] ? " either" : "");
        return -ENODATA;
    }
    return build_table(b, st);
}

int xu_symtab_open(const char *path, struct xu_log *log, struct xu_symtab **out)
{
    return xu_symtab_open_for(path, EM_X86_64, log, out);
}

int xu_symtab_open_for(const char *path, unsigned int machine, struct xu_log *log,
                       struct xu_symtab **out)
{
    return xu_symtab_open_flags(path, machine, 0, log, out);
}

int xu_symtab_open_flags(const char *path, unsigned int machine, unsigned int flags,
                         struct xu_log *log, struct xu_symtab **out)
{
    struct xu_symtab_sink b = { .path = path, .log = log,
                                .skip_sources = (flags & XU_SYMTAB_ELF_ONLY) != 0 };
    struct xu_symtab *st = NULL;
    Elf *elf = NULL;
    struct stat sb;
    int fd = -1, rc;

    *out = NULL;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        xu_error(log, "libelf is out of date: %s", elf_errmsg(-1));
        rc = -ENOEXEC;
        goto out;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rc = -errno;
        xu_error(log, "cannot open %s: %s", path, strerror(errno));
        goto out;
    }
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        rc = -EISDIR;
        xu_error(log, "%s is a directory, not an ELF file", path);
        goto out;
    }
    b.file_size = (uint64_t)sb.st_size;
    if (b.file_size > MAX_FILE_BYTES) {
        rc = -EFBIG;
        xu_error(log, "%s is larger than %llu GiB: not a guest's ELF file we read", path,
                 (unsigned long long)(MAX_FILE_BYTES >> 30));
        goto out;
    }
    /* ELF_C_READ, not _MMAP: a file truncated under us must not SIGBUS */
    elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf) {
        xu_error(log, "%s is not an ELF file: %s", path, elf_errmsg(-1));
        rc = -ENOEXEC;
        goto out;
    }
    st = calloc(1, sizeof(*st));
    if (!st) {
        rc = -ENOMEM;
        goto out;
    }
    rc = read_elf(&b, elf, machine, st);
    if (rc < 0) {
        if (rc == -ENOMEM)
            xu_error(log, "%s: out of memory reading symbols", path);
        goto out;
    }
    st->pool = b.pool;
    b.pool = NULL;
    *out = st;
    st = NULL;

out:
    xu_symtab_free(st);
    free(b.pool);
    free(b.cands);
    free(b.secs);
    free(b.xsecs);
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return rc;
}

void xu_symtab_free(struct xu_symtab *st)
{
    if (!st)
        return;
    free(st->syms);
    free(st->cover);
    free(st->first);
    free(st->pool);
    xu_symtab_free(st->next);
    free(st);
}

size_t xu_symtab_count(const struct xu_symtab *st)
{
    return st->n;
}

static bool contains(const struct xu_symbol *s, uint64_t addr)
{
    return addr >= s->start && addr - s->start < s->size;
}

int xu_symtab_relocate(struct xu_symtab *st, int64_t slide)
{
    size_t i;

    if (!st || slide == 0 || st->n == 0)
        return 0;
    /* order and coverage survive a shift unless one end wraps */
    for (i = 0; i < st->n; i++) {
        const struct xu_symbol *s = &st->syms[i];
        uint64_t a = s->start + (uint64_t)slide, e = a + s->size;

        if ((slide > 0 && (a < s->start || e < a)) || (slide < 0 && a > s->start))
            return -ERANGE;
    }
    for (i = 0; i < st->n; i++)
        st->syms[i].start += (uint64_t)slide;
    return 0;
}

static const struct xu_symbol *lookup_one(const struct xu_symtab *st, uint64_t addr)
{
    size_t lo = 0, hi = st->n, i;
    uint64_t b;

    if (st->n == 0 || addr < st->syms[0].start)
        return NULL;
    /* the symbols starting in addr's bucket bound the search */
    b = (addr - st->syms[0].start) >> st->shift;
    if (b < st->nr_buckets) {
        lo = st->first[b];
        hi = st->first[b + 1];
    } else {
        lo = st->first[st->nr_buckets];
    }
    /* the first symbol starting above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (st->syms[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    i = lo - 1;
    if (contains(&st->syms[i], addr))
        return &st->syms[i];
    if (contains(&st->syms[st->cover[i]], addr))
        return &st->syms[st->cover[i]];
    return NULL;
}

const struct xu_symbol *xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr)
{
    const struct xu_symbol *sym = lookup_one(st, addr);

    return sym || !st->next ? sym : lookup_one(st->next, addr);
}

bool xu_symtab_in_chained(const struct xu_symtab *st, uint64_t addr)
{
    return st->next && !lookup_one(st, addr) && lookup_one(st->next, addr);
}

void xu_symtab_chain(struct xu_symtab *st, struct xu_symtab *next)
{
    xu_symtab_free(st->next);
    st->next = next;
}

int xu_symtab_from_symbols(const struct xu_symbol *syms, size_t n, unsigned int machine,
                           struct xu_symtab **out)
{
    struct xu_symtab_sink b = { .path = "" };
    struct xu_symtab *st = calloc(1, sizeof(*st));
    size_t i;
    int rc = -ENOMEM;

    *out = NULL;
    if (!st)
        goto out;
    st->machine = machine;
    st->origin = "guest";
    for (i = 0; i < n; i++) {
        struct cand c = { .start = syms[i].start, .size = syms[i].size, .type = STT_FUNC,
                          .bind = STB_GLOBAL };

        if (syms[i].size == 0)
            continue;       /* an explicit table says how far each symbol reaches */
        rc = pool_add(&b, syms[i].name, &c.name_off);
        if (rc == 0)
            rc = cand_add(&b, &c);
        if (rc < 0)
            goto out;
    }
    rc = build_table(&b, st);
    if (rc < 0)
        goto out;
    st->pool = b.pool;
    b.pool = NULL;
    *out = st;
    st = NULL;
out:
    if (st) {
        free(st->syms);
        free(st->cover);
        free(st->first);
        free(st);
    }
    free(b.cands);
    free(b.pool);
    return rc;
}

const struct xu_symbol *xu_symtab_next_function(const struct xu_symtab *st, uint64_t addr)
{
    size_t lo = 0, hi = st->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (st->syms[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < st->n; lo++)
        if (st->syms[lo].function)
            return &st->syms[lo];
    return NULL;
}

const struct xu_symbol *xu_symtab_find(const struct xu_symtab *st, const char *name)
{
    size_t i;

    for (i = 0; i < st->n; i++)
        if (strcmp(st->syms[i].name, name) == 0)
            return &st->syms[i];
    return NULL;
}

const uint8_t *xu_symtab_build_id(const struct xu_symtab *st, size_t *len)
{
    *len = st->build_id_len;
    return st->build_id_len ? st->build_id : NULL;
}

unsigned int xu_symtab_machine(const struct xu_symtab *st)
{
    return st->machine;
}

const char *xu_symtab_origin(const struct xu_symtab *st)
{
    return st->origin;
}
