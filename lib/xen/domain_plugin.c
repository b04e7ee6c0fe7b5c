/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * domain_plugin.c - the domain directory answered by the xl-plugin, loaded
 * with dlopen so that the core never links libxenlight (no stable ABI).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xen/xu_domain.h"
#include "xen/xu_xl_plugin.h"

struct plugdir {
    void *dl;
    const struct xu_xl_plugin_ops *ops;
    struct xu_xl_plugin *p;
};

const char *xu_domdir_plugin_dir(void)
{
    const char *dir = getenv("XEN_UNIPROF_PLUGIN_DIR");

    if (dir && dir[0])
        return dir;
    return XU_PKGLIBDIR;
}

const char *xu_domdir_plugin_file(void)
{
    return XU_XL_PLUGIN_FILE;
}

static struct plugdir *pd(struct xu_domdir *d)
{
    return d->priv;
}

static int pl_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    return pd(d)->ops->list(pd(d)->p, out);
}

static int pl_lookup(struct xu_domdir *d, const char *qualifier, uint32_t *domid)
{
    return pd(d)->ops->lookup(pd(d)->p, qualifier, domid);
}

static int pl_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    return pd(d)->ops->kernel_path(pd(d)->p, domid, out);
}

static int pl_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid)
{
    return pd(d)->ops->create_paused(pd(d)->p, config, domid);
}

static int pl_destroy(struct xu_domdir *d, uint32_t domid)
{
    return pd(d)->ops->destroy(pd(d)->p, domid);
}

static void pl_close(struct xu_domdir *d)
{
    struct plugdir *x = d->priv;

    if (!x)
        return;
    if (x->p)
        x->ops->close(x->p);
    /* Loaded with RTLD_NODELETE: libxl may have registered fork handlers
     * or left state that must not point into unmapped code. */
    if (x->dl)
        dlclose(x->dl);
    free(x);
    d->priv = NULL;
}

static const struct xu_domdir_ops plugin_ops = {
    .name = "libxl",
    .list = pl_list,
    .lookup = pl_lookup,
    .kernel_path = pl_kernel_path,
    .create_paused = pl_create_paused,
    .destroy = pl_destroy,
    .close = pl_close,
};

/* Same table without create, for a plugin that cannot create. */
static const struct xu_domdir_ops plugin_ops_nocreate = {
    .name = "libxl",
    .list = pl_list,
    .lookup = pl_lookup,
    .kernel_path = pl_kernel_path,
    .create_paused = NULL,
    .destroy = pl_destroy,
    .close = pl_close,
};

int xu_domdir_open_plugin(struct xu_domdir **out, const char *dir, struct xu_log *log)
{
    struct xu_domdir *d = NULL;
    struct plugdir *x = NULL;
    xu_xl_plugin_entry_fn entry;
    char path[4096];
    void *sym;
    int rc;

    *out = NULL;
    if (!dir)
        dir = xu_domdir_plugin_dir();
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, XU_XL_PLUGIN_FILE) >= sizeof(path)) {
        rc = -ENAMETOOLONG;
        goto out;
    }
    d = calloc(1, sizeof(*d));
    if (!d) {
        rc = -ENOMEM;
        goto out;
    }
    d->log = log;
    d->ops = &plugin_ops;
    /* From here on xu_domdir_close(d) releases whatever x holds. */
    d->priv = x = calloc(1, sizeof(*x));
    if (!x) {
        rc = -ENOMEM;
        goto out;
    }

    x->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!x->dl) {
        /* Usual when libxl of another Xen version is installed, or the
         * plugin was not built: xenstore does the job, minus --create. */
        xu_info(log, "xl-plugin not loaded (%s): using xenstore", dlerror());
        rc = -ENOENT;
        goto out;
    }
    dlerror();
    sym = dlsym(x->dl, XU_XL_PLUGIN_ENTRY);
    if (!sym) {
        xu_info(log, "xl-plugin %s has no %s: not this version's plugin", path,
                XU_XL_PLUGIN_ENTRY);
        rc = -ENOEXEC;
        goto out;
    }
    /* ISO C has no object-to-function pointer conversion; POSIX dlsym
     * guarantees it works, and memcpy says so without a warning. */
    memcpy(&entry, &sym, sizeof(entry));
    x->ops = entry(XU_XL_PLUGIN_ABI);
    if (!x->ops || x->ops->abi != XU_XL_PLUGIN_ABI || x->ops->size < sizeof(*x->ops)
        || !x->ops->open || !x->ops->close || !x->ops->list || !x->ops->lookup
        || !x->ops->kernel_path || !x->ops->destroy) {
        xu_info(log, "xl-plugin %s speaks another interface version", path);
        x->ops = NULL;
        rc = -ENOEXEC;
        goto out;
    }
    /* The plugin cannot reach xu_log_default(): hand it over. */
    rc = x->ops->open(&x->p, log ? log : xu_log_default());
    if (rc < 0) {
        xu_info(log, "xl-plugin (libxl %s) cannot open libxl: %s", x->ops->xen_version,
                strerror(-rc));
        x->p = NULL;
        goto out;
    }
    if (!x->ops->create_paused)
        d->ops = &plugin_ops_nocreate;
    xu_debug(log, "xl-plugin loaded from %s (libxl %s)", path, x->ops->xen_version);
    *out = d;
    d = NULL;
    rc = 0;
out:
    /* Nothing but the plugin is open yet: no fallback to close. */
    if (d) {
        pl_close(d);
        free(d);
    }
    return rc;
}
