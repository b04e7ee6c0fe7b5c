/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orc_table.c - the kernel's ORC tables read, checked and normalised into
 * one sorted, searchable table (see xu_orc.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/xu_orc.h"
#include "util/xu_log.h"
#include "util/xu_le.h"

struct xu_orc_table {
    uint64_t base;                  /* lowest address of an entry */
    uint64_t text_start, text_end;  /* lookups outside find nothing */
    uint32_t *off;                  /* address - base, ascending, distinct */
    struct xu_orc_entry *e;
    size_t n;
    struct xu_orc_stats st;
    struct xu_orc_table *next;      /* owned: a module's, after the kernel's */
};

/* .orc_header's hashes of the known layouts (sha1 of orc_types.h as the
 * kernel's scripts/orc_hash.sh takes it): 6.3's and 6.4's. */
static const uint8_t hash_6_3[XU_ORC_HEADER_SIZE] = {
    0xdb, 0x84, 0xae, 0xd4, 0x10, 0x3b, 0x31, 0xdd, 0x51, 0xe0,
    0x17, 0xf8, 0xf7, 0x97, 0x83, 0xca, 0x98, 0x5c, 0x2c, 0x51,
};
static const uint8_t hash_6_4[XU_ORC_HEADER_SIZE] = {
    0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
    0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24,
};

#define KVERSION(maj, min) ((unsigned int)(maj) << 8 | (unsigned int)(min))

const char *xu_orc_layout_name(enum xu_orc_layout l)
{
    switch (l) {
    case XU_ORC_LAYOUT_4_14: return "4.14-6.2 (type:2 end:1)";
    case XU_ORC_LAYOUT_6_3:  return "6.3 (type:2 signal:1 end:1)";
    case XU_ORC_LAYOUT_6_4:  return "6.4 (type:3 signal:1)";
    }
    return "?";
}

const char *xu_orc_strerror(int rc)
{
    switch (rc) {
    case -ENODATA: return "no ORC tables (.orc_unwind_ip, .orc_unwind)";
    case -ENOEXEC: return "not an ELF64 x86-64 file";
    case -EBADMSG: return "ORC tables that do not check out";
    case -ENOTSUP: return "an ORC layout this build does not know";
    case -E2BIG:   return "ORC tables too large";
    case -ENOMEM:  return "out of memory";
    default:       return rc < 0 ? strerror(-rc) : "no error";
    }
}

/* The flags of one raw entry in layout l as an entry; false when they are
 * not an entry of that layout (reserved bits, an unknown type). */
static bool decode(const uint8_t *raw, enum xu_orc_layout l, struct xu_orc_entry *e)
{
    uint16_t f = xu_le16(raw + 4);
    unsigned int t;
    bool end;

    e->sp_offset = (int16_t)xu_le16(raw);
    e->bp_offset = (int16_t)xu_le16(raw + 2);
    e->sp_reg = f & 0xf;
    e->bp_reg = (f >> 4) & 0xf;
    if (l == XU_ORC_LAYOUT_6_4) {
        t = (f >> 8) & 7;
        e->signal = (f >> 11) & 1;
        if ((f >> 12) || t > XU_ORC_TYPE_REGS_PARTIAL)
            return false;
        e->type = (uint8_t)t;
    } else {
        t = (f >> 8) & 3;
        if (l == XU_ORC_LAYOUT_6_3) {
            e->signal = (f >> 10) & 1;
            end = (f >> 11) & 1;
            if (f >> 12)
                return false;
        } else {
            e->signal = 0;
            end = (f >> 10) & 1;
            if (f >> 11)
                return false;
        }
        if (t == 3)
            return false;
        if (e->sp_reg == XU_ORC_REG_UNDEFINED)
            e->type = end ? XU_ORC_TYPE_END_OF_STACK : XU_ORC_TYPE_UNDEFINED;
        else
            e->type = (uint8_t)(XU_ORC_TYPE_CALL + t);
    }
    /* what an interrupt frame leaves is an exact PC, in every layout */
    if (e->type == XU_ORC_TYPE_REGS || e->type == XU_ORC_TYPE_REGS_PARTIAL)
        e->signal = 1;
    return true;
}

/* Without header or version: 6.4's CALL entries (most of any table) have
 * type bits 01x, the older layouts' 00; 6.3's end is bit 11. */
static enum xu_orc_layout guess_layout(const uint8_t *orc, size_t n)
{
    size_t i, calls_6_4 = 0, calls_old = 0, bit11 = 0;

    for (i = 0; i < n; i++) {
        uint16_t f = xu_le16(orc + i * XU_ORC_ENTRY_SIZE + 4);

        if (((f >> 8) & 7) == XU_ORC_TYPE_CALL)
            calls_6_4++;
        else if (((f >> 8) & 3) == 0 && (f & 0xf))
            calls_old++;
        if (f & 0x800)
            bit11++;
    }
    if (calls_6_4 > calls_old)
        return XU_ORC_LAYOUT_6_4;
    return bit11 ? XU_ORC_LAYOUT_6_3 : XU_ORC_LAYOUT_4_14;
}

static int choose_layout(const struct xu_orc_sections *s, size_t n, struct xu_orc_stats *st,
                         char *err, size_t err_size)
{
    st->version = s->version;
    st->sp_indirect_before_5_12 = s->version && s->version < KVERSION(5, 12);
    if (s->layout_given) {
        st->layout = s->layout;
        st->source = XU_ORC_FROM_CALLER;
    } else if (s->header) {
        st->source = XU_ORC_FROM_HEADER;
        if (s->header_len == XU_ORC_HEADER_SIZE && memcmp(s->header, hash_6_4, 20) == 0) {
            st->layout = XU_ORC_LAYOUT_6_4;
        } else if (s->header_len == XU_ORC_HEADER_SIZE &&
                   memcmp(s->header, hash_6_3, 20) == 0) {
            st->layout = XU_ORC_LAYOUT_6_3;
        } else {
            xu_errbuf_printf(err, err_size, ".orc_header (%zu bytes) names an ORC layout this "
                             "build does not know", s->header_len);
            return -ENOTSUP;
        }
    } else if (s->version) {
        st->source = XU_ORC_FROM_VERSION;
        st->layout = s->version >= KVERSION(6, 4) ? XU_ORC_LAYOUT_6_4 :
                     s->version >= KVERSION(6, 3) ? XU_ORC_LAYOUT_6_3 : XU_ORC_LAYOUT_4_14;
    } else {
        st->source = XU_ORC_FROM_ENTRIES;
        st->layout = guess_layout(s->orc, n);
    }
    return 0;
}

struct raw {
    uint64_t addr;
    uint32_t index;                 /* in the file: ties keep the file's order */
    bool terminator;                /* UNDEFINED: loses to a real entry at its address */
};

static int cmp_raw(const void *a, const void *b)
{
    const struct raw *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->terminator != y->terminator)
        return x->terminator ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The entries' addresses into r, *kept of them, checked: an entry outside
 * the text is an error, or left out where s->drop_outside says so; sorted
 * (with the kernel's tie-break) when the file's are not (vmlinux before 5.6). */
static int addresses(const struct xu_orc_sections *s, const struct xu_orc_entry *e, size_t n,
                     struct raw *r, size_t *kept, char *err, size_t err_size)
{
    size_t i, k = 0;
    bool sorted = true;

    for (i = 0; i < n; i++) {
        int64_t rel = (int32_t)xu_le32(s->ip + 4 * i);
        uint64_t at = s->ip_addr + 4 * i;
        uint64_t addr = at + (uint64_t)rel;

        if (addr < s->text_start || addr > s->text_end) {
            if (s->drop_outside)
                continue;
            xu_errbuf_printf(err, err_size, "ORC entry %zu at %#llx lies outside the kernel's text "
                             "[%#llx, %#llx]", i, (unsigned long long)addr,
                             (unsigned long long)s->text_start, (unsigned long long)s->text_end);
            return -EBADMSG;
        }
        r[k].addr = addr;
        r[k].index = (uint32_t)i;
        r[k].terminator = e[i].type == XU_ORC_TYPE_UNDEFINED;
        if (k && r[k].addr < r[k - 1].addr)
            sorted = false;
        k++;
    }
    if (!sorted)
        qsort(r, k, sizeof(*r), cmp_raw);
    if (k && r[k - 1].addr - r[0].addr > UINT32_MAX) {
        xu_errbuf_printf(err, err_size, "ORC entries span 4 GiB or more");
        return -E2BIG;
    }
    *kept = k;
    return 0;
}

/* One entry per address (the last of a tie: sorted, terminators come
 * first), runs of equal entries merged into their first. */
static void compact(struct xu_orc_table *t, const struct raw *r, const struct xu_orc_entry *e,
                    size_t n)
{
    size_t i, k = 0;

    t->base = n ? r[0].addr : 0;
    for (i = 0; i < n; i++) {
        const struct xu_orc_entry *x = &e[r[i].index];

        if (i + 1 < n && r[i + 1].addr == r[i].addr)
            continue;
        if (k && memcmp(&t->e[k - 1], x, sizeof(*x)) == 0)
            continue;
        t->off[k] = (uint32_t)(r[i].addr - t->base);
        t->e[k++] = *x;
    }
    t->n = k;
}

static int check_sizes(const struct xu_orc_sections *s, size_t *n, char *err, size_t err_size)
{
    if (!s->ip || !s->orc) {
        xu_errbuf_printf(err, err_size, "no .orc_unwind_ip or .orc_unwind");
        return -ENODATA;
    }
    if (s->ip_len % 4 || s->orc_len % XU_ORC_ENTRY_SIZE ||
        s->ip_len / 4 != s->orc_len / XU_ORC_ENTRY_SIZE || s->ip_len == 0) {
        xu_errbuf_printf(err, err_size, ".orc_unwind_ip (%zu bytes) and .orc_unwind (%zu bytes) "
                         "do not hold the same number of entries", s->ip_len, s->orc_len);
        return -EBADMSG;
    }
    *n = s->ip_len / 4;
    if (*n > XU_ORC_MAX_ENTRIES) {
        xu_errbuf_printf(err, err_size, "%zu ORC entries, more than the %u read", *n,
                         XU_ORC_MAX_ENTRIES);
        return -E2BIG;
    }
    if (s->text_end < s->text_start || s->ip_addr > UINT64_MAX - s->ip_len) {
        xu_errbuf_printf(err, err_size, "the kernel's text or its .orc_unwind_ip lies nowhere");
        return -EBADMSG;
    }
    return 0;
}

int xu_orc_from_sections(const struct xu_orc_sections *s, struct xu_orc_table **out,
                         char *err, size_t err_size)
{
    struct xu_orc_table *t = NULL;
    struct xu_orc_entry *e = NULL;
    struct raw *r = NULL;
    struct xu_orc_stats st = { 0 };
    size_t i, n = 0, kept = 0;
    int rc;

    *out = NULL;
    rc = check_sizes(s, &n, err, err_size);
    if (rc < 0)
        goto out;
    rc = choose_layout(s, n, &st, err, err_size);
    if (rc < 0)
        goto out;
    e = malloc(n * sizeof(*e));
    r = malloc(n * sizeof(*r));
    t = calloc(1, sizeof(*t));
    if (!e || !r || !t) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (!decode(s->orc + i * XU_ORC_ENTRY_SIZE, st.layout, &e[i])) {
            xu_errbuf_printf(err, err_size, "ORC entry %zu (flags %#x) is not one of layout %s", i,
                             xu_le16(s->orc + i * XU_ORC_ENTRY_SIZE + 4),
                             xu_orc_layout_name(st.layout));
            rc = -EBADMSG;
            goto out;
        }
    }
    rc = addresses(s, e, n, r, &kept, err, err_size);
    if (rc < 0)
        goto out;
    if (kept == 0) {
        xu_errbuf_printf(err, err_size, "no ORC entry lies in the text");
        rc = -ENODATA;
        goto out;
    }
    t->off = malloc(n * sizeof(*t->off));
    t->e = malloc(n * sizeof(*t->e));
    if (!t->off || !t->e) {
        rc = -ENOMEM;
        goto out;
    }
    compact(t, r, e, kept);
    t->text_start = s->text_start;
    t->text_end = s->text_end;
    st.raw_entries = n;
    st.outside = n - kept;
    st.entries = t->n;
    st.bytes = sizeof(*t) + n * (sizeof(*t->off) + sizeof(*t->e));
    t->st = st;
    *out = t;
    t = NULL;
out:
    xu_orc_free(t);
    free(e);
    free(r);
    return rc;
}

void xu_orc_free(struct xu_orc_table *t)
{
    while (t) {
        struct xu_orc_table *next = t->next;

        free(t->off);
        free(t->e);
        free(t);
        t = next;
    }
}

void xu_orc_chain(struct xu_orc_table *t, struct xu_orc_table *next)
{
    while (t->next)
        t = t->next;
    t->next = next;
}

void xu_orc_get_stats(const struct xu_orc_table *t, struct xu_orc_stats *out)
{
    *out = t->st;
}

int xu_orc_relocate(struct xu_orc_table *t, int64_t slide)
{
    uint64_t d = (uint64_t)slide;

    if (!t || slide == 0)
        return 0;
    if ((slide > 0 && (t->text_end + d < t->text_end || t->base + d < t->base)) ||
        (slide < 0 && (t->text_start + d > t->text_start || t->base + d > t->base)))
        return -ERANGE;
    t->base += d;
    t->text_start += d;
    t->text_end += d;
    return 0;
}

bool xu_orc_lookup(const struct xu_orc_table *t, uint64_t addr, struct xu_orc_entry *out,
                   uint64_t *start)
{
    size_t lo = 0, hi;
    uint64_t rel;

    /* the table whose text holds addr: the kernel's, or a module's after it */
    while (t && (addr < t->text_start || addr >= t->text_end))
        t = t->next;
    if (!t || t->n == 0 || addr < t->base || addr - t->base > UINT32_MAX)
        return false;
    rel = addr - t->base;
    hi = t->n;
    /* the last entry starting at or below addr */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (t->off[mid] <= rel)
            lo = mid;
        else
            hi = mid;
    }
    *out = t->e[lo];
    if (start)
        *start = t->base + t->off[lo];
    return true;
}
