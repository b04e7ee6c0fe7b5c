/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_pprof.c - the "pprof" format: a gzipped profile.proto, as
 * `go tool pprof` and other pprof readers take it.
 *
 * A small protobuf encoder (varints and length-delimited fields are all
 * profile.proto needs) writes the message into memory; zlib gzips it.
 * Field numbers are those of github.com/google/pprof/proto/profile.proto.
 *
 *   sample_type   samples/count (a stack's count) and cpu/nanoseconds (the
 *                 CPU time its vCPU consumed in the ticks before those
 *                 samples); default_sample_type "samples", or "cpu" with
 *                 --weight=cpu
 *   period_type   cpu/nanoseconds, period 1e9 / frequency
 *   sample        location ids leaf first, "vcpu" and "state" labels
 *                 ("running", "runnable", "blocked", "offline", "unknown")
 *   location      one per distinct frame address, with its function; with
 *                 the ELF's DWARF, a Line per function at the address,
 *                 innermost (inlined deepest) first as pprof orders them,
 *                 each with its source line
 *   function      one per function name: the demangled name, and as its
 *                 system_name the symbol as the ELF spells it; its filename
 *                 is its source file when DWARF says, else the guest ELF
 *   mapping       the guest ELF with its build-id, when one was given
 *
 * A walk that did not complete gets "[incomplete]" as its outermost frame,
 * as in the other formats; split by state, "[running]" (...) is outermost.
 * Samples the state view (--state) leaves out are not written.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "function_ids.h"

#ifdef HAVE_ZLIB

/* profile.proto field numbers. */
enum {
    PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3,
    PROFILE_LOCATION = 4, PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6,
    PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11,
    PROFILE_PERIOD = 12, PROFILE_COMMENT = 13, PROFILE_DEFAULT_SAMPLE_TYPE = 14,
    VALUETYPE_TYPE = 1, VALUETYPE_UNIT = 2,
    SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
    LABEL_KEY = 1, LABEL_STR = 2,
    MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3,
    MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7,
    LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4,
    LINE_FUNCTION_ID = 1, LINE_LINE = 2,
    FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
};

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

struct pb {
    uint8_t *p;
    size_t len, cap;
    bool oom;                   /* sticky: checked once at the end */
};

static void pb_reserve(struct pb *b, size_t n)
{
    size_t cap;
    uint8_t *p;

    if (b->oom || n <= b->cap - b->len)
        return;
    cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) {
            b->oom = true;
            return;
        }
        cap *= 2;
    }
    p = realloc(b->p, cap);
    if (!p) {
        b->oom = true;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static void pb_varint(struct pb *b, uint64_t v)
{
    pb_reserve(b, 10);
    if (b->oom)
        return;
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

static void pb_uint(struct pb *b, unsigned int field, uint64_t v)
{
    if (v == 0)
        return;                 /* proto3: zero is the default, not written */
    pb_varint(b, (uint64_t)field << 3 | WIRE_VARINT);
    pb_varint(b, v);
}

static void pb_bytes(struct pb *b, unsigned int field, const void *data, size_t len)
{
    pb_varint(b, (uint64_t)field << 3 | WIRE_LEN);
    pb_varint(b, len);
    pb_reserve(b, len);
    if (b->oom)
        return;
    if (len)
        memcpy(b->p + b->len, data, len);
    b->len += len;
}

/* A nested message built in sub, then appended; sub is emptied for reuse. */
static void pb_message(struct pb *b, unsigned int field, struct pb *sub)
{
    if (sub->oom)
        b->oom = true;
    pb_bytes(b, field, sub->p, sub->len);
    sub->len = 0;
}

struct pprof {
    const struct xu_output_ctx *ctx;
    struct xu_funcs fn;
    struct xu_strtab strings;
    struct xu_u64map locs;      /* lookup key -> location index */
    struct pb out, sub, sub2, ids;
    uint64_t *loc_ids;          /* scratch: one sample's location ids */
    size_t loc_ids_cap;
    size_t nr_locs;
    bool mapped;                /* a mapping for the guest ELF is written */
    uint64_t map_lo, map_hi;
    uint32_t *func_written;     /* bitmap: functions already in out */
    long incomplete_loc;        /* location id of "[incomplete]", 0: none yet */
    long state_loc[XU_VSTATE__COUNT];   /* of "[running]" ..., 0: none yet */
    int rc;
};

static uint64_t str_id(struct pprof *pp, const char *s)
{
    long id = xu_strtab_intern(&pp->strings, s, strlen(s));

    if (id < 0) {
        pp->rc = -ENOMEM;
        return 0;
    }
    return (uint64_t)id;
}

static void value_type(struct pprof *pp, unsigned int field, const char *type, const char *unit)
{
    pb_uint(&pp->sub, VALUETYPE_TYPE, str_id(pp, type));
    pb_uint(&pp->sub, VALUETYPE_UNIT, str_id(pp, unit));
    pb_message(&pp->out, field, &pp->sub);
}

/* Functions and locations go into their own buffers, so the message can be
 * assembled in one pass over the stacks. */
struct parts {
    struct pb funcs, locs;
};

static uint64_t function_id(struct pprof *pp, struct parts *pt, uint32_t fid)
{
    const char *elf = pp->ctx->meta ? pp->ctx->meta->elf_path : NULL;

    if (!(pp->func_written[fid / 32] & (1u << (fid % 32)))) {
        const char *name = xu_funcs_name(&pp->fn, fid), *shown;
        const char *system_name = name;
        const struct xu_symbol *sym = NULL;

        /* the symbol as the ELF spells it (mangled), beside the readable
         * name: when the function is the one the symbol names, not one
         * inlined at its address */
        if (pp->ctx->syms && !pp->ctx->names && pp->fn.has_addr[fid] &&
            (shown = xu_symbolizer_name(pp->ctx->syms, pp->fn.addr[fid], &sym)) && sym &&
            strcmp(shown, name) == 0)
            system_name = sym->name;
        if (pp->fn.src[fid].file)
            elf = pp->fn.src[fid].file;
        pp->func_written[fid / 32] |= 1u << (fid % 32);
        pb_uint(&pp->sub, FUNCTION_ID, (uint64_t)fid + 1);
        pb_uint(&pp->sub, FUNCTION_NAME, str_id(pp, name));
        pb_uint(&pp->sub, FUNCTION_SYSTEM_NAME, str_id(pp, system_name));
        if (elf)
            pb_uint(&pp->sub, FUNCTION_FILENAME, str_id(pp, elf));
        pb_message(&pt->funcs, PROFILE_FUNCTION, &pp->sub);
    }
    return (uint64_t)fid + 1;
}

static int ensure_func_bitmap(struct pprof *pp, size_t *cap)
{
    size_t n = (xu_funcs_count(&pp->fn) + 31) / 32;
    uint32_t *m;

    if (n <= *cap)
        return 0;
    m = realloc(pp->func_written, n * 2 * sizeof(*m));
    if (!m)
        return -ENOMEM;
    memset(m + *cap, 0, (n * 2 - *cap) * sizeof(*m));
    pp->func_written = m;
    *cap = n * 2;
    return 0;
}

static void location_start(struct pprof *pp, uint64_t id, uint64_t address, bool mapped)
{
    pb_uint(&pp->sub, LOCATION_ID, id);
    if (mapped)
        pb_uint(&pp->sub, LOCATION_MAPPING_ID, 1);
    pb_uint(&pp->sub, LOCATION_ADDRESS, address);
}

static void location_line(struct pprof *pp, uint64_t func, uint32_t line)
{
    pb_uint(&pp->sub2, LINE_FUNCTION_ID, func);
    pb_uint(&pp->sub2, LINE_LINE, line);
    pb_message(&pp->sub, LOCATION_LINE, &pp->sub2);
}

static void location_end(struct pprof *pp, struct parts *pt)
{
    pb_message(&pt->locs, PROFILE_LOCATION, &pp->sub);
}

/* A location of one function without a line ("[incomplete]", a state). */
static void location(struct pprof *pp, struct parts *pt, uint64_t id, uint64_t address,
                     bool mapped, uint64_t func)
{
    location_start(pp, id, address, mapped);
    location_line(pp, func, 0);
    location_end(pp, pt);
}

/*
 * The location of frame i of s: a Line per function at the address,
 * innermost first (pprof's order: the last Line is the function the
 * location's caller called).  0 or -ENOMEM.
 */
static int frame_location(struct pprof *pp, struct parts *pt, const struct xu_stack *s,
                          uint32_t i, uint32_t lid, size_t *bitmap_cap)
{
    const struct xu_output_ctx *ctx = pp->ctx;
    const struct xu_frame_line *l;
    struct xu_frame_line one;
    const uint32_t *fids;
    char buf[19];
    long n = xu_funcs_frames(&pp->fn, s, i, &fids);
    unsigned int nl, j;

    if (n < 0 || ensure_func_bitmap(pp, bitmap_cap) < 0)
        return -ENOMEM;
    nl = xu_output_frame_lines(ctx, s, i, &one, buf, &l);
    /* functions first: function_id() builds its message where the
     * location is about to be */
    for (j = 0; j < (unsigned int)n; j++)
        function_id(pp, pt, fids[j]);
    location_start(pp, lid, ctx->names ? 0 : s->pcs[i], pp->mapped && !ctx->names);
    for (j = (unsigned int)n; j-- > 0;)
        location_line(pp, (uint64_t)fids[j] + 1, j < nl ? l[j].line : 0);
    location_end(pp, pt);
    return 0;
}

static int stacks(struct pprof *pp, struct parts *pt)
{
    const struct xu_output_ctx *ctx = pp->ctx;
    size_t nr = xu_profile_nr_stacks(ctx->profile), k, bitmap_cap = 0;
    uint64_t vcpu_key = str_id(pp, "vcpu"), vcpu_str = 0, state_key = str_id(pp, "state");
    uint32_t i, lid, last_vcpu = UINT32_MAX;
    long fid;

    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);
        uint32_t n = 0;
        char vcpu[12];

        const char *state_root = xu_output_state_frame(ctx, s);
        enum xu_vstate st = (unsigned)s->state < XU_VSTATE__COUNT ? s->state : XU_VSTATE_UNKNOWN;

        if (s->count == 0 || !xu_output_in_view(ctx, s))
            continue;
        if ((size_t)s->depth + 2 > pp->loc_ids_cap) {
            uint64_t *ids = realloc(pp->loc_ids, ((size_t)s->depth + 2) * sizeof(*ids));

            if (!ids)
                return -ENOMEM;
            pp->loc_ids = ids;
            pp->loc_ids_cap = (size_t)s->depth + 2;
        }
        for (i = 0; i < s->depth; i++) {
            uint64_t key = ctx->names ? s->pcs[i] : xu_stack_lookup_addr(s, i);

            if (!xu_u64map_get(&pp->locs, key, &lid)) {
                if (xu_u64map_put(&pp->locs, key, (uint32_t)++pp->nr_locs) < 0)
                    return -ENOMEM;
                lid = (uint32_t)pp->nr_locs;
                if (!ctx->names) {
                    if (pp->map_hi == 0 || s->pcs[i] < pp->map_lo)
                        pp->map_lo = s->pcs[i];
                    if (s->pcs[i] >= pp->map_hi)
                        pp->map_hi = s->pcs[i] + 1;
                }
                if (frame_location(pp, pt, s, i, lid, &bitmap_cap) < 0)
                    return -ENOMEM;
            }
            pp->loc_ids[n++] = lid;
        }
        if (xu_stack_incomplete(s)) {
            if (!pp->incomplete_loc) {
                fid = xu_funcs_named(&pp->fn, XU_INCOMPLETE_FRAME);
                if (fid < 0 || ensure_func_bitmap(pp, &bitmap_cap) < 0)
                    return -ENOMEM;
                pp->incomplete_loc = (long)++pp->nr_locs;
                location(pp, pt, (uint64_t)pp->incomplete_loc, 0, false,
                         function_id(pp, pt, (uint32_t)fid));
            }
            pp->loc_ids[n++] = (uint64_t)pp->incomplete_loc;
        }
        if (state_root) {
            if (!pp->state_loc[st]) {
                fid = xu_funcs_named(&pp->fn, state_root);
                if (fid < 0 || ensure_func_bitmap(pp, &bitmap_cap) < 0)
                    return -ENOMEM;
                pp->state_loc[st] = (long)++pp->nr_locs;
                location(pp, pt, (uint64_t)pp->state_loc[st], 0, false,
                         function_id(pp, pt, (uint32_t)fid));
            }
            pp->loc_ids[n++] = (uint64_t)pp->state_loc[st];
        }
        for (i = 0; i < n; i++)
            pb_varint(&pp->ids, pp->loc_ids[i]);
        pb_message(&pp->sub, SAMPLE_LOCATION_ID, &pp->ids);
        pb_varint(&pp->ids, s->count);
        pb_varint(&pp->ids, s->cpu_ns);
        pb_message(&pp->sub, SAMPLE_VALUE, &pp->ids);
        /* A string label: pprof drops a numeric label whose value is 0. */
        if (s->vcpu != last_vcpu) {
            snprintf(vcpu, sizeof(vcpu), "%" PRIu32, s->vcpu);
            vcpu_str = str_id(pp, vcpu);
            last_vcpu = s->vcpu;
        }
        pb_uint(&pp->sub2, LABEL_KEY, vcpu_key);
        pb_uint(&pp->sub2, LABEL_STR, vcpu_str);
        pb_message(&pp->sub, SAMPLE_LABEL, &pp->sub2);
        pb_uint(&pp->sub2, LABEL_KEY, state_key);
        pb_uint(&pp->sub2, LABEL_STR, str_id(pp, xu_vstate_name(st)));
        pb_message(&pp->sub, SAMPLE_LABEL, &pp->sub2);
        pb_message(&pp->out, PROFILE_SAMPLE, &pp->sub);
        if (pp->rc < 0)
            return pp->rc;
    }
    return 0;
}

static void mapping(struct pprof *pp)
{
    const struct xu_output_ctx *ctx = pp->ctx;
    const char *elf = ctx->meta && ctx->meta->elf_path ? ctx->meta->elf_path : "guest";
    const uint8_t *id = NULL;
    size_t len = 0, i;
    char hex[2 * 64 + 1];

    if (ctx->symtab)
        id = xu_symtab_build_id(ctx->symtab, &len);
    if (len > 64)
        len = 64;
    for (i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    hex[2 * len] = '\0';
    pb_uint(&pp->sub, MAPPING_ID, 1);
    pb_uint(&pp->sub, MAPPING_MEMORY_START, pp->map_lo);
    pb_uint(&pp->sub, MAPPING_MEMORY_LIMIT, pp->map_hi);
    pb_uint(&pp->sub, MAPPING_FILENAME, str_id(pp, elf));
    if (len)
        pb_uint(&pp->sub, MAPPING_BUILD_ID, str_id(pp, hex));
    pb_uint(&pp->sub, MAPPING_HAS_FUNCTIONS, 1);
    pb_message(&pp->out, PROFILE_MAPPING, &pp->sub);
}

static int gzip_out(FILE *f, const struct pb *msg)
{
    unsigned char chunk[64 * 1024];
    z_stream z;
    int zrc, rc = 0;

    memset(&z, 0, sizeof(z));
    /* windowBits 15 + 16: a gzip header and trailer, as pprof expects. */
    /* Level 1: most of the size for a fraction of the time of the default. */
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return -ENOMEM;
    z.next_in = msg->p;
    z.avail_in = (uInt)msg->len;
    if ((size_t)z.avail_in != msg->len) {
        rc = -EFBIG;
        goto out;
    }
    do {
        z.next_out = chunk;
        z.avail_out = sizeof(chunk);
        zrc = deflate(&z, Z_FINISH);
        if (zrc == Z_STREAM_ERROR) {
            rc = -EIO;
            goto out;
        }
        if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, f) != sizeof(chunk) - z.avail_out) {
            rc = -EIO;
            goto out;
        }
    } while (zrc != Z_STREAM_END);
out:
    deflateEnd(&z);
    return rc;
}

static int pprof_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct pprof pp = { .ctx = ctx };
    struct parts pt;
    const struct xu_output_meta *m = ctx->meta;
    int rc = 0;

    memset(&pt, 0, sizeof(pt));
    xu_funcs_init(&pp.fn, ctx);
    /* a function is a name: inlining is what a location's Lines say */
    pp.fn.mark_inline = false;
    pp.fn.split_lines = false;
    if (xu_strtab_intern(&pp.strings, "", 0) != 0) {
        rc = -ENOMEM;
        goto out;
    }
    pp.mapped = !ctx->names && (ctx->symtab || (m && m->elf_path));
    value_type(&pp, PROFILE_SAMPLE_TYPE, "samples", "count");
    value_type(&pp, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds");
    rc = stacks(&pp, &pt);
    if (rc < 0)
        goto out;
    if (pp.mapped)
        mapping(&pp);
    if (pt.locs.oom || pt.funcs.oom)
        pp.out.oom = true;
    pb_reserve(&pp.out, pt.locs.len + pt.funcs.len);
    /* a view that keeps no sample leaves both parts empty (and NULL) */
    if (!pp.out.oom && pt.locs.len) {
        memcpy(pp.out.p + pp.out.len, pt.locs.p, pt.locs.len);
        pp.out.len += pt.locs.len;
    }
    if (!pp.out.oom && pt.funcs.len) {
        memcpy(pp.out.p + pp.out.len, pt.funcs.p, pt.funcs.len);
        pp.out.len += pt.funcs.len;
    }
    if (m) {
        if (m->start_time > 0)
            pb_uint(&pp.out, PROFILE_TIME_NANOS, (uint64_t)m->start_time * 1000000000ULL);
        if (m->duration_s > 0)
            pb_uint(&pp.out, PROFILE_DURATION_NANOS, (uint64_t)(m->duration_s * 1e9));
        if (m->frequency_hz > 0) {
            value_type(&pp, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
            pb_uint(&pp.out, PROFILE_PERIOD, (uint64_t)(1e9 / m->frequency_hz));
        }
    }
    if (m && m->backend) {
        char comment[96];

        snprintf(comment, sizeof(comment), "xen-uniprof: domain %" PRIu32 " via %s",
                 m->domid, m->backend);
        pb_uint(&pp.out, PROFILE_COMMENT, str_id(&pp, comment));
    }
    /* said in both cases: without it pprof shows the last type (cpu) */
    pb_uint(&pp.out, PROFILE_DEFAULT_SAMPLE_TYPE,
            str_id(&pp, ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU ? "cpu" : "samples"));
    /* The string table last: every string above is interned by now. */
    {
        size_t i;

        for (i = 0; i < pp.strings.n; i++) {
            const char *s = xu_strtab_get(&pp.strings, (uint32_t)i);

            pb_bytes(&pp.out, PROFILE_STRING_TABLE, s, strlen(s));
        }
    }
    if (pp.rc < 0) {
        rc = pp.rc;
        goto out;
    }
    if (pp.out.oom || pp.sub.oom || pp.sub2.oom || pp.ids.oom) {
        rc = -ENOMEM;
        goto out;
    }
    rc = gzip_out(f, &pp.out);
out:
    if (rc < 0)
        xu_error(ctx->log, "pprof: %s", strerror(-rc));
    free(pp.loc_ids);
    free(pp.func_written);
    free(pp.out.p);
    free(pp.sub.p);
    free(pp.sub2.p);
    free(pp.ids.p);
    free(pt.funcs.p);
    free(pt.locs.p);
    xu_u64map_dispose(&pp.locs);
    xu_strtab_dispose(&pp.strings);
    xu_funcs_dispose(&pp.fn);
    return rc;
}

#else /* !HAVE_ZLIB */

static int pprof_write(FILE *f, const struct xu_output_ctx *ctx)
{
    xu_error(ctx->log, "the pprof format needs zlib, and this xen-uniprof was built "
             "without it: install zlib (Debian: zlib1g-dev) and rebuild");
    return -ENOTSUP;
}

#endif

const struct xu_output_ops xu_output_pprof = {
    .name = "pprof",
    .extensions = ".pb.gz .pprof",
#ifdef HAVE_ZLIB
    .description = "gzipped profile.proto for `go tool pprof` and other pprof readers",
#else
    .description = "gzipped profile.proto (unavailable: built without zlib)",
#endif
    .write = pprof_write,
};
