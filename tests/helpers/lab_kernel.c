/* SPDX-License-Identifier: GPL-2.0-only */
/* lab_kernel.c - the lab's own Debian 6.1 kernel for tests (see lab_kernel.h). */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "lab_kernel.h"
#include "symbols/xu_bzimage.h"
#include "symbols/xu_compressed.h"

uint8_t *lab_read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *p = NULL;
    long n;

    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && n < (long)XU_BZIMAGE_MAX_BYTES &&
        fseek(fp, 0, SEEK_SET) == 0 && (p = malloc((size_t)n)) &&
        fread(p, 1, (size_t)n, fp) == (size_t)n) {
        *len = (size_t)n;
    } else {
        free(p);
        p = NULL;
    }
    fclose(fp);
    return p;
}

static void cache_path(char *buf, size_t size, const char *file)
{
    const char *home = getenv("HOME");

    snprintf(buf, size, "%s/.cache/%s", home ? home : "/root", file);
}

void lab_kernel_map_path(char *buf, size_t size)
{
    glob_t g;

    /* tests/tools/linux_kallsyms.sh names it after the package's version too */
    cache_path(buf, size, "xen-uniprof-linux/System.map-6.1.0-56-amd64*");
    if (glob(buf, 0, NULL, &g) == 0) {
        snprintf(buf, size, "%s", g.gl_pathv[0]);
        globfree(&g);
    }
}

uint8_t *lab_kernel_vmlinux(size_t *len, char *why, size_t why_size)
{
    char path[512], err[192];
    uint8_t *img, *vmlinux = NULL;
    size_t n = 0;
    int rc;

    cache_path(path, sizeof(path), "xen-uniprof-lab/4.17/vmlinuz");
    img = lab_read_file(path, &n);
    if (!img) {
        snprintf(why, why_size, "no Debian 6.1 kernel in the lab's cache (%s)", path);
        return NULL;
    }
    rc = xu_bzimage_vmlinux(img, n, XU_MAX_KERNEL_BYTES, &vmlinux, len, err, sizeof(err));
    free(img);
    if (rc == -ENOTSUP) {
        snprintf(why, why_size, "%s", err);
        return NULL;
    }
    if (rc < 0)
        fail_msg("%s: %s", path, err);
    return vmlinux;
}

int lab_kernel_file(char *path, char *why, size_t why_size)
{
    size_t len = 0;
    uint8_t *vmlinux = lab_kernel_vmlinux(&len, why, why_size);
    FILE *fp = NULL;
    int fd;
    bool ok;

    if (!vmlinux)
        return -1;
    fd = mkstemp(path);
    ok = fd >= 0 && (fp = fdopen(fd, "wb")) && fwrite(vmlinux, 1, len, fp) == len;
    if (fp ? fclose(fp) != 0 : (fd >= 0 && close(fd) != 0))
        ok = false;
    free(vmlinux);
    if (!ok) {
        if (fd >= 0)
            unlink(path);
        fail_msg("cannot write the decompressed kernel to %s", path);
    }
    return 0;
}
