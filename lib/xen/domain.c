/* SPDX-License-Identifier: GPL-2.0-only */
/* domain.c - the domain directory front end: choosing an implementation,
 * the qualifier rule, and the errors a user reads.  It calls the
 * implementations (domain_plugin.c, domain_xenstore.c); they use nothing of
 * it, and only domain_plugin.c knows the plugin's interface. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain_priv.h"

/* Xen reserves domids from DOMID_FIRST_RESERVED (0x7ff0) up. */
#define XU_DOMID_MAX 0x7fefU

void xu_domain_list_init(struct xu_domain_list *l)
{
    l->v = NULL;
    l->n = 0;
}

void xu_domain_list_dispose(struct xu_domain_list *l)
{
    free(l->v);
    xu_domain_list_init(l);
}

void xu_domain_list_format(const struct xu_domain_list *l, char *buf, size_t len)
{
    size_t i, used = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < l->n; i++) {
        const struct xu_domain_entry *e = &l->v[i];
        int r = snprintf(buf + used, len - used, "%s%s (%u)", i ? ", " : "",
                         e->name[0] ? e->name : "(unnamed)", (unsigned int)e->domid);
        if (r < 0 || (size_t)r >= len - used) {
            /* Mark the cut so a long listing never reads as complete. */
            if (len >= 4)
                strcpy(buf + len - 4, "...");
            return;
        }
        used += (size_t)r;
    }
}

bool xu_domain_qualifier_is_domid(const char *q, uint32_t *domid)
{
    unsigned long v = 0;
    size_t i;

    if (!q || !q[0])
        return false;
    for (i = 0; q[i]; i++) {
        if (q[i] < '0' || q[i] > '9')
            return false;
        /* Saturate instead of overflowing: "99999999999" is a domid, just
         * not a valid one, which resolve reports. */
        if (v <= XU_DOMID_MAX)
            v = v * 10 + (unsigned long)(q[i] - '0');
    }
    *domid = v > XU_DOMID_MAX ? UINT32_MAX : (uint32_t)v;
    return true;
}

#ifndef HAVE_XENSTORE
/* A build without libxenstore (--with-backend=none) has no live domains. */
int xu_domdir_open_xenstore_at(struct xu_domdir **out, enum xu_log_level err_level,
                               struct xu_log *log)
{
    *out = NULL;
    xu_logf(log, err_level, "this build has no xenstore support: domains cannot be looked up");
    return -ENOTSUP;
}

int xu_domdir_open_xenstore(struct xu_domdir **out, struct xu_log *log)
{
    return xu_domdir_open_xenstore_at(out, XU_LOG_ERROR, log);
}
#endif

int xu_domdir_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    struct xu_domdir *d = NULL;
    int rc;

    *out = NULL;
    if (!(flags & XU_DOMDIR_NO_PLUGIN)) {
        rc = xu_domdir_open_plugin(&d, NULL, log);
        if (rc == 0) {
            /* libxl knows nothing of domains it did not build: xenstore
             * still answers for their kernel.  Optional. */
            if (xu_domdir_open_xenstore_at(&d->fallback, XU_LOG_DEBUG, log) < 0)
                d->fallback = NULL;
            *out = d;
            return 0;
        }
        if (flags & XU_DOMDIR_NEED_PLUGIN)
            return rc;
    }
    return xu_domdir_open_xenstore(out, log);
}

void xu_domdir_close(struct xu_domdir *d)
{
    if (!d)
        return;
    xu_domdir_close(d->fallback);
    if (d->ops && d->ops->close)
        d->ops->close(d);
    free(d);
}

const char *xu_domdir_name(const struct xu_domdir *d)
{
    return d->ops->name;
}

bool xu_domdir_can_create(const struct xu_domdir *d)
{
    return d->ops->create_paused != NULL;
}

int xu_domdir_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    xu_domain_list_init(out);
    return d->ops->list(d, out);
}

static const struct xu_domain_entry *find_domid(const struct xu_domain_list *l, uint32_t domid)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (l->v[i].domid == domid)
            return &l->v[i];
    return NULL;
}

static const struct xu_domain_entry *find_name(const struct xu_domain_list *l, const char *name)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0)
            return &l->v[i];
    return NULL;
}

/* The guests that exist, for the "no such domain" message. */
static void format_guests(const struct xu_domain_list *l, char *buf, size_t len)
{
    struct xu_domain_list guests = *l;

    /* The listing is sorted by domid: dom0, when present, comes first. */
    if (guests.n && guests.v[0].domid == 0) {
        guests.v++;
        guests.n--;
    }
    if (guests.n == 0)
        snprintf(buf, len, "no guest domain exists");
    else
        xu_domain_list_format(&guests, buf, len);
}

int xu_domdir_resolve(struct xu_domdir *d, const char *qualifier,
                      struct xu_domain_entry *out)
{
    struct xu_domain_list l;
    const struct xu_domain_entry *e = NULL;
    char listing[1024];
    uint32_t domid = UINT32_MAX;
    bool numeric;
    int rc;

    xu_domain_list_init(&l);
    memset(out, 0, sizeof(*out));
    if (!qualifier || !qualifier[0]) {
        xu_error(d->log, "no domain given");
        rc = -EINVAL;
        goto out;
    }
    numeric = xu_domain_qualifier_is_domid(qualifier, &domid);
    if (numeric && domid == UINT32_MAX) {
        xu_error(d->log, "'%s' is not a valid domain id (0 to %u)", qualifier, XU_DOMID_MAX);
        rc = -EINVAL;
        goto out;
    }
    if (numeric ? domid == 0 : strcmp(qualifier, "Domain-0") == 0) {
        xu_error(d->log, "refusing to profile dom0 ('%s'): xen-uniprof profiles guests from dom0",
                 qualifier);
        rc = -EPERM;
        goto out;
    }

    rc = d->ops->list(d, &l);
    if (rc < 0 && d->fallback) {
        /* A libxl of another Xen release than the one running cannot list
         * (the hypervisor refuses its sysctl); xenstore's names do not
         * depend on it, and the backend then says which Xen runs. */
        xu_warn(d->log, "cannot list domains (%s): %s; names from %s", d->ops->name,
                strerror(-rc), d->fallback->ops->name);
        xu_domain_list_dispose(&l);
        return xu_domdir_resolve(d->fallback, qualifier, out);
    }
    if (rc < 0) {
        xu_error(d->log, "cannot list domains (%s): %s", d->ops->name, strerror(-rc));
        goto out;
    }

    if (numeric) {
        e = find_domid(&l, domid);
    } else if (d->ops->lookup) {
        rc = d->ops->lookup(d, qualifier, &domid);
        if (rc == 0)
            e = find_domid(&l, domid);
        else if (rc != -ENOENT && rc != -ESRCH)
            goto out;
    } else {
        e = find_name(&l, qualifier);
    }

    if (!e) {
        format_guests(&l, listing, sizeof(listing));
        if (numeric)
            xu_error(d->log, "no domain with id %u; domains: %s", (unsigned int)domid, listing);
        else
            xu_error(d->log, "no domain named '%s'; domains: %s", qualifier, listing);
        rc = -ESRCH;
        goto out;
    }
    if (e->domid == 0) {
        /* A name that libxl or xenstore maps to dom0 (renamed dom0). */
        xu_error(d->log, "refusing to profile dom0 ('%s'): xen-uniprof profiles guests from dom0",
                 qualifier);
        rc = -EPERM;
        goto out;
    }
    *out = *e;
    rc = 0;
out:
    xu_domain_list_dispose(&l);
    return rc;
}

int xu_domdir_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    int rc;

    *out = NULL;
    rc = d->ops->kernel_path(d, domid, out);
    if (rc == -ENOENT && d->fallback) {
        xu_debug(d->log, "%s does not know the kernel of domain %u: asking %s",
                 d->ops->name, (unsigned int)domid, d->fallback->ops->name);
        rc = d->fallback->ops->kernel_path(d->fallback, domid, out);
    }
    if (rc == -ENOENT)
        xu_info(d->log, "the kernel file of domain %u is not known", (unsigned int)domid);
    return rc;
}

int xu_domdir_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid)
{
    if (!d->ops->create_paused) {
        xu_error(d->log, "--create needs the xl-plugin (%s/%s), which is not loaded; "
                 "create the domain with 'xl create -p' and profile it by name",
                 xu_domdir_plugin_dir(), xu_domdir_plugin_file());
        return -ENOTSUP;
    }
    return d->ops->create_paused(d, config, domid);
}

int xu_domdir_destroy(struct xu_domdir *d, uint32_t domid)
{
    if (!d->ops->destroy) {
        xu_error(d->log, "--destroy needs the xl-plugin, which is not loaded");
        return -ENOTSUP;
    }
    return d->ops->destroy(d, domid);
}
