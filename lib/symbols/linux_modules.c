/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_modules.c - a Linux guest's loaded modules, walked on its own
 * module list, as a symbol table of their text (see xu_linux_modules.h).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_linux_modules.h"
#include "target/xu_target.h"
#include "unwind/xu_orc.h"

/* One name as the table will show it: "module:function" or "[module name]". */
#define SHOWN_MAX (XU_MODULE_NAME_LEN + XU_MODULE_SYM_NAME_MAX + 4)
/* A name's offset into a module's strtab beyond this is garbage. */
#define STRTAB_MAX (64u << 20)

struct range {
    uint64_t start, end;
};

/* A function symbol of the module being read. */
struct fsym {
    uint64_t start, size;
    uint32_t name;              /* into the reader's names */
};

struct reader {
    struct xu_mem *m;
    const struct xu_linux_module_layout *l;
    struct xu_linux_modules_stats *st;
    struct xu_orc_table *orc;   /* the kernel's, when reading the modules' ORC */
    struct xu_orc_stats orc_kernel;     /* its layout and version: the modules' too */
    size_t bytes;               /* read for symbols and names, all modules */
    struct range ranges[2 * XU_MODULES_MAX];   /* every module's text so far */
    size_t nranges;
    struct fsym *fs;            /* this module's functions */
    size_t nfs, capfs;
    char *names;                /* this module's function names */
    size_t names_len, names_cap;
    struct xu_symbol *out;      /* the table being built; names in pool */
    size_t nout, capout;
    char *pool;
    size_t pool_len, pool_cap;
};

static bool kernel_half(uint64_t va)
{
    return (int64_t)va < 0;
}

/* Anything that would break a folded line or a terminal becomes '_'. */
static void tidy(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f || *s == ';')
            *s = '_';
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 64;
    void *q;

    if (need <= *cap)
        return 0;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return -ENOMEM;
        c *= 2;
    }
    q = realloc(*p, c * elem);
    if (!q)
        return -ENOMEM;
    *p = q;
    *cap = c;
    return 0;
}

/* A NUL-terminated string of at most max - 1 bytes at va, read a page
 * piece at a time so that a short string at a page's end is found; a
 * longer one is cut.  false when nothing could be read. */
static bool read_str(struct reader *r, uint64_t va, char *buf, size_t max)
{
    size_t got = 0;

    while (got < max - 1) {
        uint64_t at = va + got;
        size_t want = XU_PAGE_SIZE - (at & (XU_PAGE_SIZE - 1));

        if (at < va)
            return false;
        if (want > max - 1 - got)
            want = max - 1 - got;
        if (xu_mem_read(r->m, at, buf + got, want) < 0)
            return false;
        r->bytes += want;
        if (memchr(buf + got, '\0', want))
            return true;
        got += want;
    }
    buf[max - 1] = '\0';
    return true;
}

static int add_out(struct reader *r, const char *name, uint64_t start, uint64_t end)
{
    size_t len = strlen(name) + 1;
    int rc;

    if (end <= start)
        return 0;
    rc = grow((void **)&r->out, &r->capout, r->nout + 1, sizeof(*r->out));
    if (rc == 0)
        rc = grow((void **)&r->pool, &r->pool_cap, r->pool_len + len, 1);
    if (rc < 0)
        return rc;
    memcpy(r->pool + r->pool_len, name, len);
    /* the pool may still move: the offset now, the pointer at the end */
    r->out[r->nout++] = (struct xu_symbol){ .name = (const char *)(uintptr_t)r->pool_len,
                                            .start = start, .size = end - start,
                                            .function = true };
    r->pool_len += len;
    return 0;
}

static bool overlaps(const struct reader *r, uint64_t start, uint64_t end)
{
    size_t i;

    for (i = 0; i < r->nranges; i++)
        if (start < r->ranges[i].end && r->ranges[i].start < end)
            return true;
    return false;
}

static bool read_size(struct reader *r, uint64_t va, uint32_t bytes, uint64_t *out)
{
    uint32_t v32;

    if (bytes == 8)
        return xu_mem_read_u64(r->m, va, out) == 0;
    if (xu_mem_read(r->m, va, &v32, sizeof(v32)) < 0)
        return false;
    *out = v32;
    return true;
}

/* Module mod's text ranges, those that check out, into text[]: how many. */
static unsigned int read_text(struct reader *r, uint64_t mod, struct range text[2])
{
    unsigned int i, n = 0;

    for (i = 0; i < 2; i++) {
        uint64_t base, size;

        if (xu_mem_read_u64(r->m, mod + r->l->text_base[i], &base) < 0 ||
            !read_size(r, mod + r->l->text_size[i], r->l->text_size_bytes, &size))
            continue;
        if (!kernel_half(base) || size == 0 || size > XU_MODULE_TEXT_MAX ||
            base + size < base || overlaps(r, base, base + size) ||
            (n == 1 && base < text[0].end && text[0].start < base + size))
            continue;
        text[n].start = base;
        text[n].end = base + size;
        n++;
    }
    return n;
}

static int in_text(const struct range *text, unsigned int n, uint64_t a)
{
    unsigned int i;

    for (i = 0; i < n; i++)
        if (a >= text[i].start && a < text[i].end)
            return (int)i;
    return -1;
}

/* Module mod's function symbols in its text into r->fs; false when it
 * has none that could be read. */
static int read_symbols(struct reader *r, uint64_t mod, const struct range *text,
                        unsigned int ntext)
{
    uint64_t ks, symtab, num, strtab, i;
    char name[XU_MODULE_SYM_NAME_MAX];
    int rc;

    r->nfs = 0;
    r->names_len = 0;
    if (xu_mem_read_u64(r->m, mod + r->l->kallsyms_offset, &ks) < 0 || !kernel_half(ks) ||
        (ks & 7) || xu_mem_read_u64(r->m, ks + r->l->ks_symtab, &symtab) < 0 ||
        !read_size(r, ks + r->l->ks_num, r->l->ks_num_bytes, &num) ||
        xu_mem_read_u64(r->m, ks + r->l->ks_strtab, &strtab) < 0 ||
        !kernel_half(symtab) || !kernel_half(strtab))
        return 0;
    if (num > XU_MODULE_MAX_SYMS)
        num = XU_MODULE_MAX_SYMS;
    for (i = 0; i < num; i++) {
        Elf64_Sym s;
        uint64_t at = symtab + i * sizeof(s);
        size_t len;

        if (r->st->symbols + r->nfs >= XU_MODULES_MAX_SYMS || r->bytes >= XU_MODULES_MAX_BYTES) {
            r->st->stopped = "the symbols' budget was spent";
            break;
        }
        if (at < symtab || xu_mem_read(r->m, at, &s, sizeof(s)) < 0)
            break;
        r->bytes += sizeof(s);
        if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_name == 0 || s.st_name >= STRTAB_MAX ||
            in_text(text, ntext, s.st_value) < 0 ||
            !read_str(r, strtab + s.st_name, name, sizeof(name)) || !name[0])
            continue;
        tidy(name);
        len = strlen(name) + 1;
        rc = grow((void **)&r->fs, &r->capfs, r->nfs + 1, sizeof(*r->fs));
        if (rc == 0)
            rc = grow((void **)&r->names, &r->names_cap, r->names_len + len, 1);
        if (rc < 0)
            return rc;
        memcpy(r->names + r->names_len, name, len);
        r->fs[r->nfs++] = (struct fsym){ .start = s.st_value, .size = s.st_size,
                                         .name = (uint32_t)r->names_len };
        r->names_len += len;
    }
    return 0;
}

static int fsym_cmp(const void *pa, const void *pb)
{
    const struct fsym *a = pa, *b = pb;

    return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * The table's entries for one module: each function up to its size, the
 * next function or its range's end, whichever comes first; the text no
 * function covers "[module name]" (a form no function and no pseudo frame
 * such as "[user]" takes).
 */
static int emit(struct reader *r, const char *mod, const struct range *text, unsigned int ntext)
{
    char shown[SHOWN_MAX], bare[XU_MODULE_NAME_LEN + 10];
    unsigned int t;
    size_t i = 0;
    int rc;

    snprintf(bare, sizeof(bare), "[module %s]", mod);
    if (r->nfs)     /* r->fs is NULL until a module has a symbol */
        qsort(r->fs, r->nfs, sizeof(*r->fs), fsym_cmp);
    for (t = 0; t < ntext; t++) {
        uint64_t cursor = text[t].start;

        for (i = 0; i < r->nfs; i++) {
            const struct fsym *f = &r->fs[i];
            uint64_t end = text[t].end;

            if (f->start < cursor || f->start >= text[t].end)
                continue;       /* another range's, or a second symbol at one address */
            if (f->size && f->size < end - f->start)
                end = f->start + f->size;
            if (i + 1 < r->nfs && r->fs[i + 1].start > f->start && r->fs[i + 1].start < end)
                end = r->fs[i + 1].start;
            if ((rc = add_out(r, bare, cursor, f->start)) < 0)
                return rc;
            snprintf(shown, sizeof(shown), "%s:%s", mod, r->names + f->name);
            if ((rc = add_out(r, shown, f->start, end)) < 0)
                return rc;
            r->st->symbols++;
            cursor = end;
        }
        if ((rc = add_out(r, bare, cursor, text[t].end)) < 0)
            return rc;
    }
    return 0;
}

/*
 * One module's ORC tables (ip and orc, n entries, the ips relative to their
 * own place at ip_va) as a table of the entries in text, chained after the
 * kernel's (the tables may also cover init text the module freed).  0, or
 * -ENOMEM.
 */
static int chain_orc(struct reader *r, const uint8_t *ip, const uint8_t *orc, uint32_t n,
                     uint64_t ip_va, const struct range *text)
{
    const struct xu_orc_sections sec = {
        .ip = ip, .ip_len = 4ULL * n, .ip_addr = ip_va,
        .orc = orc, .orc_len = (size_t)n * XU_ORC_ENTRY_SIZE,
        .text_start = text->start, .text_end = text->end,
        .layout_given = true, .layout = r->orc_kernel.layout,
        .version = r->orc_kernel.version, .drop_outside = true,
    };
    struct xu_orc_table *t = NULL;
    struct xu_orc_stats st;
    int rc = xu_orc_from_sections(&sec, &t, NULL, 0);

    /* none in this range, or entries that do not decode: no table here, the
     * others stand */
    if (rc < 0)
        return rc == -ENOMEM ? rc : 0;
    xu_orc_get_stats(t, &st);
    xu_orc_chain(r->orc, t);
    r->st->orc_tables++;
    r->st->orc_entries += st.raw_entries - st.outside;
    return 0;
}

/* Module mod's ORC tables (struct mod_arch_specific), one chained after the
 * kernel's for each of its text ranges (the sections are byte-aligned in a
 * module: orc_unwind_ip need not be 4-aligned).  0 (read or not there),
 * -ENOMEM. */
static int read_orc(struct reader *r, uint64_t mod, const struct range *text,
                    unsigned int ntext)
{
    uint64_t ip_va, orc_va;
    uint32_t n;
    uint8_t *ip = NULL, *orc = NULL;
    unsigned int t, before;
    int rc = 0;

    if (xu_mem_read(r->m, mod + r->l->orc_num, &n, sizeof(n)) < 0 ||
        xu_mem_read_u64(r->m, mod + r->l->orc_ip, &ip_va) < 0 ||
        xu_mem_read_u64(r->m, mod + r->l->orc_unwind, &orc_va) < 0 ||
        n == 0 || n > XU_MODULE_MAX_ORCS || !kernel_half(ip_va) || !kernel_half(orc_va) ||
        ip_va + 4ULL * n < ip_va || orc_va + 6ULL * n < orc_va)
        return 0;
    if (r->bytes + (4 + XU_ORC_ENTRY_SIZE) * (size_t)n > XU_MODULES_MAX_BYTES) {
        r->st->stopped = "the symbols' budget was spent";
        return 0;
    }
    ip = malloc(4ULL * n);
    orc = malloc((size_t)n * XU_ORC_ENTRY_SIZE);
    if (!ip || !orc) {
        rc = -ENOMEM;
        goto out;
    }
    if (xu_mem_read(r->m, ip_va, ip, 4ULL * n) < 0 ||
        xu_mem_read(r->m, orc_va, orc, (size_t)n * XU_ORC_ENTRY_SIZE) < 0)
        goto out;
    r->bytes += (4 + XU_ORC_ENTRY_SIZE) * (size_t)n;
    before = r->st->orc_tables;
    for (t = 0; t < ntext && rc == 0; t++)
        rc = chain_orc(r, ip, orc, n, ip_va, &text[t]);
    if (r->st->orc_tables > before)
        r->st->orc_modules++;
out:
    free(ip);
    free(orc);
    return rc;
}

/* One struct module at mod: 0 (used or skipped), -ENOMEM. */
static int read_module(struct reader *r, uint64_t mod)
{
    char name[XU_MODULE_NAME_LEN + 1];
    struct range text[2];
    unsigned int ntext, i;
    size_t before = r->st->symbols;
    int rc;

    memset(name, 0, sizeof(name));
    if (xu_mem_read(r->m, mod + r->l->name_offset, name, r->l->name_size) < 0 ||
        !memchr(name, '\0', r->l->name_size) || !name[0]) {
        r->st->skipped++;
        return 0;
    }
    tidy(name);
    ntext = read_text(r, mod, text);
    if (ntext == 0) {
        r->st->skipped++;
        return 0;
    }
    if (r->orc) {
        rc = r->l->has_orc ? read_orc(r, mod, text, ntext) : 0;
    } else {
        rc = read_symbols(r, mod, text, ntext);
        if (rc == 0)
            rc = emit(r, name, text, ntext);
    }
    if (rc < 0)
        return rc;
    for (i = 0; i < ntext; i++)
        r->ranges[r->nranges++] = text[i];
    r->st->modules++;
    if (r->st->symbols == before)
        r->st->without_symbols++;
    return 0;
}

static int walk(struct reader *r)
{
    const struct xu_linux_module_layout *l = r->l;
    uint64_t head = l->modules, next;
    unsigned int n;
    int rc;

    if (xu_mem_read_u64(r->m, head, &next) < 0)
        return -ENOENT;
    for (n = 0; next != head; n++) {
        if (n == XU_MODULES_MAX) {
            r->st->stopped = "more modules than the bound (a list that loops?)";
            break;
        }
        if (!kernel_half(next) || (next & 7) || next < l->list_offset) {
            r->st->stopped = "a list pointer outside the kernel half";
            break;
        }
        rc = read_module(r, next - l->list_offset);
        if (rc < 0)
            return rc;
        if (xu_mem_read_u64(r->m, next, &next) < 0) {
            r->st->stopped = "a list pointer that could not be read";
            break;
        }
    }
    return 0;
}

/* A reader of the list at l's layout, st cleared; NULL with *rc (-ENOMEM, or
 * -EINVAL for a layout no module can have). */
static struct reader *reader_new(struct xu_mem *m, const struct xu_linux_module_layout *l,
                                 struct xu_linux_modules_stats *st, int *rc)
{
    struct reader *r;

    memset(st, 0, sizeof(*st));
    if (l->name_size == 0 || l->name_size > XU_MODULE_NAME_LEN) {
        *rc = -EINVAL;
        return NULL;
    }
    r = calloc(1, sizeof(*r));
    if (!r) {
        *rc = -ENOMEM;
        return NULL;
    }
    r->m = m;
    r->l = l;
    r->st = st;
    return r;
}

int xu_linux_modules_read_orc(struct xu_mem *m, const struct xu_linux_module_layout *l,
                              struct xu_orc_table *kernel, struct xu_linux_modules_stats *st)
{
    int rc = 0;
    struct reader *r = reader_new(m, l, st, &rc);

    if (!r)
        return rc;
    r->orc = kernel;
    xu_orc_get_stats(kernel, &r->orc_kernel);
    rc = l->has_orc ? walk(r) : 0;
    free(r);
    return rc;
}

int xu_linux_modules_read(struct xu_mem *m, const struct xu_linux_module_layout *l,
                          unsigned int machine, struct xu_symtab **out,
                          struct xu_linux_modules_stats *st)
{
    int rc = 0;
    struct reader *r = reader_new(m, l, st, &rc);
    size_t i;

    *out = NULL;
    if (!r)
        return rc;
    rc = walk(r);
    if (rc < 0 || r->nout == 0)
        goto out;
    for (i = 0; i < r->nout; i++)
        r->out[i].name = r->pool + (uintptr_t)r->out[i].name;
    rc = xu_symtab_from_symbols(r->out, r->nout, machine, out);
out:
    free(r->fs);
    free(r->names);
    free(r->out);
    free(r->pool);
    free(r);
    return rc;
}
