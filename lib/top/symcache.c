/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symcache.c - resolved addresses kept across the windows of a live view,
 * within a bound (see xu_top.h).
 *
 * An open-addressing table of (address, name), at most half full.  The
 * addresses a window lacks are resolved in one batch by the symboliser
 * (so names are demangled, and unresolved ones shown in hex, exactly as
 * every writer shows them), and their names copied: the symboliser is
 * freed at once.  Eviction is wholesale: when a window's new addresses do
 * not fit, the table is emptied and refilled with what that window needs.
 * A guest's hot addresses come back within a window, so they are resolved
 * again once per eviction, and the bound holds without any per-entry
 * bookkeeping.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/xu_tasks.h"
#include "top/xu_top.h"

struct slot {
    uint64_t addr;
    char *name;                 /* NULL: free */
};

struct xu_top_symcache {
    const struct xu_symtab *st;
    const struct xu_tasks *tasks;   /* the recording's, or NULL */
    unsigned int flags;
    size_t max_entries;
    struct slot *slots;
    unsigned int bits;          /* 1 << bits slots */
    size_t entries;
    uint64_t resolved, evictions;
};

static size_t slot_of(uint64_t addr, unsigned int bits)
{
    return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

static unsigned int bits_for(size_t entries)
{
    unsigned int bits = 4;

    while (bits < 40 && ((size_t)1 << bits) < entries * 2)
        bits++;
    return bits;
}

/* Free every name; the table becomes empty with 1 << bits slots. */
static int reset(struct xu_top_symcache *c, unsigned int bits)
{
    size_t i;
    struct slot *slots;

    if (c->slots)
        for (i = 0; i < ((size_t)1 << c->bits); i++)
            free(c->slots[i].name);
    if (c->slots && bits == c->bits) {
        memset(c->slots, 0, ((size_t)1 << bits) * sizeof(*c->slots));
    } else {
        slots = calloc((size_t)1 << bits, sizeof(*slots));
        if (!slots) {
            /* keep the old array, emptied */
            if (c->slots)
                memset(c->slots, 0, ((size_t)1 << c->bits) * sizeof(*c->slots));
            c->entries = 0;
            return -ENOMEM;
        }
        free(c->slots);
        c->slots = slots;
        c->bits = bits;
    }
    c->entries = 0;
    return 0;
}

int xu_top_symcache_new(struct xu_top_symcache **out, const struct xu_symtab *st,
                        size_t max_entries, unsigned int flags)
{
    struct xu_top_symcache *c = calloc(1, sizeof(*c));

    *out = NULL;
    if (!c)
        return -ENOMEM;
    c->st = st;
    c->flags = flags;
    c->max_entries = max_entries ? max_entries : XU_TOP_DEFAULT_CACHE;
    if (reset(c, bits_for(c->max_entries)) < 0) {
        free(c);
        return -ENOMEM;
    }
    *out = c;
    return 0;
}

void xu_top_symcache_free(struct xu_top_symcache *c)
{
    size_t i;

    if (!c)
        return;
    for (i = 0; i < ((size_t)1 << c->bits); i++)
        free(c->slots[i].name);
    free(c->slots);
    free(c);
}

static struct slot *find(const struct xu_top_symcache *c, uint64_t addr)
{
    size_t mask = ((size_t)1 << c->bits) - 1, j;

    for (j = slot_of(addr, c->bits); c->slots[j].name; j = (j + 1) & mask)
        if (c->slots[j].addr == addr)
            return &c->slots[j];
    return &c->slots[j];        /* the free slot where addr would go */
}

const char *xu_top_symcache_name(const struct xu_top_symcache *c, uint64_t addr)
{
    return find(c, addr)->name;
}

void xu_top_symcache_set_tasks(struct xu_top_symcache *c, const struct xu_tasks *tasks)
{
    c->tasks = tasks;
}

/* A task's name lives in the recording's table, as long as the run; one
 * built from its bare index would not outlive this call, so without the
 * table every task is one "[task]". */
const char *xu_top_symcache_pseudo_name(const struct xu_top_symcache *c, uint64_t pc)
{
    char buf[24];
    const char *name = xu_pseudo_frame_name(c->tasks, pc, buf, sizeof(buf));

    return !name ? "[unknown]" : name == buf ? "[task]" : name;
}

int xu_top_symcache_fill(struct xu_top_symcache *c, const uint64_t *addrs, size_t n)
{
    struct xu_symbolizer *sz = NULL;
    uint64_t *missing = NULL;
    size_t i, nm = 0, need;
    int rc = 0;

    for (i = 1; i < n; i++)
        if (addrs[i] <= addrs[i - 1])
            return -EINVAL;
    missing = malloc((n ? n : 1) * sizeof(*missing));
    if (!missing)
        return -ENOMEM;
    for (i = 0; i < n; i++)
        if (!find(c, addrs[i])->name)
            missing[nm++] = addrs[i];
    if (nm == 0)
        goto out;
    if (c->entries + nm > c->max_entries) {
        /* Room for this window: empty the cache, and refill all of it
         * (the names it holds are about to be invalid anyway). */
        c->evictions++;
        need = n > c->max_entries ? n : c->max_entries;
        if ((rc = reset(c, bits_for(need))) < 0)
            goto out;
        memcpy(missing, addrs, n * sizeof(*missing));
        nm = n;
    }
    sz = xu_symbolizer_new_flags(c->st, missing, nm, c->flags);
    if (!sz) {
        rc = errno == EINVAL ? -EINVAL : -ENOMEM;
        goto out;
    }
    for (i = 0; i < nm; i++) {
        struct slot *s = find(c, missing[i]);
        const char *name = xu_symbolizer_name(sz, missing[i], NULL);

        s->name = strdup(name ? name : "[unknown]");
        if (!s->name) {
            rc = -ENOMEM;
            goto out;
        }
        s->addr = missing[i];
        c->entries++;
        c->resolved++;
    }

out:
    xu_symbolizer_free(sz);
    free(missing);
    return rc;
}

void xu_top_symcache_get_stats(const struct xu_top_symcache *c,
                               struct xu_top_symcache_stats *out)
{
    out->entries = c->entries;
    out->max_entries = c->max_entries;
    out->resolved = c->resolved;
    out->evictions = c->evictions;
}
