/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * debuginfod.c - a debug file by build-id from the servers of
 * $DEBUGINFOD_URLS, through libdebuginfod (elfutils).  The library is
 * opened when a search first needs it, as elfutils' own libdwfl does: it
 * brings an HTTP stack that a minimal dom0 need not carry, and a build
 * with the header but a host without the library still runs (the search
 * then says so and goes on without it).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symbols/xu_debuginfod.h"

#ifdef HAVE_LIBDEBUGINFOD
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#endif

/* A build-id longer than this is no GNU build-id (they are 16 or 20 bytes):
 * refused rather than sent. */
#define BUILD_ID_MAX 64
#define PROGRESS_EVERY_NS 1000000000ULL

const char *xu_debuginfod_servers(void)
{
    const char *urls = getenv(XU_DEBUGINFOD_URLS_ENV);

    /* only blanks: no server, as libdebuginfod reads it */
    return urls && urls[strspn(urls, " \t\n")] ? urls : NULL;
}

#ifdef HAVE_LIBDEBUGINFOD

/* The library's entry points we use, found in libdebuginfod.so.1. */
struct lib {
    void *dl;
    debuginfod_client *(*begin)(void);
    void (*end)(debuginfod_client *c);
    int (*find_debuginfo)(debuginfod_client *c, const unsigned char *id, int len, char **path);
    void (*set_progressfn)(debuginfod_client *c, debuginfod_progressfn_t fn);
    void (*set_user_data)(debuginfod_client *c, void *value);
    void *(*get_user_data)(debuginfod_client *c);
    const char *(*get_url)(debuginfod_client *c);
};

/* Set once a search opened the library; a process asks debuginfod once, so
 * the handle stays for the process's life. */
static struct lib lib;

struct progress {
    struct xu_log *log;
    char idhex[2 * BUILD_ID_MAX + 1];
    unsigned long long last_ns;
    bool said;
};

static unsigned long long mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* libdebuginfod calls this while it waits and downloads: a = bytes so far,
 * b = the total when the server said it (else 0 or less).  0 goes on. */
static int on_progress(debuginfod_client *c, long a, long b)
{
    struct progress *p = lib.get_user_data(c);
    unsigned long long now = mono_ns();

    if (!p || (p->said && now - p->last_ns < PROGRESS_EVERY_NS))
        return 0;
    p->last_ns = now;
    if (!p->said) {
        const char *url = lib.get_url(c);

        p->said = true;
        xu_info(p->log, "debuginfod: asking %s for build-id %s", url ? url : xu_debuginfod_servers(),
                p->idhex);
    } else if (b > 0) {
        xu_info(p->log, "debuginfod: %ld of %ld KiB", a / 1024, b / 1024);
    } else if (a > 0) {
        xu_info(p->log, "debuginfod: %ld KiB", a / 1024);
    }
    return 0;
}

/* dlsym into a function pointer (POSIX guarantees the conversion; memcpy
 * says so without a warning).  false when the symbol is missing. */
static bool find_sym(void *dl, const char *name, void *fn, size_t size)
{
    void *sym = dlsym(dl, name);

    if (!sym)
        return false;
    memcpy(fn, &sym, size);
    return true;
}

#define FIND(field, name) find_sym(lib.dl, name, &lib.field, sizeof(lib.field))

/* 0, or -ELIBACC (no usable libdebuginfod.so.1 here) with the reason
 * logged at DEBUG (the caller names it). */
static int open_lib(struct xu_log *log)
{
    if (lib.dl)
        return 0;
    lib.dl = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib.dl) {
        xu_debug(log, "debuginfod: cannot open %s: %s", DEBUGINFOD_SONAME, dlerror());
        return -ELIBACC;
    }
    if (!FIND(begin, "debuginfod_begin") || !FIND(end, "debuginfod_end") ||
        !FIND(find_debuginfo, "debuginfod_find_debuginfo") ||
        !FIND(set_progressfn, "debuginfod_set_progressfn") ||
        !FIND(set_user_data, "debuginfod_set_user_data") ||
        !FIND(get_user_data, "debuginfod_get_user_data") ||
        !FIND(get_url, "debuginfod_get_url")) {
        xu_debug(log, "debuginfod: %s lacks an entry point: %s", DEBUGINFOD_SONAME, dlerror());
        dlclose(lib.dl);
        memset(&lib, 0, sizeof(lib));
        return -ELIBACC;
    }
    return 0;
}

int xu_debuginfod_find_debuginfo(const uint8_t *id, size_t len, struct xu_log *log,
                                 char **path)
{
    struct progress p = { .log = log };
    debuginfod_client *c = NULL;
    const char *urls = xu_debuginfod_servers();
    size_t i;
    int fd, rc;

    *path = NULL;
    if (!urls)
        return -ENODEV;
    if (len == 0 || len > BUILD_ID_MAX)
        return -EINVAL;
    rc = open_lib(log);
    if (rc < 0)
        return rc;
    for (i = 0; i < len; i++)
        snprintf(p.idhex + 2 * i, 3, "%02x", id[i]);
    c = lib.begin();
    if (!c) {
        rc = -ENOMEM;
        goto out;
    }
    lib.set_user_data(c, &p);
    lib.set_progressfn(c, on_progress);
    fd = lib.find_debuginfo(c, id, (int)len, path);
    if (fd < 0) {
        rc = fd;
        *path = NULL;
        if (rc == -ENOMEM)
            goto out;
        /* the caller names the failure in its one line */
        xu_debug(log, "debuginfod: no debug file for build-id %s from %s: %s", p.idhex, urls,
                 strerror(-rc));
        goto out;
    }
    /* the path is what the symbol search opens, the descriptor is not needed */
    close(fd);
    xu_info(log, "debuginfod: build-id %s: %s", p.idhex, *path);
    rc = 0;
out:
    if (c)
        lib.end(c);
    return rc;
}

#else

int xu_debuginfod_find_debuginfo(const uint8_t *id, size_t len, struct xu_log *log,
                                 char **path)
{
    (void)id;
    (void)len;
    *path = NULL;
    if (!xu_debuginfod_servers())
        return -ENODEV;
    xu_debug(log, "%s is set, but this xen-uniprof was built without libdebuginfod",
             XU_DEBUGINFOD_URLS_ENV);
    return -ENOSYS;
}

#endif
