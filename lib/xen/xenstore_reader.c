/* SPDX-License-Identifier: GPL-2.0-only */
/* xenstore_reader.c - the xenstore domain directory over libxenstore. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xenstore.h>

#include "domain_priv.h"

static char *lx_read(void *ctx, const char *path, unsigned int *len)
{
    return xs_read(ctx, XBT_NULL, path, len);
}

static char **lx_directory(void *ctx, const char *path, unsigned int *num)
{
    return xs_directory(ctx, XBT_NULL, path, num);
}

static void lx_close(void *ctx)
{
    xs_close(ctx);
}

int xu_domdir_open_xenstore(struct xu_domdir **out, struct xu_log *log)
{
    return xu_domdir_open_xenstore_at(out, XU_LOG_ERROR, log);
}

int xu_domdir_open_xenstore_at(struct xu_domdir **out, enum xu_log_level err_level,
                               struct xu_log *log)
{
    struct xu_xs_reader reader = {
        .read = lx_read,
        .directory = lx_directory,
        .close = lx_close,
    };
    struct xs_handle *h;
    int rc;

    *out = NULL;
    /* Read-only is all we need; recent xenstored ignores the flag but an
     * old one honours it by refusing our writes, of which there are none. */
    h = xs_open(XS_OPEN_READONLY);
    if (!h) {
        rc = errno ? -errno : -EIO;
        if (rc == -EACCES || rc == -EPERM)
            xu_logf(log, err_level, "cannot open xenstore: permission denied (run as root in dom0)");
        else if (rc == -ENOENT)
            xu_logf(log, err_level, "cannot open xenstore: no xenstored socket nor /dev/xen/xenbus "
                     "(is this a Xen dom0 with xenstored running?)");
        else
            xu_logf(log, err_level, "cannot open xenstore: %s", strerror(-rc));
        return rc;
    }
    reader.ctx = h;
    return xu_domdir_open_reader(out, &reader, log);
}
