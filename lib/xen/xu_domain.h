/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_domain.h - the domain directory: which domains exist, what a name the
 * user typed means, and where a domain's kernel file is.
 *
 * One interface, two implementations behind struct xu_domdir_ops:
 *
 *  - "libxl": the xl-plugin (xl-plugin/, see xu_xl_plugin.h), a shared
 *    object loaded with dlopen at run time.  Answers exactly as xl does
 *    (libxl_domain_qualifier_to_domid), knows the kernel of PV and PVH
 *    domains (libxl_retrieve_domain_configuration) and can create and
 *    destroy domains (--create, --destroy).
 *  - "xenstore": libxenstore alone, always built.  Names from
 *    /local/domain/<id>/name; the kernel only for PV domains, from
 *    /vm/<uuid>/image/kernel (the vm path is /local/domain/<id>/vm).
 *    libxl (Xen 4.17, libxl__domain_build in libxl_create.c) writes
 *    image/ostype "linux", image/kernel, image/ramdisk and image/cmdline
 *    for PV domains only; HVM gets image/ostype "hvm" and no kernel, PVH no
 *    image/ node at all (seen in the lab: /vm/<uuid> of a PVH domain holds
 *    name, uuid, start_time, device/).  With a bootloader (pygrub)
 *    image/kernel is a temporary copy deleted once the domain is built.
 *    /libxl/<domid>/type says "pv", "pvh" or "hvm".  libxl keeps the full
 *    domain configuration in a file (/var/lib/xen/userdata-d.<domid>.<uuid>
 *    .libxl-json), not in xenstore: only the plugin reads it (through
 *    libxl_retrieve_domain_configuration), and it has the kernel of PV and
 *    PVH domains alike.
 *
 * xu_domdir_open() tries the plugin first and falls back to xenstore; when
 * the plugin is loaded, a kernel path it cannot give (a domain libxl did not
 * build) is still asked of xenstore.
 *
 * Qualifiers are read the way xl reads them: all decimal digits is a domid,
 * anything else a name.  Unlike xl, a domid must exist.
 *
 * Errors: negative errno, and one clear line through the logger.
 */
#ifndef XU_DOMAIN_H
#define XU_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"

/* Xen's bound on a domain name is the xenstore value size; ours is shorter
 * and names beyond it are reported truncated, never overflowed. */
#define XU_DOMAIN_NAME_MAX 256
/* Bound on how many domains a listing returns (a hostile xenstore cannot
 * make us allocate without limit).  Xen's own domid space is 0..0x7fef. */
#define XU_DOMAIN_LIST_MAX 32768

struct xu_domain_entry {
    uint32_t domid;
    char name[XU_DOMAIN_NAME_MAX];  /* "" when the domain has no name yet */
};

/* A listing, sorted by domid.  Zero-initialise, dispose after use. */
struct xu_domain_list {
    struct xu_domain_entry *v;
    size_t n;
};
void xu_domain_list_init(struct xu_domain_list *l);
void xu_domain_list_dispose(struct xu_domain_list *l);
/* "Domain-0 (0), web1 (3), web2 (4)" into buf (truncated with "..."). */
void xu_domain_list_format(const struct xu_domain_list *l, char *buf, size_t len);

struct xu_domdir;

struct xu_domdir_ops {
    const char *name;       /* "libxl", "xenstore" */
    /* Every domain that exists (dom0 included), sorted by domid. */
    int (*list)(struct xu_domdir *d, struct xu_domain_list *out);
    /*
     * Optional: qualifier -> domid, for implementations with their own
     * rules (the plugin asks libxl).  -ENOENT when nothing matches.  NULL:
     * the generic rule over list() is used.
     */
    int (*lookup)(struct xu_domdir *d, const char *qualifier, uint32_t *domid);
    /*
     * Path of the kernel the domain was built from, malloc'd into *out.
     * -ENOENT: this implementation does not know (e.g. xenstore and a PVH
     * domain); -ESRCH: no such domain.
     */
    int (*kernel_path)(struct xu_domdir *d, uint32_t domid, char **out);
    /* Optional (NULL: -ENOTSUP).  Create a domain from an xl config file,
     * left paused; its id in *domid. */
    int (*create_paused)(struct xu_domdir *d, const char *config, uint32_t *domid);
    /* Optional (NULL: -ENOTSUP).  Destroy a domain. */
    int (*destroy)(struct xu_domdir *d, uint32_t domid);
    /* Release priv. */
    void (*close)(struct xu_domdir *d);
};

struct xu_domdir {
    const struct xu_domdir_ops *ops;
    void *priv;
    struct xu_log *log;
    struct xu_domdir *fallback;     /* asked for kernel_path on -ENOENT; may be NULL */
};

/*
 * The reader the xenstore implementation uses: libxenstore in real life, a
 * fake in tests.  Semantics follow xs_read()/xs_directory() without a
 * transaction: read returns a malloc'd NUL-terminated value (*len without
 * the NUL) or NULL with errno; directory returns one malloc'd block holding
 * the array of *num child names and the names themselves (freed with a
 * single free()), or NULL with errno.
 */
struct xu_xs_reader {
    char *(*read)(void *ctx, const char *path, unsigned int *len);
    char **(*directory)(void *ctx, const char *path, unsigned int *num);
    void (*close)(void *ctx);       /* may be NULL */
    void *ctx;
};

/*
 * Where the plugin is looked for: $XEN_UNIPROF_PLUGIN_DIR when set (tests,
 * the lab, a staged build), else the package library directory
 * (XU_PKGLIBDIR).
 */
const char *xu_domdir_plugin_dir(void);
/* The plugin's file name in that directory (for messages). */
const char *xu_domdir_plugin_file(void);

enum xu_domdir_flags {
    XU_DOMDIR_NO_PLUGIN = 1 << 0,   /* xenstore only */
    XU_DOMDIR_NEED_PLUGIN = 1 << 1, /* fail (-ENOTSUP) when the plugin cannot be loaded */
};

/*
 * The directory for this host: the plugin when it loads (and libxl can
 * open), with xenstore as fallback; otherwise xenstore alone.  Why the
 * plugin was not used is logged at INFO (at ERROR with NEED_PLUGIN).
 */
int xu_domdir_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log);
/* xenstore alone, through libxenstore (read-only connection). */
int xu_domdir_open_xenstore(struct xu_domdir **out, struct xu_log *log);
/* xenstore alone, through the given reader (tests).  Takes ownership of
 * the reader: its close() is called by xu_domdir_close(), also on failure. */
int xu_domdir_open_reader(struct xu_domdir **out, const struct xu_xs_reader *reader,
                          struct xu_log *log);
/* The plugin alone, loaded from dir (NULL: xu_domdir_plugin_dir()). */
int xu_domdir_open_plugin(struct xu_domdir **out, const char *dir, struct xu_log *log);
/* Closes the fallback too.  NULL is fine. */
void xu_domdir_close(struct xu_domdir *d);

/* "libxl" or "xenstore": which implementation answers. */
const char *xu_domdir_name(const struct xu_domdir *d);
/* Whether create/destroy are available (the plugin is loaded). */
bool xu_domdir_can_create(const struct xu_domdir *d);

int xu_domdir_list(struct xu_domdir *d, struct xu_domain_list *out);

/*
 * Resolve what the user typed to a domain other than dom0.
 *   -EINVAL  empty qualifier, or a number out of domid range
 *   -EPERM   dom0 ("Domain-0" or 0): "refusing to profile dom0"
 *   -ESRCH   no such domain; the message lists the domains that exist
 * out gets the domid and the name (or "" when the domain has none).
 */
int xu_domdir_resolve(struct xu_domdir *d, const char *qualifier,
                      struct xu_domain_entry *out);

/* Kernel path of domid (malloc'd), asking the fallback on -ENOENT.
 * -ENOENT is logged at INFO only: the caller decides whether it matters. */
int xu_domdir_kernel_path(struct xu_domdir *d, uint32_t domid, char **out);

/* --create / --destroy: -ENOTSUP with a clear message without the plugin. */
int xu_domdir_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid);
int xu_domdir_destroy(struct xu_domdir *d, uint32_t domid);

/* The qualifier rule: true and *domid when q is all decimal digits
 * (and fits a domid); false otherwise. */
bool xu_domain_qualifier_is_domid(const char *q, uint32_t *domid);

#endif
