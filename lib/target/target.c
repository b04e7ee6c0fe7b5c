/* SPDX-License-Identifier: GPL-2.0-only */
/* target.c - the backend registry, opening a target, and names for its enums. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "target/xu_target.h"

#ifdef HAVE_BACKEND_XENCALL
extern const struct xu_target_ops xu_target_xencall_ops;
#endif
#ifdef HAVE_BACKEND_XC
extern const struct xu_target_ops xu_target_xc_ops;
#endif

/* Best first: the stable libraries are faster and outlive libxc's API. */
static const struct xu_target_ops *const backends[] = {
#ifdef HAVE_BACKEND_XENCALL
    &xu_target_xencall_ops,
#endif
#ifdef HAVE_BACKEND_XC
    &xu_target_xc_ops,
#endif
    NULL,
};

const struct xu_target_ops *xu_target_backend(const char *name)
{
    size_t i;

    if (!name)
        return backends[0];
    for (i = 0; backends[i]; i++)
        if (strcmp(backends[i]->name, name) == 0)
            return backends[i];
    return NULL;
}

const char *xu_target_backend_names(void)
{
    static char names[64];
    size_t i, len = 0;

    if (names[0])
        return names;
    for (i = 0; backends[i]; i++) {
        size_t n = strlen(backends[i]->name);
        if (len + n + 3 >= sizeof(names))
            break;
        if (i) {
            memcpy(names + len, ", ", 2);
            len += 2;
        }
        memcpy(names + len, backends[i]->name, n);
        len += n;
    }
    if (len == 0)
        strcpy(names, "none");
    else
        names[len] = '\0';
    return names;
}

int xu_target_open(struct xu_target *t, const struct xu_target_ops *ops,
                   uint32_t domid, struct xu_log *log)
{
    int rc;

    memset(t, 0, sizeof(*t));
    if (!ops)
        return -ENOSYS;
    t->ops = ops;
    t->log = log;
    t->domid = domid;
    rc = ops->open(t, domid);
    /* A backend's open cleans up after itself: what failed to open is no
     * target, and nothing (a pause handle, close) may call into it. */
    if (rc < 0)
        t->ops = NULL;
    return rc;
}

void xu_target_close(struct xu_target *t)
{
    if (t->ops && t->ops->close)
        t->ops->close(t);
    t->ops = NULL;
    t->priv = NULL;
}

const char *xu_guest_type_name(enum xu_guest_type type)
{
    switch (type) {
    case XU_GUEST_PV:  return "pv";
    case XU_GUEST_PVH: return "pvh";
    case XU_GUEST_HVM: return "hvm";
    }
    return "unknown";
}

const char *xu_paging_mode_name(enum xu_paging_mode mode)
{
    switch (mode) {
    case XU_PAGING_NONE:   return "none";
    case XU_PAGING_32:     return "32-bit";
    case XU_PAGING_PAE:    return "pae";
    case XU_PAGING_LONG4:  return "long-4level";
    case XU_PAGING_LONG5:  return "long-5level";
    case XU_PAGING_ARM64:  return "arm64";
    case XU_PAGING_ARM32:  return "arm32";
    }
    return "unknown";
}
