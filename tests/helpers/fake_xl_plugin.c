/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_xl_plugin.c - an xl-plugin without libxl, built as
 * tests/fakeplugin/xen-uniprof-xl.so for test_domain: it lets the loader
 * (lib/domain_plugin.c) and the front end be tested where Xen is absent.
 *
 * Domains: Domain-0 (0), web1 (3), unikraft (5); web1's kernel is known,
 * unikraft's is not (the front end must then ask its fallback).
 * Environment switches: FAKE_XL_ABI=n answers only ABI n; FAKE_XL_OPEN_FAIL
 * makes open() fail as libxl_ctx_alloc does without Xen.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xen/xu_xl_plugin.h"

struct xu_xl_plugin {
    struct xu_log *log;
    uint32_t created;
};

static const struct xu_domain_entry domains[] = {
    { 0, "Domain-0" }, { 3, "web1" }, { 5, "unikraft" },
};
#define NDOMAINS (sizeof(domains) / sizeof(domains[0]))

static int f_open(struct xu_xl_plugin **out, struct xu_log *log)
{
    if (getenv("FAKE_XL_OPEN_FAIL"))
        return -EACCES;
    *out = calloc(1, sizeof(**out));
    if (!*out)
        return -ENOMEM;
    (*out)->log = log;
    return 0;
}

static void f_close(struct xu_xl_plugin *p)
{
    free(p);
}

static int f_lookup(struct xu_xl_plugin *p, const char *q, uint32_t *domid)
{
    size_t i;

    (void)p;
    /* Deliberately not the generic rule: an alias only libxl would know,
     * so the test can tell that lookup() was used. */
    if (strcmp(q, "web1-alias") == 0) {
        *domid = 3;
        return 0;
    }
    for (i = 0; i < NDOMAINS; i++)
        if (strcmp(domains[i].name, q) == 0) {
            *domid = domains[i].domid;
            return 0;
        }
    return -ENOENT;
}

static int f_list(struct xu_xl_plugin *p, struct xu_domain_list *out)
{
    (void)p;
    out->v = malloc(sizeof(domains));
    if (!out->v)
        return -ENOMEM;
    memcpy(out->v, domains, sizeof(domains));
    out->n = NDOMAINS;
    return 0;
}

static int f_kernel_path(struct xu_xl_plugin *p, uint32_t domid, char **out)
{
    (void)p;
    if (domid == 3) {
        *out = strdup("/srv/web1/vmlinux");
        return *out ? 0 : -ENOMEM;
    }
    return domid == 5 ? -ENOENT : -ESRCH;
}

static int f_create_paused(struct xu_xl_plugin *p, const char *config, uint32_t *domid)
{
    if (strcmp(config, "good.cfg") != 0)
        return -EINVAL;
    *domid = 42;
    p->created = 42;
    return 0;
}

static int f_destroy(struct xu_xl_plugin *p, uint32_t domid)
{
    return domid == p->created ? 0 : -ESRCH;
}

static const struct xu_xl_plugin_ops ops = {
    .abi = XU_XL_PLUGIN_ABI,
    .size = sizeof(struct xu_xl_plugin_ops),
    .xen_version = "fake",
    .open = f_open,
    .close = f_close,
    .lookup = f_lookup,
    .list = f_list,
    .kernel_path = f_kernel_path,
    .create_paused = f_create_paused,
    .destroy = f_destroy,
};

const struct xu_xl_plugin_ops *xu_xl_plugin_v1(uint32_t abi);

const struct xu_xl_plugin_ops *xu_xl_plugin_v1(uint32_t abi)
{
    const char *want = getenv("FAKE_XL_ABI");

    if (want && (uint32_t)atoi(want) != abi)
        return NULL;
    return &ops;
}
