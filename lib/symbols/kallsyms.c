/* SPDX-License-Identifier: GPL-2.0-only */
/* kallsyms.c - the kernel's own symbol tables in .rodata (see xu_kallsyms.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_kallsyms.h"
#include "util/xu_le.h"

#define NTOKENS 256
#define TOKEN_MAX 256           /* longest token string accepted */
#define MARKER_STEP 256         /* symbols between two markers */
/* An entry is at least its length byte and one token, at most two length
 * bytes and XU_KALLSYMS_NAME_MAX tokens. */
#define ENTRY_MIN 2u
#define ENTRY_MAX (2u + XU_KALLSYMS_NAME_MAX)
/* Candidates examined, so that a buffer crafted full of near-misses ends. */
#define MAX_TOKEN_TRIES 64
#define MAX_MARKER_TRIES 256

/* What was found, offsets into the buffer. */
struct layout {
    size_t tokens, index;       /* token table and index */
    size_t markers, nmarkers;
    size_t num_syms, names;     /* kallsyms_num_syms, kallsyms_names */
    size_t n;
    bool seqs;
};

struct reader {
    const uint8_t *p;
    size_t len;
    char *err;
    size_t err_size;
    size_t budget;                  /* name entries left to examine */
};

/* Name entries and scan steps in all, over every candidate: a real table
 * is found in one pass of at most XU_KALLSYMS_MAX_SYMS entries and a scan
 * over its names; a crafted buffer full of near-misses ends here instead of
 * taking minutes. */
#define ENTRY_BUDGET (8u * XU_KALLSYMS_MAX_SYMS)

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static void say(struct reader *r, const char *what)
{
    if (r->err && r->err_size)
        snprintf(r->err, r->err_size, "%s", what);
}

/* ------------------------------------------------------------ tokens --- */

/* Length of the NUL-terminated token at off (1..TOKEN_MAX), or 0. */
static size_t token_len(const struct reader *r, size_t off)
{
    size_t max = r->len - off < TOKEN_MAX + 1 ? r->len - off : TOKEN_MAX + 1;
    const uint8_t *nul = memchr(r->p + off, 0, max);

    return nul && nul > r->p + off ? (size_t)(nul - (r->p + off)) : 0;
}

/* Whether the index at ix describes the table at t exactly, ending at end. */
static bool index_matches(const struct reader *r, size_t t, size_t ix, size_t end)
{
    size_t i, off = 0;

    for (i = 0; i < NTOKENS; i++) {
        size_t l;

        if (xu_le16(r->p + ix + 2 * i) != off || t + off >= end)
            return false;
        l = token_len(r, t + off);
        if (l == 0)
            return false;
        off += l + 1;
    }
    return t + off == end;
}

/* The token table whose digit tokens start at d: fills L, true when its
 * index follows it and agrees with it. */
static bool tokens_at(const struct reader *r, size_t d, struct layout *L)
{
    size_t end = d, i, a;

    for (i = '0'; i < NTOKENS; i++) {          /* tokens '0'..255: to the end */
        size_t l = end < r->len ? token_len(r, end) : 0;

        if (l == 0)
            return false;
        end += l + 1;
    }
    for (a = 1; a <= 8; a *= 2) {
        size_t ix = align_up(end, a), t;
        uint16_t at_zero;

        if (ix > r->len || r->len - ix < 2 * NTOKENS)
            continue;
        at_zero = xu_le16(r->p + ix + 2 * '0');
        if (at_zero > d)
            continue;
        t = d - at_zero;
        if (index_matches(r, t, ix, end)) {
            L->tokens = t;
            L->index = ix;
            return true;
        }
    }
    return false;
}

static bool find_tokens(const struct reader *r, struct layout *L)
{
    static const char digits[] = "0\0" "1\0" "2\0" "3\0" "4\0" "5\0" "6\0" "7\0" "8\0" "9";
    size_t from = 0, tries = 0;

    while (from < r->len && tries++ < MAX_TOKEN_TRIES) {
        const uint8_t *hit = memmem(r->p + from, r->len - from, digits, sizeof(digits));

        if (!hit)
            return false;
        /* the '0' token is a whole string: the byte before ends another */
        if (hit > r->p && hit[-1] == 0 && tokens_at(r, (size_t)(hit - r->p), L))
            return true;
        from = (size_t)(hit - r->p) + 1;
    }
    return false;
}

/* ----------------------------------------------------- names, markers --- */

/* Whether the k markers at m look like markers: 0, then rising by a
 * plausible number of bytes for 256 entries. */
static bool markers_plausible(const struct reader *r, size_t m, size_t k)
{
    uint32_t prev = 0;
    size_t i;

    if (xu_le32(r->p + m) != 0)
        return false;
    for (i = 1; i < k; i++) {
        uint32_t v = xu_le32(r->p + m + 4 * i);

        if (v <= prev || v - prev < MARKER_STEP * ENTRY_MIN || v - prev > MARKER_STEP * ENTRY_MAX)
            return false;
        prev = v;
    }
    return true;
}

/* Length of the entry at off (its header and tokens), 0 when it does not fit
 * before end or is empty. */
static size_t entry_len(const struct reader *r, size_t off, size_t end)
{
    size_t len, head = 1;

    if (off >= end)
        return 0;
    len = r->p[off];
    if (len & 0x80) {
        if (off + 1 >= end)
            return 0;
        len = (len & 0x7f) | (size_t)r->p[off + 1] << 7;
        head = 2;
    }
    if (len == 0 || len > XU_KALLSYMS_NAME_MAX || len > end - off - head)
        return 0;
    return head + len;
}

/* Whether the entry of length l at off starts with a type letter, as every
 * name does (its first token's first character). */
static bool typed(const struct reader *r, const struct layout *L, size_t off, size_t l)
{
    size_t head = l > 1 && (r->p[off] & 0x80) ? 2 : 1;
    uint8_t c = r->p[L->tokens + xu_le16(r->p + L->index + 2 * r->p[off + head])];

    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '?';
}

/* Whether n names at names lead exactly to the markers in L (each 256th at
 * its marker, the last ending in the alignment gap before them). */
static bool names_match(struct reader *r, size_t names, size_t n, const struct layout *L)
{
    size_t off = names, i;

    for (i = 0; i < n; i++) {
        size_t l;

        if (r->budget == 0)
            return false;
        r->budget--;
        if (i % MARKER_STEP == 0 &&
            xu_le32(r->p + L->markers + 4 * (i / MARKER_STEP)) != off - names)
            return false;
        l = entry_len(r, off, L->markers);
        if (l == 0 || !typed(r, L, off, l))
            return false;
        off += l;
    }
    return off <= L->markers && L->markers - off < 8;
}

/* kallsyms_num_syms and names before markers of L (n 0: unknown, within
 * the markers' range).  Scans back from the markers over at most the
 * largest names table such a count could have. */
static bool find_names(struct reader *r, struct layout *L, size_t n)
{
    size_t lo_n = n ? n : (L->nmarkers - 1) * MARKER_STEP + 1;
    size_t hi_n = n ? n : L->nmarkers * MARKER_STEP;
    size_t span = hi_n * ENTRY_MAX + 16, least = lo_n * ENTRY_MIN, q, stop;

    if (L->markers < least + 4)
        return false;
    stop = L->markers > span ? L->markers - span : 0;
    for (q = (L->markers - least - 4) & ~(size_t)3;; q -= 4) {
        uint32_t v = xu_le32(r->p + q);

        if (v >= lo_n && v <= hi_n) {
            size_t p1 = q + 4, p2 = align_up(q + 4, 8), at;

            at = names_match(r, p1, v, L) ? p1 : p2 != p1 && names_match(r, p2, v, L) ? p2 : 0;
            if (at) {
                L->num_syms = q;
                L->names = at;
                L->n = v;
                return true;
            }
        }
        if (q < stop + 4 || r->budget == 0)
            return false;
        r->budget--;                    /* the scan costs too */
    }
}

/* Markers of k entries ending at e (4-aligned), with n symbols when known. */
static bool try_markers(struct reader *r, struct layout *L, size_t e, size_t k, size_t n,
                        bool seqs)
{
    if (e < 4 * k || (e & 3) || !markers_plausible(r, e - 4 * k, k))
        return false;
    L->markers = e - 4 * k;
    L->nmarkers = k;
    L->seqs = seqs;
    return find_names(r, L, n);
}

static bool find_markers(struct reader *r, struct layout *L)
{
    size_t t = L->tokens, k, n, e, tries = 0;

    /* without kallsyms_seqs_of_names: the markers end right before the tokens */
    for (k = 1; k <= XU_KALLSYMS_MAX_SYMS / MARKER_STEP; k++)
        for (e = t & ~(size_t)3; e + 8 > t && e >= 4 * k; e -= 4)
            if (markers_plausible(r, e - 4 * k, k) && tries++ < MAX_MARKER_TRIES &&
                try_markers(r, L, e, k, 0, false))
                return true;
    /* with them: 3 bytes a symbol between the markers and the tokens */
    for (n = 1; n <= XU_KALLSYMS_MAX_SYMS && 3 * n < t; n++) {
        k = (n + MARKER_STEP - 1) / MARKER_STEP;
        /* each table aligned: up to 7 bytes of padding after either */
        for (e = (t - 3 * n) & ~(size_t)3; e + 3 * n + 16 > t && e >= 4 * k; e -= 4)
            if (markers_plausible(r, e - 4 * k, k) && tries++ < MAX_MARKER_TRIES &&
                try_markers(r, L, e, k, n, true))
                return true;
    }
    return false;
}

/* ----------------------------------------------------------- addresses --- */

static bool sorted(const uint64_t *a, size_t n)
{
    size_t i;

    for (i = 1; i < n; i++)
        if (a[i] < a[i - 1])
            return false;
    return n > 0 && a[n - 1] != a[0];
}

/* Base-relative offsets at o with the base at b: either encoding. */
static const char *relative_at(const struct reader *r, size_t o, size_t b, size_t n, uint64_t *a)
{
    uint64_t base;
    size_t i;
    bool negative = false;

    if (o > r->len || r->len - o < 4 * n || b > r->len - 8 || (o & 3))
        return NULL;
    base = xu_le64(r->p + b);
    /* CONFIG_KALLSYMS_ABSOLUTE_PERCPU: negative offsets count down from
     * base - 1, others are absolute; the kernel's own text is always below
     * base - 1 there, so a table without a negative offset is the plain
     * encoding (no kernel has 2 GiB of symbols above its base). */
    for (i = 0; i < n; i++) {
        int32_t v = (int32_t)xu_le32(r->p + o + 4 * i);

        negative |= v < 0;
        a[i] = v >= 0 ? (uint64_t)v : base - 1 - (uint64_t)(int64_t)v;
    }
    if (negative)
        return sorted(a, n) ? "base-relative offsets, absolute per-CPU" : NULL;
    for (i = 0; i < n; i++)
        a[i] = base + xu_le32(r->p + o + 4 * i);
    return sorted(a, n) ? "base-relative offsets" : NULL;
}

static const char *absolute_at(const struct reader *r, size_t o, size_t n, uint64_t *a)
{
    size_t i;

    if (o > r->len || r->len - o < 8 * n)
        return NULL;
    for (i = 0; i < n; i++)
        a[i] = xu_le64(r->p + o + 8 * i);
    return sorted(a, n) ? "absolute addresses" : NULL;
}

static const char *read_addresses(const struct reader *r, const struct layout *L, uint64_t *a)
{
    size_t n = L->n, q = L->num_syms, after = L->index + 2 * NTOKENS, o;
    const char *how;

    /* before num_syms: offsets, then the base 8-aligned just before it (the
     * offsets may start the buffer: a .rodata that begins with them) */
    if (q >= 8 + 4 * n) {
        size_t b = (q - 8) & ~(size_t)7, pad;

        for (pad = 0; pad < 8; pad += 4)        /* b is o + 4n rounded up to 8 */
            if ((how = relative_at(r, b - 4 * n - pad, b, n, a)))
                return how;
    }
    /* after the token index (newer kernels) */
    for (o = align_up(after, 4); o <= align_up(after, 8); o += 4)
        if (o <= r->len && r->len - o >= 4 * n + 8 &&
            (how = relative_at(r, o, align_up(o + 4 * n, 8), n, a)))
            return how;
    if (q >= 8 * n && (how = absolute_at(r, (q & ~(size_t)7) - 8 * n, n, a)))
        return how;
    return NULL;
}

/* --------------------------------------------------------------- names --- */

static int expand_names(const struct reader *r, const struct layout *L, const uint64_t *a,
                        struct xu_kallsyms *out)
{
    size_t off = L->names, i, used = 0, cap = L->n * 24 + 4096;
    char name[XU_KALLSYMS_NAME_MAX * 2 + 2];

    out->pool = malloc(cap);
    out->syms = calloc(L->n, sizeof(*out->syms));
    if (!out->pool || !out->syms)
        return -ENOMEM;
    for (i = 0; i < L->n; i++) {
        size_t l = entry_len(r, off, L->markers), head = r->p[off] & 0x80 ? 2 : 1, k, nl = 0;

        for (k = head; k < l; k++) {
            size_t tok = L->tokens + xu_le16(r->p + L->index + 2 * r->p[off + k]);
            size_t tl = token_len(r, tok);

            if (tl > sizeof(name) - 1 - nl)
                tl = sizeof(name) - 1 - nl;     /* a name too long is cut */
            memcpy(name + nl, r->p + tok, tl);
            nl += tl;
        }
        off += l;
        name[nl] = '\0';
        if (nl + 1 > cap - used) {
            char *p;

            cap = cap * 2 + nl + 1;
            p = realloc(out->pool, cap);
            if (!p)
                return -ENOMEM;
            out->pool = p;
        }
        out->syms[i].addr = a[i];
        out->syms[i].type = nl ? name[0] : '?';
        out->syms[i].name = (uint32_t)used;
        memcpy(out->pool + used, nl ? name + 1 : "", nl ? nl : 1);
        used += nl ? nl : 1;
    }
    out->n = L->n;
    return 0;
}

int xu_kallsyms_read(const uint8_t *ro, size_t len, struct xu_kallsyms *out, char *err,
                     size_t err_size)
{
    struct reader r = { ro, len, err, err_size, ENTRY_BUDGET };
    struct layout L;
    uint64_t *addrs = NULL;
    const char *how;
    int rc = -ENODATA;

    memset(out, 0, sizeof(*out));
    memset(&L, 0, sizeof(L));
    if (len < 2 * NTOKENS + 16 || !find_tokens(&r, &L)) {
        say(&r, "no kallsyms token table");
        goto out;
    }
    if (!find_markers(&r, &L)) {
        say(&r, "a kallsyms token table, but no names and markers before it");
        goto out;
    }
    addrs = malloc(L.n * sizeof(*addrs));
    if (!addrs) {
        rc = -ENOMEM;
        goto out;
    }
    how = read_addresses(&r, &L, addrs);
    if (!how) {
        say(&r, "kallsyms names, but no sorted addresses for them");
        goto out;
    }
    rc = expand_names(&r, &L, addrs, out);
    if (rc < 0)
        goto out;
    out->layout = L.seqs ? (strstr(how, "absolute addr") ? "absolute addresses, seqs_of_names"
                            : "base-relative offsets, seqs_of_names")
                         : how;
out:
    free(addrs);
    if (rc < 0)
        xu_kallsyms_dispose(out);
    return rc;
}

void xu_kallsyms_dispose(struct xu_kallsyms *k)
{
    free(k->syms);
    free(k->pool);
    memset(k, 0, sizeof(*k));
}

int xu_kallsyms_is_function(char t)
{
    return t == 't' || t == 'T' || t == 'w' || t == 'W';
}
