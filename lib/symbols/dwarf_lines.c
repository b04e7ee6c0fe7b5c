/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dwarf_lines.c - inlined functions and source lines at an address, from the
 * ELF's DWARF through libdw (see xu_dwarf_lines.h).
 *
 * The compile unit holding an address is found in a table of every unit's
 * address ranges, built once when the file is opened, rather than through
 * .debug_aranges: that section is optional (clang and LTO builds often lack
 * it, or leave units out of it), and a sorted table answers each of the
 * symboliser's questions in O(log n).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_dwarf_lines.h"

#ifdef HAVE_LIBDW

#include <dwarf.h>
#include <fcntl.h>
#include <unistd.h>
#include <elfutils/libdw.h>

/* Bounds on what a hostile .debug_info can make the table hold. */
#define MAX_UNITS (1u << 20)
#define MAX_RANGES (1u << 22)

struct cu_range {
    uint64_t lo, hi;            /* [lo, hi) */
    Dwarf_Off die;              /* the unit's DIE */
};

struct xu_dwarf_lines {
    int fd;
    Dwarf *dw;
    struct cu_range *ranges;    /* sorted by lo */
    size_t nr_ranges, cap;
};

static int add_range(struct xu_dwarf_lines *dl, uint64_t lo, uint64_t hi, Dwarf_Off die)
{
    if (lo >= hi)
        return 0;
    if (dl->nr_ranges == dl->cap) {
        size_t cap = dl->cap ? dl->cap * 2 : 64;
        struct cu_range *r;

        if (cap > MAX_RANGES)
            return -E2BIG;
        r = realloc(dl->ranges, cap * sizeof(*r));
        if (!r)
            return -ENOMEM;
        dl->ranges = r;
        dl->cap = cap;
    }
    dl->ranges[dl->nr_ranges++] = (struct cu_range){ lo, hi, die };
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const struct cu_range *x = a, *y = b;

    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges, sorted.  A unit whose ranges libdw cannot read is
 * left out (its addresses get no line); the table is cut at its bounds. */
static int build_ranges(struct xu_dwarf_lines *dl)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    unsigned int units = 0;
    int rc = 0;

    while (rc == 0 && units++ < MAX_UNITS &&
           dwarf_nextcu(dl->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        Dwarf_Addr base, lo, hi;
        ptrdiff_t it = 0;
        unsigned int k = 0;

        if (dwarf_offdie(dl->dw, off + hsize, &cu)) {
            while (rc == 0 && k++ < MAX_RANGES &&
                   (it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0)
                rc = add_range(dl, lo, hi, dwarf_dieoffset(&cu));
        }
        if (next <= off)        /* a unit must move forward */
            break;
        off = next;
    }
    if (rc == -E2BIG)
        rc = 0;
    /* no unit with ranges leaves the table NULL, which qsort may not be given */
    if (dl->nr_ranges > 1)
        qsort(dl->ranges, dl->nr_ranges, sizeof(*dl->ranges), cmp_range);
    return rc;
}

int xu_dwarf_lines_open(const char *path, struct xu_log *log, struct xu_dwarf_lines **out)
{
    struct xu_dwarf_lines *dl = NULL;
    int rc;

    *out = NULL;
    dl = calloc(1, sizeof(*dl));
    if (!dl)
        return -ENOMEM;
    dl->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (dl->fd < 0) {
        rc = -errno;
        goto out;
    }
    dl->dw = dwarf_begin(dl->fd, DWARF_C_READ);
    if (!dl->dw) {
        xu_debug(log, "%s: no DWARF libdw can read (%s)", path, dwarf_errmsg(-1));
        rc = -ENODATA;
        goto out;
    }
    rc = build_ranges(dl);
    if (rc == 0 && dl->nr_ranges == 0)
        rc = -ENODATA;
    if (rc == 0) {
        *out = dl;
        dl = NULL;
    }
out:
    xu_dwarf_lines_free(dl);
    return rc;
}

void xu_dwarf_lines_free(struct xu_dwarf_lines *dl)
{
    if (!dl)
        return;
    if (dl->dw)
        dwarf_end(dl->dw);
    if (dl->fd >= 0)
        close(dl->fd);
    free(dl->ranges);
    free(dl);
}

/* The unit holding addr, or false. */
static bool unit_of(struct xu_dwarf_lines *dl, uint64_t addr, Dwarf_Die *cu)
{
    size_t lo = 0, hi = dl->nr_ranges;

    /* the last range starting at or before addr; ranges of distinct units
     * do not overlap in a sane file, and in another any answer will do */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (dl->ranges[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr >= dl->ranges[lo - 1].hi)
        return false;
    return dwarf_offdie(dl->dw, dl->ranges[lo - 1].die, cu) != NULL;
}

static const char *bounded(const char *s)
{
    return s && strnlen(s, XU_SRC_STR_MAX + 1) <= XU_SRC_STR_MAX ? s : NULL;
}

static const char *inlined_name(Dwarf_Die *scope)
{
    Dwarf_Attribute a;
    const char *s = NULL;

    if (dwarf_attr_integrate(scope, DW_AT_linkage_name, &a) ||
        dwarf_attr_integrate(scope, DW_AT_MIPS_linkage_name, &a))
        s = bounded(dwarf_formstring(&a));
    if (!s && dwarf_attr_integrate(scope, DW_AT_name, &a))
        s = bounded(dwarf_formstring(&a));
    return s;
}

/* Where the inlined scope was called from: file and line, or NULL and 0. */
static void call_site(Dwarf_Die *scope, Dwarf_Files *files, size_t nr_files,
                      const char **file, uint32_t *line)
{
    Dwarf_Attribute a;
    Dwarf_Word v;

    *file = NULL;
    *line = 0;
    if (files && dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &a), &v) == 0 &&
        v < nr_files)
        *file = bounded(dwarf_filesrc(files, v, NULL, NULL));
    if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &a), &v) == 0)
        *line = v > UINT32_MAX ? 0 : (uint32_t)v;
}

/*
 * The inlined scopes at addr, innermost first, into inl (at most
 * XU_INLINE_MAX_DEPTH: past that the innermost are dropped, so that the
 * outermost, whose call lines name the lines of the physical function and
 * its first callees, stay; the chain given out is one shorter still, so
 * that its last function's line is its own call line, not the leaf's).  dwarf_getscopes() follows the innermost
 * inlined scope into its abstract definition, not into the code that holds
 * it, so the chain is read from dwarf_getscopes_die() on that scope: the
 * scopes around it in the concrete tree, up to the physical function.
 */
static unsigned int inlined_scopes(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *inl)
{
    Dwarf_Die *scopes = NULL, *outer = NULL;
    unsigned int k = 0;
    int n, i;

    n = dwarf_getscopes(cu, addr, &scopes);
    for (i = 0; i < n; i++) {
        int tag = dwarf_tag(&scopes[i]);

        if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point)
            break;
        if (tag == DW_TAG_inlined_subroutine)
            break;
    }
    if (i >= n || dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
        goto out;
    n = dwarf_getscopes_die(&scopes[i], &outer);
    for (i = 0; i < n; i++) {
        int tag = dwarf_tag(&outer[i]);

        if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point)
            break;
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        if (k == XU_INLINE_MAX_DEPTH) {
            memmove(inl, inl + 1, (k - 1) * sizeof(*inl));
            k--;
        }
        inl[k++] = outer[i];
    }
out:
    free(scopes);
    free(outer);
    return k;
}

unsigned int xu_dwarf_lines_at(struct xu_dwarf_lines *dl, uint64_t addr, bool with_inline,
                               struct xu_frame_line *out, unsigned int max)
{
    Dwarf_Die cu, inl[XU_INLINE_MAX_DEPTH];    /* innermost first */
    Dwarf_Files *files = NULL;
    size_t nr_files = 0;
    Dwarf_Line *src;
    const char *leaf_file = NULL;
    uint32_t leaf_line = 0;
    unsigned int k = 0, total, n, j;
    int lineno;

    if (!max || !unit_of(dl, addr, &cu))
        return 0;
    src = dwarf_getsrc_die(&cu, addr);
    if (src && dwarf_lineno(src, &lineno) == 0 && lineno > 0) {
        leaf_line = (uint32_t)lineno;
        leaf_file = bounded(dwarf_linesrc(src, NULL, NULL));
    }
    if (with_inline && (k = inlined_scopes(&cu, addr, inl)) != 0 &&
        dwarf_getsrcfiles(&cu, &files, &nr_files) != 0)
        files = NULL;
    total = k + 1;
    n = total < max ? total : max;
    /* entry j (outermost first) is the physical function for j 0, else
     * inl[k - j]; its line is where it calls the next one in */
    for (j = 0; j < n; j++) {
        out[j].name = j ? inlined_name(&inl[k - j]) : NULL;
        out[j].inlined = j != 0;
        if (j + 1 < total) {
            call_site(&inl[k - j - 1], files, nr_files, &out[j].file, &out[j].line);
        } else {
            out[j].file = leaf_file;
            out[j].line = leaf_line;
        }
    }
    return n;
}

#else /* !HAVE_LIBDW */

int xu_dwarf_lines_open(const char *path, struct xu_log *log, struct xu_dwarf_lines **out)
{
    (void)path;
    (void)log;
    *out = NULL;
    return -ENOSYS;
}

void xu_dwarf_lines_free(struct xu_dwarf_lines *dl)
{
    (void)dl;
}

unsigned int xu_dwarf_lines_at(struct xu_dwarf_lines *dl, uint64_t addr, bool with_inline,
                               struct xu_frame_line *out, unsigned int max)
{
    (void)dl;
    (void)addr;
    (void)with_inline;
    (void)out;
    (void)max;
    return 0;
}

#endif
