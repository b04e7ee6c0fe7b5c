/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pb_reader.h - the pprof tests' protobuf reader: just enough of the wire
 * format to take apart what the pprof writer produced (varints and
 * length-delimited fields; any other wire type fails the test), and the
 * gzip around it.  Include after <cmocka.h> and <zlib.h>.
 */
#ifndef PB_READER_H
#define PB_READER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pb_msg {
    const uint8_t *p, *end;
};

static inline uint64_t pb_varint(struct pb_msg *m)
{
    uint64_t v = 0;
    unsigned int shift = 0;

    for (;;) {
        uint8_t c;

        assert_true(m->p < m->end && shift < 64);
        c = *m->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        shift += 7;
        if (!(c & 0x80))
            return v;
    }
}

/* The next field's number, with either *v (a varint) or *sub (a
 * length-delimited field's bytes; empty for a varint). */
static inline unsigned int pb_next_field(struct pb_msg *m, uint64_t *v, struct pb_msg *sub)
{
    uint64_t key = pb_varint(m), len;

    switch (key & 7) {
    case 0:
        *v = pb_varint(m);
        sub->p = sub->end = NULL;
        break;
    case 2:
        len = pb_varint(m);
        assert_true(len <= (uint64_t)(m->end - m->p));
        sub->p = m->p;
        sub->end = m->p + len;
        m->p += len;
        break;
    default:
        fail_msg("wire type %u", (unsigned int)(key & 7));
    }
    return (unsigned int)(key >> 3);
}

/* The gzip member gz inflated, malloc'ed (at most 1 MiB: the tests'
 * profiles are small), its length in *outlen. */
static inline uint8_t *pb_gunzip(const char *gz, size_t gzlen, size_t *outlen)
{
    size_t cap = 1 << 20;
    uint8_t *out = malloc(cap);
    z_stream z;

    assert_non_null(out);
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = (Bytef *)gz;
    z.avail_in = (uInt)gzlen;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    *outlen = z.total_out;
    inflateEnd(&z);
    return out;
}

#endif
