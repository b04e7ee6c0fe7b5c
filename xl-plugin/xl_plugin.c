/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xl_plugin.c - everything xen-uniprof needs from libxl, in a shared object
 * built against the Xen it runs on (libxl has no stable ABI).
 *
 * The interface is lib/xu_xl_plugin.h.  This file links libxenlight and
 * libxlutil and nothing of the core: it logs through the caller's struct
 * xu_log by calling its emit() itself.
 *
 * --create: libxlutil only tokenises xl config files; turning one into a
 * libxl_domain_config is xl's own parse_config_data() (tools/xl/xl_parse.c,
 * thousands of lines, not in any library).  Re-implementing a subset would
 * silently drop disks, vifs, device-model and bootloader settings, so the
 * domain is created by `xl create -p CONFIG` itself (exactly what the admin
 * would get, left paused), and libxlutil reads the config's name to find
 * the new domid with libxl.
 */
#include "config.h"

/* Pin the libxl API: its macros keep this signature set (the 3-argument
 * libxl_retrieve_domain_configuration, ...) from Xen 4.8 on.  Xen 4.8's own
 * libxl.h knows no 0x040800 (configure checks): its default is that API. */
#ifdef HAVE_LIBXL_API_VERSION_040800
#define LIBXL_API_VERSION 0x040800
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <libxlutil.h>
#include <xentoollog.h>

#include "xen/xu_xl_plugin.h"

#define XL_CREATE_ENV "XEN_UNIPROF_XL"  /* another xl binary (tests, staged Xen) */

/* libxl's messages, forwarded to the caller's logger. */
struct fwd_logger {
    xentoollog_logger vtable;           /* first: libxl sees only this */
    struct xu_log *log;
};

struct xu_xl_plugin {
    libxl_ctx *ctx;
    struct fwd_logger logger;
    struct xu_log *log;
};

static void plog(struct xu_log *log, enum xu_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void plog(struct xu_log *log, enum xu_log_level level, const char *fmt, ...)
{
    static const char *const prefix[] = { "debug: ", "", "warning: ", "error: " };
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (log) {
        if (level >= log->min_level && log->emit)
            log->emit(log->ctx, level, msg);
    } else if (level >= XU_LOG_WARN) {
        fprintf(stderr, "xen-uniprof: %s%s\n", prefix[level], msg);
    }
}

static void fwd_vmessage(xentoollog_logger *lg, xentoollog_level level, int errnoval,
                         const char *context, const char *format, va_list al)
    __attribute__((format(printf, 5, 0)));

static void fwd_vmessage(xentoollog_logger *lg, xentoollog_level level, int errnoval,
                         const char *context, const char *format, va_list al)
{
    struct fwd_logger *f = (struct fwd_logger *)lg;
    char msg[768];

    /* libxl narrates every operation at DEBUG and VERBOSE: not ours to relay. */
    if (level < XTL_DETAIL)
        return;
    vsnprintf(msg, sizeof(msg), format, al);
    /* libxl's errors are the detail behind ours: shown with -v. */
    plog(f->log, level >= XTL_ERROR ? XU_LOG_INFO : XU_LOG_DEBUG, "%s: %s%s%s",
         context ? context : "libxl", msg, errnoval >= 0 ? ": " : "",
         errnoval >= 0 ? strerror(errnoval) : "");
}

static void fwd_destroy(xentoollog_logger *lg)
{
    (void)lg;   /* embedded in struct xu_xl_plugin */
}

static int xl_errno(int rc)
{
    switch (rc) {
    case 0:                     return 0;
    case ERROR_NOMEM:           return -ENOMEM;
    case ERROR_INVAL:           return -EINVAL;
    case ERROR_DOMAIN_NOTFOUND: return -ESRCH;
    default:                    return -EIO;
    }
}

static int pl_open(struct xu_xl_plugin **out, struct xu_log *log)
{
    struct xu_xl_plugin *p;
    int rc;

    *out = NULL;
    p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->log = log;
    p->logger.vtable.vmessage = fwd_vmessage;
    p->logger.vtable.progress = NULL;
    p->logger.vtable.destroy = fwd_destroy;
    p->logger.log = log;
    rc = libxl_ctx_alloc(&p->ctx, LIBXL_VERSION, 0, &p->logger.vtable);
    if (rc) {
        plog(log, XU_LOG_INFO, "libxl_ctx_alloc failed (%d): not root, or no Xen", rc);
        free(p);
        return -EACCES;
    }
    *out = p;
    return 0;
}

static void pl_close(struct xu_xl_plugin *p)
{
    if (!p)
        return;
    libxl_ctx_free(p->ctx);
    free(p);
}

static int pl_lookup(struct xu_xl_plugin *p, const char *qualifier, uint32_t *domid)
{
    /* xl's own rule: all digits is a domid, else a name. */
    int rc = libxl_domain_qualifier_to_domid(p->ctx, qualifier, domid);

    return rc ? -ENOENT : 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct xu_domain_entry *x = a, *y = b;

    return x->domid < y->domid ? -1 : x->domid > y->domid;
}

static int pl_list(struct xu_xl_plugin *p, struct xu_domain_list *out)
{
    libxl_dominfo *info = NULL;
    int nb = 0, i, rc;

    out->v = NULL;
    out->n = 0;
    info = libxl_list_domain(p->ctx, &nb);
    if (!info) {
        plog(p->log, XU_LOG_ERROR, "libxl cannot list domains");
        rc = -EIO;
        goto out;
    }
    if (nb > XU_DOMAIN_LIST_MAX)
        nb = XU_DOMAIN_LIST_MAX;
    out->v = calloc(nb > 0 ? (size_t)nb : 1, sizeof(*out->v));
    if (!out->v) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < nb; i++) {
        struct xu_domain_entry *e = &out->v[out->n++];
        char *name = libxl_domid_to_name(p->ctx, info[i].domid);

        e->domid = info[i].domid;
        snprintf(e->name, sizeof(e->name), "%s", name ? name : "");
        free(name);
    }
    qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
    rc = 0;
out:
    if (info)
        libxl_dominfo_list_free(info, nb);
    return rc;
}

static int pl_kernel_path(struct xu_xl_plugin *p, uint32_t domid, char **out)
{
    libxl_domain_config cfg;
    const char *kernel = NULL;
    int rc;

    *out = NULL;
    libxl_domain_config_init(&cfg);
#ifdef LIBXL_HAVE_RETRIEVE_DOMAIN_CONFIGURATION
    rc = libxl_retrieve_domain_configuration(p->ctx, domid, &cfg);
    if (rc) {
        rc = xl_errno(rc);
        if (rc != -ESRCH) {
            /* e.g. a domain not built by libxl: no stored configuration */
            plog(p->log, XU_LOG_INFO, "libxl has no configuration for domain %u",
                 (unsigned int)domid);
            rc = -ENOENT;
        }
        goto out;
    }
#ifdef LIBXL_HAVE_BUILDINFO_KERNEL
    kernel = cfg.b_info.kernel;
#endif
    if (!kernel && cfg.c_info.type == LIBXL_DOMAIN_TYPE_PV)
        kernel = cfg.b_info.u.pv.kernel;
    if (!kernel || !kernel[0]) {
        plog(p->log, XU_LOG_INFO, "domain %u was built without a kernel file "
             "(bootloader or firmware boot)", (unsigned int)domid);
        rc = -ENOENT;
        goto out;
    }
    if (kernel[0] != '/')
        plog(p->log, XU_LOG_WARN, "domain %u's kernel path '%s' is relative to the "
             "directory it was created from", (unsigned int)domid, kernel);
    *out = strdup(kernel);
    rc = *out ? 0 : -ENOMEM;
#else
    (void)p;
    (void)kernel;
    rc = -ENOENT;
    goto out;
#endif
out:
    libxl_domain_config_dispose(&cfg);
    return rc;
}

/* The config's name= (malloc'd), read with libxlutil as xl reads it. */
static int config_name(struct xu_xl_plugin *p, const char *config, char **name)
{
    XLU_Config *cfg = NULL;
    const char *v = NULL;
    int rc;

    *name = NULL;
    cfg = xlu_cfg_init(stderr, config);
    if (!cfg) {
        rc = -ENOMEM;
        goto out;
    }
    rc = xlu_cfg_readfile(cfg, config);
    if (rc) {
        /* xlu reports the syntax error itself, on stderr */
        plog(p->log, XU_LOG_ERROR, "cannot read xl config %s: %s", config, strerror(rc));
        rc = -rc;
        goto out;
    }
    if (xlu_cfg_get_string(cfg, "name", &v, 1) || !v || !v[0]) {
        plog(p->log, XU_LOG_ERROR, "xl config %s has no name= setting", config);
        rc = -EINVAL;
        goto out;
    }
    *name = strdup(v);
    rc = *name ? 0 : -ENOMEM;
out:
    if (cfg)
        xlu_cfg_destroy(cfg);
    return rc;
}

/* In the child before exec: only stdin (/dev/null), stdout and stderr
 * (both our stderr: our stdout may carry the profile) survive. */
static void child_fds(void)
{
    DIR *dir;
    struct dirent *de;
    int fd = open("/dev/null", O_RDONLY);

    if (fd >= 0 && fd != 0) {
        dup2(fd, 0);
        close(fd);
    }
    dup2(2, 1);
    /* Descriptors we hold must not outlive us in xl's daemon: above all a
     * guardian's pipe, whose end-of-file means "the profiler is gone". */
    dir = opendir("/proc/self/fd");
    if (dir) {
        int dfd = dirfd(dir);
        while ((de = readdir(dir))) {
            fd = atoi(de->d_name);
            if (fd > 2 && fd != dfd)
                fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
        closedir(dir);
    } else {
        for (fd = 3; fd < 1024; fd++)
            fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
}

static int run_xl_create(struct xu_xl_plugin *p, const char *config)
{
    const char *xl = getenv(XL_CREATE_ENV);
    pid_t pid;
    int status, rc;

    if (!xl || !xl[0])
        xl = "xl";
    pid = fork();
    if (pid < 0)
        return -errno;
    if (pid == 0) {
        child_fds();
        execlp(xl, xl, "create", "-p", config, (char *)NULL);
        fprintf(stderr, "xen-uniprof: cannot run %s: %s\n", xl, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -errno;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        rc = -ENOENT;
    else
        rc = -EIO;
    plog(p->log, XU_LOG_ERROR, "'%s create -p %s' failed (%s %d)", xl, config,
         WIFEXITED(status) ? "exit status" : "signal",
         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return rc;
}

static int pl_create_paused(struct xu_xl_plugin *p, const char *config, uint32_t *domid)
{
    char *name = NULL;
    uint32_t id;
    int rc;

    rc = config_name(p, config, &name);
    if (rc < 0)
        goto out;
    if (libxl_name_to_domid(p->ctx, name, &id) == 0) {
        plog(p->log, XU_LOG_ERROR, "a domain named '%s' already exists (id %u)", name,
             (unsigned int)id);
        rc = -EEXIST;
        goto out;
    }
    rc = run_xl_create(p, config);
    if (rc < 0)
        goto out;
    if (libxl_name_to_domid(p->ctx, name, &id) != 0) {
        plog(p->log, XU_LOG_ERROR, "xl created '%s' but it is gone already", name);
        rc = -ESRCH;
        goto out;
    }
    *domid = id;
    rc = 0;
out:
    free(name);
    return rc;
}

static int pl_destroy(struct xu_xl_plugin *p, uint32_t domid)
{
    int rc = libxl_domain_destroy(p->ctx, domid, NULL);

    if (rc)
        plog(p->log, XU_LOG_ERROR, "cannot destroy domain %u (libxl error %d)",
             (unsigned int)domid, rc);
    return xl_errno(rc);
}

static const struct xu_xl_plugin_ops ops = {
    .abi = XU_XL_PLUGIN_ABI,
    .size = sizeof(struct xu_xl_plugin_ops),
#ifdef XU_BUILT_XEN_VERSION
    .xen_version = XU_BUILT_XEN_VERSION,
#else
    .xen_version = "unknown",
#endif
    .open = pl_open,
    .close = pl_close,
    .lookup = pl_lookup,
    .list = pl_list,
    .kernel_path = pl_kernel_path,
    .create_paused = pl_create_paused,
    .destroy = pl_destroy,
};

/* The one exported symbol (Makefile.am: -export-symbols-regex). */
const struct xu_xl_plugin_ops *xu_xl_plugin_v1(uint32_t abi);

const struct xu_xl_plugin_ops *xu_xl_plugin_v1(uint32_t abi)
{
    return abi == XU_XL_PLUGIN_ABI ? &ops : NULL;
}
