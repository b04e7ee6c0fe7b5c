/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * domain_xenstore.c - the domain directory read from xenstore, through a
 * reader (libxenstore in xenstore_reader.c, a fake in the tests).
 *
 * Guests write parts of their own /local/domain/<id> subtree, so every
 * value read here is checked before use: domids are parsed with bounds,
 * names truncated to XU_DOMAIN_NAME_MAX, the vm path must look like one.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xen/xu_domain.h"

struct xsdir {
    struct xu_xs_reader reader;
};

static struct xu_xs_reader *reader_of(struct xu_domdir *d)
{
    return &((struct xsdir *)d->priv)->reader;
}

/* A value, or NULL with errno (ENOENT when absent). */
static char *xs_get(struct xu_domdir *d, const char *path)
{
    struct xu_xs_reader *r = reader_of(d);
    unsigned int len = 0;

    /* NUL-terminated by contract (xs_read); a value holding a NUL is used
     * up to it, which only shortens it. */
    errno = 0;
    return r->read(r->ctx, path, &len);
}

static int parse_domid(const char *s, uint32_t *out)
{
    uint32_t domid;

    /* The directory of /local/domain holds domids only, but nothing
     * forces that: skip anything else. */
    if (!xu_domain_qualifier_is_domid(s, &domid) || domid == UINT32_MAX)
        return -EINVAL;
    *out = domid;
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct xu_domain_entry *x = a, *y = b;

    return x->domid < y->domid ? -1 : x->domid > y->domid;
}

static int xs_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    struct xu_xs_reader *r = reader_of(d);
    char **ids = NULL;
    unsigned int num = 0, i;
    int rc;

    xu_domain_list_init(out);
    ids = r->directory(r->ctx, "/local/domain", &num);
    if (!ids) {
        rc = errno ? -errno : -EIO;
        xu_error(d->log, "cannot read /local/domain from xenstore: %s", strerror(-rc));
        goto out;
    }
    if (num > XU_DOMAIN_LIST_MAX)
        num = XU_DOMAIN_LIST_MAX;
    out->v = calloc(num ? num : 1, sizeof(*out->v));
    if (!out->v) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < num; i++) {
        struct xu_domain_entry *e = &out->v[out->n];
        char path[64];
        char *name;

        if (parse_domid(ids[i], &e->domid) < 0)
            continue;
        snprintf(path, sizeof(path), "/local/domain/%u/name", (unsigned int)e->domid);
        name = xs_get(d, path);
        if (name) {
            snprintf(e->name, sizeof(e->name), "%s", name);
            free(name);
        } else {
            /* A domain being built has a directory before a name. */
            e->name[0] = '\0';
        }
        out->n++;
    }
    qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
    rc = 0;
out:
    free(ids);
    if (rc < 0)
        xu_domain_list_dispose(out);
    return rc;
}

/* "/vm/<uuid>" (libxl) or "/vm/<uuid>-<n>" (renamed, migrated): a single
 * component under /vm, nothing that could walk elsewhere. */
static bool valid_vm_path(const char *vm)
{
    const char *p;

    if (strncmp(vm, "/vm/", 4) != 0 || !vm[4] || strlen(vm) > 200)
        return false;
    for (p = vm + 4; *p; p++)
        if (*p == '/' || *p == '.' || (unsigned char)*p < 0x20)
            return false;
    return true;
}

static int xs_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    char path[256];
    char *vm = NULL, *kernel = NULL, *type = NULL;
    int rc;

    *out = NULL;
    snprintf(path, sizeof(path), "/local/domain/%u/vm", (unsigned int)domid);
    vm = xs_get(d, path);
    if (!vm) {
        rc = errno == ENOENT ? -ESRCH : (errno ? -errno : -EIO);
        if (rc == -ESRCH)
            xu_info(d->log, "domain %u has no %s in xenstore", (unsigned int)domid, path);
        else
            xu_error(d->log, "cannot read %s from xenstore: %s", path, strerror(-rc));
        goto out;
    }
    if (!valid_vm_path(vm)) {
        xu_warn(d->log, "domain %u: ignoring unexpected vm path '%.64s' in xenstore",
                (unsigned int)domid, vm);
        rc = -ENOENT;
        goto out;
    }
    snprintf(path, sizeof(path), "%s/image/kernel", vm);
    kernel = xs_get(d, path);
    if (!kernel || kernel[0] != '/') {
        snprintf(path, sizeof(path), "/libxl/%u/type", (unsigned int)domid);
        type = xs_get(d, path);
        /* libxl writes image/kernel for PV domains only. */
        if (type && (strcmp(type, "pvh") == 0 || strcmp(type, "hvm") == 0))
            xu_info(d->log, "xenstore holds no kernel path for %s domain %u "
                    "(the xl-plugin reads it from libxl)", type, (unsigned int)domid);
        else
            xu_info(d->log, "xenstore holds no kernel path for domain %u", (unsigned int)domid);
        rc = -ENOENT;
        goto out;
    }
    *out = kernel;
    kernel = NULL;
    rc = 0;
out:
    free(vm);
    free(kernel);
    free(type);
    return rc;
}

static void xs_close(struct xu_domdir *d)
{
    struct xsdir *x = d->priv;

    if (!x)
        return;
    if (x->reader.close)
        x->reader.close(x->reader.ctx);
    free(x);
    d->priv = NULL;
}

static const struct xu_domdir_ops xenstore_ops = {
    .name = "xenstore",
    .list = xs_list,
    .lookup = NULL,     /* the generic rule over list(): what xl does */
    .kernel_path = xs_kernel_path,
    .create_paused = NULL,
    .destroy = NULL,
    .close = xs_close,
};

int xu_domdir_open_reader(struct xu_domdir **out, const struct xu_xs_reader *reader,
                          struct xu_log *log)
{
    struct xu_domdir *d = NULL;
    struct xsdir *x = NULL;
    int rc;

    *out = NULL;
    d = calloc(1, sizeof(*d));
    x = calloc(1, sizeof(*x));
    if (!d || !x) {
        rc = -ENOMEM;
        goto out;
    }
    x->reader = *reader;
    d->ops = &xenstore_ops;
    d->priv = x;
    d->log = log;
    *out = d;
    d = NULL;
    x = NULL;
    rc = 0;
out:
    if (rc < 0 && reader->close)
        reader->close(reader->ctx);
    free(x);
    free(d);
    return rc;
}
