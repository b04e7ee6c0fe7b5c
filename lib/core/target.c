/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * target.c - a core file behind struct xu_target_ops: the file mapped
 * read-only, registers from its contexts, frames from its pages, pause
 * and unpause doing nothing (a core never runs).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_priv.h"

struct core_target {
    void *map;
    size_t len;
    struct xu_core *core;
};

static int core_open(struct xu_target *t, uint32_t domid)
{
    (void)t;
    (void)domid;
    return -ENOSYS;     /* a core is opened by path (xu_core_target_open) */
}

static void core_close(struct xu_target *t)
{
    struct core_target *ct = t->priv;

    if (!ct)
        return;
    xu_core_free(ct->core);
    if (ct->map)
        munmap(ct->map, ct->len);
    free(ct);
    t->priv = NULL;
}

static int core_info(struct xu_target *t, struct xu_domain_info *out)
{
    const struct core_target *ct = t->priv;
    unsigned int i;

    memset(out, 0, sizeof(*out));
    out->domid = t->domid;
    out->type = ct->core->type;
    out->max_vcpu_id = ct->core->nr_vcpus - 1;
    for (i = 0; i < ct->core->nr_vcpus; i++)
        out->nr_online_vcpus += ct->core->vcpus[i].online;
    out->guest_width = 8;
    out->paused = true;
    return 0;
}

static int core_nothing(struct xu_target *t)
{
    (void)t;
    return 0;
}

static int core_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    const struct core_target *ct = t->priv;
    const struct xu_vcpu_regs *r = xu_core_vcpu(ct->core, vcpu);

    if (!r)
        return -ENOENT;
    *out = *r;
    return 0;
}

static const void *core_map_frame(struct xu_target *t, uint64_t frame)
{
    const struct core_target *ct = t->priv;
    const void *p = xu_core_frame(ct->core, frame);

    if (!p)
        errno = ENOENT;     /* not dumped: what the walk reports as unmapped */
    return p;
}

static void core_unmap_frame(struct xu_target *t, const void *addr)
{
    (void)t;
    (void)addr;
}

static const struct xu_target_ops core_ops = {
    .name = "core",
    .open = core_open,
    .close = core_close,
    .info = core_info,
    .pause = core_nothing,
    .unpause = core_nothing,
    .vcpu_regs = core_vcpu_regs,
    .map_frame = core_map_frame,
    .unmap_frame = core_unmap_frame,
};

static int map_file(const char *path, struct core_target *ct, struct xu_log *log)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

    if (fd < 0) {
        rc = -errno;
        xu_error(log, "%s: %s", path, strerror(errno));
        return rc;
    }
    if (fstat(fd, &st) < 0) {
        rc = -errno;
        xu_error(log, "%s: %s", path, strerror(-rc));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = -EISDIR;
        xu_error(log, "%s: not a regular file", path);
        goto out;
    }
    ct->len = (size_t)st.st_size;
    if (ct->len == 0) {
        rc = -EINVAL;   /* empty: parsed below as too short, one line */
        goto out;
    }
    ct->map = mmap(NULL, ct->len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (ct->map == MAP_FAILED) {
        rc = -errno;
        ct->map = NULL;
        xu_error(log, "%s: cannot map it: %s", path, strerror(-rc));
    }
out:
    close(fd);
    return rc == -EINVAL && ct->len == 0 ? 0 : rc;
}

/* t as a core target with ct, the core in buf[0..len) (ct's own mapping or the
 * caller's). */
static int open_on(struct xu_target *t, struct core_target *ct, const void *buf, size_t len,
                   const char *name, struct xu_log *log, enum xu_core_error *err)
{
    int rc;

    t->ops = &core_ops;
    t->log = log;
    t->priv = ct;
    rc = xu_core_parse(buf, len, name, log, &ct->core, err);
    if (rc < 0) {
        core_close(t);
        t->ops = NULL;
        return rc;
    }
    t->arch = ct->core->arch->ops;
    return 0;
}

int xu_core_target_open(struct xu_target *t, const char *path, struct xu_log *log,
                        enum xu_core_error *err)
{
    static const uint8_t empty[1];
    struct core_target *ct;
    enum xu_core_error dummy;
    int rc;

    memset(t, 0, sizeof(*t));
    if (!err)
        err = &dummy;
    *err = XU_CORE_OK;
    if (!(ct = calloc(1, sizeof(*ct)))) {
        xu_error(log, "out of memory");
        return -ENOMEM;
    }
    if ((rc = map_file(path, ct, log)) < 0) {
        free(ct);
        return rc;
    }
    return open_on(t, ct, ct->map ? ct->map : empty, ct->map ? ct->len : 0, path, log, err);
}

int xu_core_target_open_buffer(struct xu_target *t, const void *buf, size_t len,
                               const char *name, struct xu_log *log, enum xu_core_error *err)
{
    struct core_target *ct;

    memset(t, 0, sizeof(*t));
    if (!(ct = calloc(1, sizeof(*ct)))) {
        xu_error(log, "out of memory");
        return -ENOMEM;
    }
    return open_on(t, ct, buf, len, name, log, err);
}

const struct xu_core *xu_core_of_target(const struct xu_target *t)
{
    const struct core_target *ct = t->priv;

    return t->ops == &core_ops && ct ? ct->core : NULL;
}
