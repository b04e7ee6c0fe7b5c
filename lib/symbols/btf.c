/* SPDX-License-Identifier: GPL-2.0-only */
/* btf.c - a kernel's BPF Type Format read and queried (see xu_btf.h). */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_btf.h"
#include "symbols/xu_elf_section.h"
#include "util/xu_log.h"
#include "util/xu_le.h"

#define BTF_MAGIC 0xeb9f
#define HEADER_MIN 24
#define TYPE_BYTES 12           /* name_off, info, size/type */
/* Members looked at in one xu_btf_member(): anonymous members that hold
 * themselves would otherwise multiply the search at every level. */
#define MAX_MEMBER_VISITS (1u << 20)

struct xu_btf {
    const uint8_t *types;       /* the type section */
    size_t types_len;
    const char *strs;           /* the string section */
    size_t strs_len;
    uint32_t *at;               /* at[id]: offset of type id's record; at[0] unused */
    size_t n;                   /* types: ids 1..n */
};

static unsigned int kind_of(uint32_t info)
{
    return (info >> 24) & 0x1f;
}

static unsigned int vlen_of(uint32_t info)
{
    return info & 0xffff;
}

/* Bytes a record of this kind adds after its 12; -1 for an unknown kind. */
static long extra_bytes(unsigned int kind, unsigned int vlen)
{
    switch (kind) {
    case XU_BTF_INT:
    case XU_BTF_VAR:
    case XU_BTF_DECL_TAG:
        return 4;
    case XU_BTF_PTR:
    case XU_BTF_FWD:
    case XU_BTF_TYPEDEF:
    case XU_BTF_VOLATILE:
    case XU_BTF_CONST:
    case XU_BTF_RESTRICT:
    case XU_BTF_FUNC:
    case XU_BTF_FLOAT:
    case XU_BTF_TYPE_TAG:
        return 0;
    case XU_BTF_ARRAY:
        return 12;
    case XU_BTF_STRUCT:
    case XU_BTF_UNION:
    case XU_BTF_DATASEC:
    case XU_BTF_ENUM64:
        return 12L * vlen;
    case XU_BTF_ENUM:
    case XU_BTF_FUNC_PROTO:
        return 8L * vlen;
    default:
        return -1;
    }
}

/* The name at off in the string section, NULL when it does not lie there
 * whole. */
static const char *name_at(const struct xu_btf *b, uint32_t off)
{
    if (off >= b->strs_len || !memchr(b->strs + off, '\0', b->strs_len - off))
        return NULL;
    return b->strs + off;
}

/* Walk the records once: their offsets, each within the section. */
static int index_types(struct xu_btf *b, char *err, size_t err_size)
{
    size_t off = 0, cap = 1024;

    b->at = malloc(cap * sizeof(*b->at));
    if (!b->at)
        return -ENOMEM;
    while (off < b->types_len) {
        uint32_t info;
        long extra;

        if (b->types_len - off < TYPE_BYTES) {
            xu_errbuf_printf(err, err_size, "BTF type %zu is cut short", b->n + 1);
            return -EBADMSG;
        }
        info = xu_le32(b->types + off + 4);
        extra = extra_bytes(kind_of(info), vlen_of(info));
        if (extra < 0 || (size_t)extra > b->types_len - off - TYPE_BYTES) {
            xu_errbuf_printf(err, err_size, "BTF type %zu (kind %u) is unknown or cut short",
                             b->n + 1, kind_of(info));
            return -EBADMSG;
        }
        if (b->n + 1 >= XU_BTF_MAX_TYPES) {
            xu_errbuf_printf(err, err_size, "more than %u BTF types", XU_BTF_MAX_TYPES);
            return -E2BIG;
        }
        if (b->n + 1 >= cap) {
            uint32_t *more = realloc(b->at, 2 * cap * sizeof(*b->at));

            if (!more)
                return -ENOMEM;
            b->at = more;
            cap *= 2;
        }
        b->at[++b->n] = (uint32_t)off;
        off += TYPE_BYTES + (size_t)extra;
    }
    return 0;
}

int xu_btf_read(const uint8_t *p, size_t len, struct xu_btf **out, char *err, size_t err_size)
{
    struct xu_btf *b = NULL;
    uint32_t hdr_len, type_off, type_len, str_off, str_len;
    int rc;

    *out = NULL;
    if (len < HEADER_MIN || (p[0] | p[1] << 8) != BTF_MAGIC || p[2] != 1) {
        xu_errbuf_printf(err, err_size, "not BTF data (magic 0xeb9f, version 1)");
        return -EBADMSG;
    }
    hdr_len = xu_le32(p + 4);
    type_off = xu_le32(p + 8);
    type_len = xu_le32(p + 12);
    str_off = xu_le32(p + 16);
    str_len = xu_le32(p + 20);
    if (hdr_len < HEADER_MIN || hdr_len > len ||
        type_off > len - hdr_len || type_len > len - hdr_len - type_off ||
        str_off > len - hdr_len || str_len > len - hdr_len - str_off || str_len == 0 ||
        p[hdr_len + str_off + str_len - 1] != '\0') {
        xu_errbuf_printf(err, err_size, "the BTF header's sections do not lie in its %zu bytes",
                         len);
        return -EBADMSG;
    }
    b = calloc(1, sizeof(*b));
    if (!b)
        return -ENOMEM;
    b->types = p + hdr_len + type_off;
    b->types_len = type_len;
    b->strs = (const char *)p + hdr_len + str_off;
    b->strs_len = str_len;
    rc = index_types(b, err, err_size);
    if (rc < 0) {
        xu_btf_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int xu_btf_from_elf(const uint8_t *image, size_t size, struct xu_btf **out, char *err,
                    size_t err_size)
{
    Elf *elf;
    GElf_Shdr sh;
    size_t shstrndx;
    int rc = -ENODATA;

    *out = NULL;
    elf_version(EV_CURRENT);
    /* libelf only reads an image opened this way: the cast is safe */
    elf = elf_memory((char *)image, size);
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) < 0) {
        xu_errbuf_printf(err, err_size, "not an ELF file");
        rc = -ENOEXEC;
        goto out;
    }
    if (xu_elf_progbits_named(elf, ".BTF", &sh)) {
        if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
            xu_errbuf_printf(err, err_size, ".BTF lies past the end of the file");
            rc = -EBADMSG;
            goto out;
        }
        rc = xu_btf_read(image + sh.sh_offset, (size_t)sh.sh_size, out, err, err_size);
        goto out;
    }
    xu_errbuf_printf(err, err_size, "no .BTF section");
out:
    if (elf)
        elf_end(elf);
    return rc;
}

void xu_btf_free(struct xu_btf *b)
{
    if (!b)
        return;
    free(b->at);
    free(b);
}

size_t xu_btf_nr_types(const struct xu_btf *b)
{
    return b->n;
}

/* The record of type id, NULL for id 0 (void) or past the end. */
static const uint8_t *record(const struct xu_btf *b, uint32_t id)
{
    return id >= 1 && id <= b->n ? b->types + b->at[id] : NULL;
}

uint32_t xu_btf_find(const struct xu_btf *b, enum xu_btf_kind kind, const char *name)
{
    size_t id;

    for (id = 1; id <= b->n; id++) {
        const uint8_t *r = b->types + b->at[id];
        const char *n;

        if (kind_of(xu_le32(r + 4)) != kind)
            continue;
        n = name_at(b, xu_le32(r));
        if (n && strcmp(n, name) == 0)
            return (uint32_t)id;
    }
    return 0;
}

/* The size in bytes of type id, through typedefs, qualifiers and arrays;
 * false when it has none or the chain is too long. */
static bool size_of(const struct xu_btf *b, uint32_t id, uint64_t *size)
{
    uint64_t mult = 1;
    int hops;

    for (hops = 0; hops < XU_BTF_MAX_HOPS; hops++) {
        const uint8_t *r = record(b, id);

        if (!r)
            return false;
        switch (kind_of(xu_le32(r + 4))) {
        case XU_BTF_INT:
        case XU_BTF_STRUCT:
        case XU_BTF_UNION:
        case XU_BTF_ENUM:
        case XU_BTF_ENUM64:
        case XU_BTF_FLOAT:
        case XU_BTF_DATASEC:
            *size = mult * xu_le32(r + 8);
            return *size <= UINT32_MAX;
        case XU_BTF_PTR:
            *size = mult * 8;
            return *size <= UINT32_MAX;
        case XU_BTF_ARRAY:
            mult *= xu_le32(r + 12 + 8);
            if (mult > UINT32_MAX)
                return false;
            id = xu_le32(r + 12);
            break;
        case XU_BTF_TYPEDEF:
        case XU_BTF_VOLATILE:
        case XU_BTF_CONST:
        case XU_BTF_RESTRICT:
        case XU_BTF_TYPE_TAG:
            id = xu_le32(r + 8);
            break;
        default:
            return false;
        }
    }
    return false;
}

/* Through typedefs and qualifiers to what they name. */
static uint32_t strip(const struct xu_btf *b, uint32_t id)
{
    int hops;

    for (hops = 0; hops < XU_BTF_MAX_HOPS; hops++) {
        const uint8_t *r = record(b, id);
        unsigned int k;

        if (!r)
            return 0;
        k = kind_of(xu_le32(r + 4));
        if (k != XU_BTF_TYPEDEF && k != XU_BTF_VOLATILE && k != XU_BTF_CONST &&
            k != XU_BTF_RESTRICT && k != XU_BTF_TYPE_TAG)
            return id;
        id = xu_le32(r + 8);
    }
    return 0;
}

static int member_in(const struct xu_btf *b, uint32_t id, const char *name, uint64_t base,
                     int depth, unsigned long *visits, struct xu_btf_member *out)
{
    const uint8_t *r = record(b, id);
    uint32_t info;
    unsigned int i, k;

    if (!r || depth > XU_BTF_MAX_HOPS)
        return -ENOENT;
    info = xu_le32(r + 4);
    k = kind_of(info);
    if (k != XU_BTF_STRUCT && k != XU_BTF_UNION)
        return -ENOENT;
    for (i = 0; i < vlen_of(info); i++) {
        const uint8_t *m = r + TYPE_BYTES + 12 * i;
        const char *n = name_at(b, xu_le32(m));
        uint32_t type = xu_le32(m + 4), off = xu_le32(m + 8);
        uint64_t bits = (info & 0x80000000u) ? (off & 0xffffff) : off;
        uint64_t size;
        int rc;

        if (++*visits > MAX_MEMBER_VISITS)
            return -EBADMSG;
        if (n && *n == '\0') {
            /* an anonymous struct or union: its members are the outer one's */
            rc = member_in(b, strip(b, type), name, base + bits / 8, depth + 1, visits, out);
            if (rc != -ENOENT)
                return rc;
            continue;
        }
        if (!n || strcmp(n, name) != 0)
            continue;
        if ((bits & 7) || ((info & 0x80000000u) && (off >> 24)) || !size_of(b, type, &size) ||
            base + bits / 8 > UINT32_MAX)
            return -EBADMSG;
        out->offset = (uint32_t)(base + bits / 8);
        out->size = (uint32_t)size;
        out->type = type;
        return 0;
    }
    return -ENOENT;
}

int xu_btf_member(const struct xu_btf *b, uint32_t id, const char *name,
                  struct xu_btf_member *out)
{
    unsigned long visits = 0;

    return member_in(b, id, name, 0, 0, &visits, out);
}
