/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf_find.c - which file holds the guest's symbols (see xu_elf_find.h).
 *
 * Whether a file "has symbols" is xu_symtab_open()'s judgement; this file
 * only reads the two things that lead to companions: the GNU build-id note
 * and the .gnu_debuglink section.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/xu_bzimage.h"
#include "symbols/xu_compressed.h"
#include "symbols/xu_debuginfod.h"
#include "symbols/xu_elf_find.h"

#define BUILD_ID_MAX 64         /* bytes; GNU ld writes 20 (sha1) */
#define DEBUGLINK_MAX 256

struct elf_facts {
    uint8_t build_id[BUILD_ID_MAX];
    size_t build_id_len;
    char debuglink[DEBUGLINK_MAX];
    uint32_t debuglink_crc;
};

void xu_elf_choice_init(struct xu_elf_choice *c)
{
    memset(c, 0, sizeof(*c));
    c->mem_fd = -1;
}

void xu_elf_choice_dispose(struct xu_elf_choice *c)
{
    free(c->path);
    free(c->shown);
    xu_symtab_free(c->symtab);
    if (c->mem_fd >= 0)
        close(c->mem_fd);
    xu_elf_choice_init(c);
}

/*
 * While probing, a file without symbols is an expected outcome, not an
 * error for the user: the symbol reader's advice ("pass the unstripped ELF")
 * would be wrong one line before the search finds that ELF.  Its errors are
 * kept to say at DEBUG why a candidate was passed over; its other messages
 * go on at DEBUG.
 */
struct quiet {
    struct xu_log log;
    struct xu_log *parent;
    char error[256];            /* the reader's last error, "" if none */
};

static void quiet_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct quiet *q = ctx;

    if (level == XU_LOG_ERROR)
        snprintf(q->error, sizeof(q->error), "%s", msg);
    else
        xu_debug(q->parent, "symbol search: %s", msg);
}

static void quiet_init(struct quiet *q, struct xu_log *parent)
{
    q->log.emit = quiet_emit;
    q->log.ctx = q;
    q->log.min_level = XU_LOG_DEBUG;
    q->parent = parent;
    q->error[0] = '\0';
}

static void read_build_id(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_facts *f)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t off = 0, next, name_off, desc_off;
    GElf_Nhdr nh;
    unsigned int guard = 0;

    (void)elf;
    (void)sh;
    if (!data)
        return;
    /* gelf_getnote bounds each note by the data size; the guard bounds
     * the count on a note section made of empty notes. */
    while (guard++ < 1024 && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4
            && memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0
            && nh.n_descsz > 0 && nh.n_descsz <= BUILD_ID_MAX) {
            memcpy(f->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
            f->build_id_len = nh.n_descsz;
            return;
        }
        off = next;
    }
}

static void read_debuglink(Elf *elf, Elf_Scn *scn, struct elf_facts *f)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    const char *p;
    size_t len, crc_off;
    uint32_t crc;
    GElf_Ehdr eh;

    if (!data || !data->d_buf || !gelf_getehdr(elf, &eh))
        return;
    p = data->d_buf;
    len = strnlen(p, data->d_size);
    if (len == 0 || len >= sizeof(f->debuglink) || len == data->d_size)
        return;
    /* The name, NUL, padding to 4, then the CRC32 in the file's byte order. */
    crc_off = (len + 1 + 3) & ~(size_t)3;
    if (crc_off + 4 > data->d_size)
        return;
    memcpy(&crc, p + crc_off, 4);
    if ((eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
        crc = __builtin_bswap32(crc);
    /* A name that walks out of the search directories is not a file name. */
    if (strchr(p, '/'))
        return;
    memcpy(f->debuglink, p, len + 1);
    f->debuglink_crc = crc;
}

/* Build-id and debuglink of path; all zero when it is not a readable ELF. */
static void read_facts(const char *path, struct elf_facts *f)
{
    Elf *elf = NULL;
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    int fd;
    unsigned int n = 0;

    memset(f, 0, sizeof(*f));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
        goto out;
    while ((scn = elf_nextscn(elf, scn)) && n++ < 65536) {
        GElf_Shdr sh;
        const char *name;

        if (!gelf_getshdr(scn, &sh))
            continue;
        name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (sh.sh_type == SHT_NOTE && !f->build_id_len)
            read_build_id(elf, scn, &sh, f);
        else if (name && strcmp(name, ".gnu_debuglink") == 0 && sh.sh_type == SHT_PROGBITS)
            read_debuglink(elf, scn, f);
    }
out:
    if (elf)
        elf_end(elf);
    close(fd);
}

/* CRC-32 as .gnu_debuglink uses it (the zlib/IEEE polynomial, reflected). */
static int file_crc32(const char *path, uint32_t *out)
{
    uint32_t table[256], crc = 0xffffffffU;
    unsigned char buf[65536];
    ssize_t r;
    int fd, rc;
    unsigned int i, k;

    for (i = 0; i < 256; i++) {
        uint32_t c = i;
        for (k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    for (;;) {
        r = read(fd, buf, sizeof(buf));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = -errno;
            goto out;
        }
        if (r == 0)
            break;
        for (i = 0; i < (unsigned int)r; i++)
            crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
    }
    *out = crc ^ 0xffffffffU;
    rc = 0;
out:
    close(fd);
    return rc;
}

static bool is_regular(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

struct search {
    const struct xu_elf_find_config *cfg;
    struct xu_log *log;
    struct quiet quiet;
    const char *start;
    const char *shown;              /* the start file as the user knows it */
    unsigned int flags;             /* xu_symtab_open_flags() */
    struct elf_facts facts;         /* of the start file */
    char tried[1024];               /* for the final error */
    size_t tried_len;
};

static void note_tried(struct search *s, const char *what)
{
    int r = snprintf(s->tried + s->tried_len, sizeof(s->tried) - s->tried_len, "%s%s",
                     s->tried_len ? ", " : "", what);

    if (r > 0 && (size_t)r < sizeof(s->tried) - s->tried_len)
        s->tried_len += (size_t)r;
}

static void hex(const uint8_t *v, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        out[2 * i] = digits[v[i] >> 4];
        out[2 * i + 1] = digits[v[i] & 15];
    }
    out[2 * n] = '\0';
}

/*
 * Try one candidate.  1 and *out filled when it has symbols (and is not
 * from another build), 0 when not, negative errno on a hard failure.
 */
static int try_candidate(struct search *s, const char *path, enum xu_elf_source source,
                         const char *reason, bool check_build_id, struct xu_elf_choice *out)
{
    struct xu_symtab *st = NULL;
    const uint8_t *id;
    size_t id_len = 0;
    int rc;

    if (!is_regular(path)) {
        xu_debug(s->log, "symbol search: %s: not there", path);
        return 0;
    }
    s->quiet.error[0] = '\0';
    rc = xu_symtab_open_flags(path, s->cfg->any_machine ? EM_NONE
                              : s->cfg->machine ? s->cfg->machine : EM_X86_64,
                              s->flags, &s->quiet.log, &st);
    if (rc == -ENOMEM)
        return rc;
    if (rc == -ENODATA) {
        xu_debug(s->log, "symbol search: %s: no symbol table (stripped), looking further", path);
        return 0;
    }
    if (rc < 0) {
        xu_debug(s->log, "symbol search: %s: no symbols (%s)", path,
                 s->quiet.error[0] ? s->quiet.error : strerror(-rc));
        return 0;
    }
    id = xu_symtab_build_id(st, &id_len);
    if (check_build_id && s->facts.build_id_len && id_len
        && (id_len != s->facts.build_id_len || memcmp(id, s->facts.build_id, id_len) != 0)) {
        xu_warn(s->log, "ignoring %s: its build-id differs from %s's (another build)",
                path, s->start);
        xu_symtab_free(st);
        return 0;
    }
    out->path = strdup(path);
    if (!out->path) {
        xu_symtab_free(st);
        return -ENOMEM;
    }
    out->source = source;
    out->reason = reason;
    out->symtab = st;
    return 1;
}

static int try_debuglink(struct search *s, struct xu_elf_choice *out)
{
    const char *link = s->facts.debuglink;
    char dir[4096], cand[4096 + DEBUGLINK_MAX + 64];
    const char *root = s->cfg->debug_root ? s->cfg->debug_root : XU_DEBUG_ROOT;
    char *slash;
    size_t i;
    int rc;

    if (!link[0])
        return 0;
    /* The start file's directory, absolute when we can make it so: the
     * third place is that directory under the debug root. */
    if (!realpath(s->start, dir))
        snprintf(dir, sizeof(dir), "%s", s->start);
    slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    for (i = 0; i < 3; i++) {
        uint32_t crc = 0;

        if (i == 0)
            snprintf(cand, sizeof(cand), "%s/%s", dir, link);
        else if (i == 1)
            snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, link);
        else
            snprintf(cand, sizeof(cand), "%s%s%s/%s", root, dir[0] == '/' ? "" : "/", dir, link);
        if (!is_regular(cand) || same_file(cand, s->start)) {
            xu_debug(s->log, "symbol search: %s: not there", cand);
            continue;
        }
        rc = file_crc32(cand, &crc);
        if (rc < 0 || crc != s->facts.debuglink_crc) {
            xu_warn(s->log, "ignoring %s: its CRC does not match %s's .gnu_debuglink "
                    "(another build)", cand, s->start);
            continue;
        }
        /* The CRC already ties it to the start file. */
        rc = try_candidate(s, cand, XU_ELF_FROM_DEBUGLINK, ".gnu_debuglink debug file",
                           false, out);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/*
 * The debug file of the start file's build-id from a debuginfod server: 1
 * and *out filled, 0 when there is none (the reason is logged, and named in
 * the list of what was tried), -ENOMEM.
 */
static int try_debuginfod(struct search *s, struct xu_elf_choice *out)
{
    char *path = NULL;
    int rc;

    if (s->facts.build_id_len == 0) {
        xu_debug(s->log, "symbol search: %s has no build-id to ask debuginfod for", s->start);
        return 0;
    }
    rc = xu_debuginfod_find_debuginfo(s->facts.build_id, s->facts.build_id_len, s->log, &path);
    if (rc == -ENOMEM)
        return rc;
    if (rc == -ENODEV) {
        xu_debug(s->log, "symbol search: %s unset, no debuginfod server asked",
                 XU_DEBUGINFOD_URLS_ENV);
        return 0;
    }
    if (rc < 0) {
        char what[512];

        snprintf(what, sizeof(what), "debuginfod %s: %s", xu_debuginfod_servers(),
                 rc == -ENOSYS ? "not in this build, nothing asked"
                 : rc == -ELIBACC ? "libdebuginfod.so.1 is not installed, nothing asked"
                 : rc == -ENOENT ? "no such file" : strerror(-rc));
        note_tried(s, what);
        return 0;
    }
    /* The server answered for this build-id; a file of another one is no use. */
    rc = try_candidate(s, path, XU_ELF_FROM_DEBUGINFOD, "debug file from debuginfod", true, out);
    if (rc == 0)
        xu_warn(s->log, "debuginfod gave %s, which has no usable symbols for %s", path,
                s->start);
    free(path);
    return rc;
}

/*
 * A compressed start file.  gzip: its decompressed bytes, when they hold
 * symbols (1, *out filled).  Then, for every format, the uncompressed
 * sibling replaces it as the start file (0, sibling filled); -ENODATA when
 * there is none (the line is written), -ENOMEM.
 */
static int try_compressed(struct search *s, enum xu_compression comp, struct xu_elf_choice *out,
                          char *sibling, size_t size)
{
    char *mem = NULL;
    int fd = -1, rc;

    if (comp == XU_COMP_GZIP) {
        rc = xu_gunzip_to_memfd(s->start, s->log, &fd, &mem);
        if (rc == 0) {
            rc = try_candidate(s, mem, XU_ELF_FROM_KERNEL, "gzip kernel, read decompressed",
                               false, out);
            if (rc == 1) {
                out->mem_fd = fd;
                if (asprintf(&out->shown, "%s (decompressed)", s->start) < 0)
                    out->shown = NULL;
                free(mem);
                return 1;
            }
            close(fd);
            free(mem);
            if (rc < 0)
                return rc;
            xu_debug(s->log, "symbol search: %s decompressed has no symbols", s->start);
        } else if (rc == -ENOTSUP) {
            xu_warn(s->log, "%s is gzip-compressed and this build has no zlib to read it",
                    s->start);
        } else if (rc == -ENOMEM) {
            return rc;
        }
    }
    if (xu_compression_strip_suffix(s->start, comp, sibling, size) == 0 && is_regular(sibling) &&
        xu_compression_of(sibling) == XU_COMP_NONE) {
        xu_debug(s->log, "symbol search: %s is %s-compressed: trying %s", s->start,
                 xu_compression_name(comp), sibling);
        return 0;
    }
    xu_error(s->log, "the kernel %s is %s-compressed%s and has no uncompressed sibling "
             "beside it: pass the guest's unstripped ELF with --elf FILE", s->start,
             xu_compression_name(comp),
             comp == XU_COMP_GZIP ? " with no symbol table inside" :
             ", which xen-uniprof does not read (it reads gzip)");
    return -ENODATA;
}

int xu_elf_find(const struct xu_elf_find_config *cfg, struct xu_log *log,
                struct xu_elf_choice *out)
{
    struct search s;
    char cand[4096 + 2 * BUILD_ID_MAX + 64], sibling[4096];
    bool from_arg = cfg->elf != NULL;
    enum xu_compression comp;
    char *bz_path = NULL;
    int bz_fd = -1, rc;

    xu_elf_choice_init(out);
    memset(&s, 0, sizeof(s));
    s.cfg = cfg;
    s.log = log;
    quiet_init(&s.quiet, log);
    s.start = from_arg ? cfg->elf : cfg->kernel;
    s.shown = s.start;
    s.flags = XU_SYMTAB_ELF_ONLY;       /* a real symbol table first, anywhere */
    if (!s.start || !s.start[0]) {
        xu_error(log, "the domain's kernel file is not known: pass the guest's ELF with "
                 "--elf FILE");
        return -EINVAL;
    }
    if (access(s.start, R_OK) != 0)
        rc = errno == EACCES ? -EACCES : -ENOENT;
    else
        rc = is_regular(s.start) ? 0 : -EINVAL;
    if (rc < 0) {
        if (from_arg)
            xu_error(log, "cannot read --elf %s: %s", s.start, strerror(-rc));
        else
            xu_error(log, "cannot read the domain's kernel %s: %s; pass the guest's ELF "
                     "with --elf FILE", s.start, strerror(-rc));
        return rc;
    }

    /* 0. a Linux bzImage: its vmlinux, decompressed in memory */
    if (xu_bzimage_is_file(s.start)) {
        rc = xu_bzimage_to_memfd(s.start, log, &bz_fd, &bz_path);
        if (rc < 0) {
            rc = rc == -ENOMEM ? rc : -ENODATA;
            goto out;
        }
        xu_debug(log, "symbol search: %s is a bzImage: reading its vmlinux", s.start);
        s.start = bz_path;
    }

    /* 0. a compressed kernel, as Xen's loader takes it */
    comp = bz_path ? XU_COMP_NONE : xu_compression_of(s.start);
    if (comp != XU_COMP_NONE) {
        rc = try_compressed(&s, comp, out, sibling, sizeof(sibling));
        if (rc != 0)
            goto out;
        s.start = sibling;
    }

    /* 1. the start file */
    rc = try_candidate(&s, s.start, from_arg ? XU_ELF_FROM_ARG : XU_ELF_FROM_KERNEL,
                       from_arg ? "--elf has symbols" : "kernel has symbols", false, out);
    if (rc != 0)
        goto out;
    note_tried(&s, s.shown);
    read_facts(s.start, &s.facts);

    /* 2. the .dbg sibling */
    snprintf(cand, sizeof(cand), "%s.dbg", s.start);
    rc = try_candidate(&s, cand, XU_ELF_FROM_DBG_SIBLING, ".dbg sibling", true, out);
    if (rc != 0)
        goto out;
    note_tried(&s, cand);

    /* 3. the build-id path */
    if (s.facts.build_id_len >= 2) {
        char idhex[2 * BUILD_ID_MAX + 1];

        hex(s.facts.build_id, s.facts.build_id_len, idhex);
        snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s.debug",
                 cfg->debug_root ? cfg->debug_root : XU_DEBUG_ROOT, idhex, idhex + 2);
        rc = try_candidate(&s, cand, XU_ELF_FROM_BUILD_ID, "build-id debug file", true, out);
        if (rc != 0)
            goto out;
        note_tried(&s, cand);
    }

    /* 4. .gnu_debuglink */
    rc = try_debuglink(&s, out);
    if (rc != 0)
        goto out;
    if (s.facts.debuglink[0])
        note_tried(&s, s.facts.debuglink);

    /* 5. debuginfod, by build-id */
    rc = try_debuginfod(&s, out);
    if (rc != 0)
        goto out;

    /* 6. the kernel's own tables (a Linux vmlinux's kallsyms) */
    s.flags = 0;
    rc = try_candidate(&s, s.start, from_arg ? XU_ELF_FROM_ARG : XU_ELF_FROM_KERNEL,
                       "the kernel's own kallsyms tables", false, out);
    if (rc != 0)
        goto out;

    xu_error(log, "no symbols for the guest: %s has no symbol table%s and none was found "
             "(tried %s); pass the unstripped ELF with --elf FILE", s.shown,
             bz_path ? " nor kallsyms tables that could be read" : "", s.tried);
    rc = -ENODATA;
out:
    if (rc == 1 && bz_path) {
        /* what was chosen may be a debug file: the memory file goes either way */
        if (strcmp(out->path, bz_path) == 0) {
            out->mem_fd = bz_fd;
            bz_fd = -1;
            free(out->shown);
            if (asprintf(&out->shown, "%s (vmlinux decompressed from the bzImage)",
                         s.shown) < 0)
                out->shown = NULL;
        }
    }
    if (bz_fd >= 0)
        close(bz_fd);
    free(bz_path);
    if (rc == 1) {
        xu_debug(log, "symbols from %s (%s)", out->shown ? out->shown : out->path, out->reason);
        rc = 0;
    } else if (rc < 0 && rc != -ENODATA) {
        xu_error(log, "looking for the guest's symbols: %s", strerror(-rc));
    }
    return rc;
}
