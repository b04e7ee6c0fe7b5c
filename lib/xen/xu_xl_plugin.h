/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_xl_plugin.h - the binary interface between the core and the xl-plugin.
 *
 * libxl has no stable ABI, so everything that links libxenlight lives in a
 * shared object built against the Xen it runs on and loaded at run time
 * (lib/domain_plugin.c).  The core never includes libxl.h; the plugin never
 * links the core: the only things crossing are this table, plain C types,
 * malloc'd memory (both sides use the same libc), and struct xu_log, whose
 * emit() the plugin calls directly (xu_logf lives in the core, which the
 * plugin cannot see).
 *
 * The plugin exports one symbol, XU_XL_PLUGIN_ENTRY, of type
 * xu_xl_plugin_entry_fn.  Called with the ABI version the core speaks, it
 * returns its ops table, or NULL when it does not speak that version.  An
 * incompatible change to this file bumps XU_XL_PLUGIN_ABI and renames the
 * entry point, so an old plugin is refused, never misused.
 */
#ifndef XU_XL_PLUGIN_H
#define XU_XL_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "xen/xu_domain.h"
#include "util/xu_log.h"

#define XU_XL_PLUGIN_ABI 1
#define XU_XL_PLUGIN_ENTRY "xu_xl_plugin_v1"
#define XU_XL_PLUGIN_FILE "xen-uniprof-xl.so"

struct xu_xl_plugin;    /* the plugin's state: a libxl_ctx and friends */

struct xu_xl_plugin_ops {
    uint32_t abi;                   /* XU_XL_PLUGIN_ABI */
    uint32_t size;                  /* sizeof(struct xu_xl_plugin_ops) as built */
    const char *xen_version;        /* the libxl it was built against, "4.17" */

    /* libxl_ctx_alloc etc.  The log must outlive the plugin state. */
    int (*open)(struct xu_xl_plugin **out, struct xu_log *log);
    void (*close)(struct xu_xl_plugin *p);

    /* As xl: libxl_domain_qualifier_to_domid.  -ENOENT: no such name. */
    int (*lookup)(struct xu_xl_plugin *p, const char *qualifier, uint32_t *domid);
    /* libxl_list_domain + libxl_domid_to_name; sorted by domid; free with
     * xu_domain_list_dispose (it only calls free()). */
    int (*list)(struct xu_xl_plugin *p, struct xu_domain_list *out);
    /* b_info.kernel from libxl_retrieve_domain_configuration (PV and PVH);
     * malloc'd.  -ENOENT when the configuration has none, -ESRCH when the
     * domain does not exist. */
    int (*kernel_path)(struct xu_xl_plugin *p, uint32_t domid, char **out);
    /* Create from an xl config file, paused.  NULL when unsupported. */
    int (*create_paused)(struct xu_xl_plugin *p, const char *config, uint32_t *domid);
    /* libxl_domain_destroy. */
    int (*destroy)(struct xu_xl_plugin *p, uint32_t domid);
};

typedef const struct xu_xl_plugin_ops *(*xu_xl_plugin_entry_fn)(uint32_t abi);

#endif
