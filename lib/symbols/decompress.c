/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * decompress.c - one compressed stream in memory, bounded (see
 * xu_decompress.h).  Each format is a small loop around its library: feed
 * all the input, grow the output by doubling up to the cap, stop at the
 * end of the first stream.  A call that neither takes input nor gives
 * output ends the loop as a corrupt stream, so no hostile input spins.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZ4
#include <lz4.h>
#endif
#ifdef HAVE_BZIP2
#include <bzlib.h>
#endif

#include "symbols/xu_decompress.h"
#include "util/xu_le.h"

/* The largest dictionary or window a decoder may allocate: Linux's own
 * kernels use 64 MiB at most (xz -9, zstd -22 --long is not used). */
#define DICT_MAX (256u << 20)

struct outbuf {
    uint8_t *p;
    size_t len, cap, max;
};

static int out_grow(struct outbuf *o)
{
    size_t cap;
    uint8_t *p;

    if (o->cap >= o->max)
        return -EFBIG;
    cap = o->cap ? o->cap * 2 : 1u << 20;
    if (cap > o->max || cap < o->cap)
        cap = o->max;
    p = realloc(o->p, cap);
    if (!p)
        return -ENOMEM;
    o->p = p;
    o->cap = cap;
    return 0;
}

static int bad(char *err, size_t size, const char *what)
{
    if (err && size)
        snprintf(err, size, "%s", what);
    return -EBADMSG;
}

#ifdef HAVE_ZLIB
static int run_gzip(const uint8_t *in, size_t in_len, struct outbuf *o, char *err, size_t es)
{
    z_stream zs;
    int r, rc = 0;

    memset(&zs, 0, sizeof(zs));
    if (in_len > UINT32_MAX || o->max > UINT32_MAX)
        return bad(err, es, "too large for zlib");
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)  /* gzip framing only */
        return -ENOMEM;
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)in_len;
    for (;;) {
        uInt before_in = zs.avail_in, room;

        if (o->len == o->cap && (rc = out_grow(o)) < 0)
            break;
        room = (uInt)(o->cap - o->len);
        zs.next_out = o->p + o->len;
        zs.avail_out = room;
        r = inflate(&zs, Z_NO_FLUSH);
        o->len += room - zs.avail_out;
        if (r == Z_STREAM_END)
            break;
        if ((r != Z_OK && r != Z_BUF_ERROR) ||
            (zs.avail_in == before_in && zs.avail_out == room)) {
            rc = bad(err, es, zs.msg ? zs.msg : zs.avail_in ? "corrupt gzip data"
                     : "gzip data cut short");
            break;
        }
    }
    inflateEnd(&zs);
    return rc;
}
#endif

#ifdef HAVE_LZMA
static int run_lzma(bool xz, const uint8_t *in, size_t in_len, struct outbuf *o,
                    char *err, size_t es)
{
    lzma_stream ls = LZMA_STREAM_INIT;
    lzma_ret r;
    int rc = 0;

    r = xz ? lzma_stream_decoder(&ls, DICT_MAX, 0) : lzma_alone_decoder(&ls, DICT_MAX);
    if (r != LZMA_OK)
        return -ENOMEM;
    ls.next_in = in;
    ls.avail_in = in_len;
    for (;;) {
        size_t before_in = ls.avail_in, room;

        if (o->len == o->cap && (rc = out_grow(o)) < 0)
            break;
        room = o->cap - o->len;
        ls.next_out = o->p + o->len;
        ls.avail_out = room;
        r = lzma_code(&ls, LZMA_FINISH);
        o->len += room - ls.avail_out;
        if (r == LZMA_STREAM_END)
            break;
        if (r == LZMA_MEM_ERROR) {
            rc = -ENOMEM;
            break;
        }
        if ((r != LZMA_OK && r != LZMA_BUF_ERROR) ||
            (ls.avail_in == before_in && ls.avail_out == room)) {
            rc = bad(err, es, r == LZMA_MEMLIMIT_ERROR ? "its dictionary is too large"
                     : r == LZMA_DATA_ERROR || r == LZMA_FORMAT_ERROR ? "corrupt data"
                     : "data cut short");
            break;
        }
    }
    lzma_end(&ls);
    return rc;
}
#endif

#ifdef HAVE_ZSTD
static int run_zstd(const uint8_t *in, size_t in_len, struct outbuf *o, char *err, size_t es)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    ZSTD_inBuffer ib = { in, in_len, 0 };
    size_t r;
    int rc = 0;

    if (!dc)
        return -ENOMEM;
    ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 28);   /* DICT_MAX */
    for (;;) {
        size_t before_in = ib.pos;
        ZSTD_outBuffer ob;

        if (o->len == o->cap && (rc = out_grow(o)) < 0)
            break;
        ob.dst = o->p;
        ob.size = o->cap;
        ob.pos = o->len;
        r = ZSTD_decompressStream(dc, &ob, &ib);
        if (ZSTD_isError(r)) {
            rc = bad(err, es, ZSTD_getErrorName(r));
            break;
        }
        if (r == 0 && ob.pos > 0) {     /* a whole frame decoded and flushed */
            o->len = ob.pos;
            break;
        }
        if (ib.pos == before_in && ob.pos == o->len) {
            rc = bad(err, es, "data cut short");
            break;
        }
        o->len = ob.pos;
    }
    ZSTD_freeDCtx(dc);
    return rc;
}
#endif

#ifdef HAVE_LZ4
/* The legacy lz4 frame ("lz4 -l") Linux builds: the magic, then blocks of a
 * 32-bit little-endian compressed size and data, each at most 8 MiB once
 * decompressed; the 4 bytes of size the build appends end it. */
#define LZ4_LEGACY_MAGIC 0x184c2102u
#define LZ4_LEGACY_BLOCK (8u << 20)

static int run_lz4(const uint8_t *in, size_t in_len, struct outbuf *o, char *err, size_t es)
{
    size_t pos = 4;
    int rc;

    if (in_len < 4 || xu_le32(in) != LZ4_LEGACY_MAGIC)
        return bad(err, es, "not a legacy lz4 stream");
    while (in_len - pos > 4) {
        uint32_t csize = xu_le32(in + pos);
        int n;

        pos += 4;
        if (csize == LZ4_LEGACY_MAGIC)      /* concatenated streams */
            continue;
        if (csize == 0 || csize > in_len - pos || csize > (uint32_t)LZ4_compressBound(LZ4_LEGACY_BLOCK))
            return bad(err, es, "a block runs past the end of the data");
        while (o->cap - o->len < LZ4_LEGACY_BLOCK && o->cap < o->max)
            if ((rc = out_grow(o)) < 0)
                return rc;
        n = LZ4_decompress_safe((const char *)in + pos, (char *)o->p + o->len, (int)csize,
                                (int)(o->cap - o->len < LZ4_LEGACY_BLOCK ? o->cap - o->len
                                      : LZ4_LEGACY_BLOCK));
        if (n < 0)
            return o->cap - o->len < LZ4_LEGACY_BLOCK ? -EFBIG : bad(err, es, "corrupt data");
        o->len += (size_t)n;
        pos += csize;
    }
    return 0;
}
#endif

#ifdef HAVE_BZIP2
static int run_bzip2(const uint8_t *in, size_t in_len, struct outbuf *o, char *err, size_t es)
{
    bz_stream bs;
    int r, rc = 0;

    memset(&bs, 0, sizeof(bs));
    if (in_len > UINT32_MAX || o->max > UINT32_MAX)
        return bad(err, es, "too large for libbz2");
    if (BZ2_bzDecompressInit(&bs, 0, 0) != BZ_OK)
        return -ENOMEM;
    bs.next_in = (char *)in;
    bs.avail_in = (unsigned int)in_len;
    for (;;) {
        unsigned int before_in = bs.avail_in, room;

        if (o->len == o->cap && (rc = out_grow(o)) < 0)
            break;
        room = (unsigned int)(o->cap - o->len);
        bs.next_out = (char *)o->p + o->len;
        bs.avail_out = room;
        r = BZ2_bzDecompress(&bs);
        o->len += room - bs.avail_out;
        if (r == BZ_STREAM_END)
            break;
        if (r != BZ_OK || (bs.avail_in == before_in && bs.avail_out == room)) {
            rc = bad(err, es, r == BZ_OK ? "data cut short" : "corrupt data");
            break;
        }
    }
    BZ2_bzDecompressEnd(&bs);
    return rc;
}
#endif

bool xu_decompress_supported(enum xu_compression c)
{
    switch (c) {
#ifdef HAVE_ZLIB
    case XU_COMP_GZIP: return true;
#endif
#ifdef HAVE_LZMA
    case XU_COMP_XZ:
    case XU_COMP_LZMA: return true;
#endif
#ifdef HAVE_ZSTD
    case XU_COMP_ZSTD: return true;
#endif
#ifdef HAVE_LZ4
    case XU_COMP_LZ4: return true;
#endif
#ifdef HAVE_BZIP2
    case XU_COMP_BZIP2: return true;
#endif
    default: return false;
    }
}

int xu_decompress(enum xu_compression c, const uint8_t *in, size_t in_len, size_t max_out,
                  uint8_t **out, size_t *out_len, char *err, size_t err_size)
{
    struct outbuf o = { .max = max_out };
    int rc = -ENOTSUP;

    *out = NULL;
    *out_len = 0;
    if (err && err_size)
        err[0] = '\0';
    switch (c) {
#ifdef HAVE_ZLIB
    case XU_COMP_GZIP: rc = run_gzip(in, in_len, &o, err, err_size); break;
#endif
#ifdef HAVE_LZMA
    case XU_COMP_XZ: rc = run_lzma(true, in, in_len, &o, err, err_size); break;
    case XU_COMP_LZMA: rc = run_lzma(false, in, in_len, &o, err, err_size); break;
#endif
#ifdef HAVE_ZSTD
    case XU_COMP_ZSTD: rc = run_zstd(in, in_len, &o, err, err_size); break;
#endif
#ifdef HAVE_LZ4
    case XU_COMP_LZ4: rc = run_lz4(in, in_len, &o, err, err_size); break;
#endif
#ifdef HAVE_BZIP2
    case XU_COMP_BZIP2: rc = run_bzip2(in, in_len, &o, err, err_size); break;
#endif
    default: break;
    }
    if (rc == 0 && o.len == 0)
        rc = bad(err, err_size, "empty stream");
    if (rc < 0) {
        free(o.p);
        return rc;
    }
    *out = o.p;
    *out_len = o.len;
    return 0;
}
