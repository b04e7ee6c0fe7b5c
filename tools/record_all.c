/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_all.c - `xen-uniprof --all -o DIR`: every guest running at the
 * start recorded at once, each by the single-domain run in a child
 * process of its own (lib/record/xu_fleet.h), into DIR/NAME<extension>.
 *
 * The exit status is 0 when every domain's file was written; otherwise
 * the most telling of the children's: a failure (1, 3, 5, 7) first, then
 * 4 (a domain's ELF missing: no file for it), then 6 (a domain ended
 * while recorded: its file is written).  3 when no guest runs.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exit_codes.h"
#include "record.h"
#include "record/xu_fleet.h"

struct all_run {
    const struct xu_options *o;
    struct xu_log *log;
    const struct xu_output_ops *fmt;
    size_t started;
    int status;                 /* the most telling so far */
};

/*
 * A file name for the domain: its name, with anything but letters,
 * digits, '.', '_', '+' and '-' replaced by '_' and no leading '.', so a
 * name can never climb out of DIR; "domain-ID" for an empty one.
 */
static void file_base(const struct xu_domain_entry *d, char *out, size_t len)
{
    size_t i;

    for (i = 0; d->name[i] && i + 1 < len; i++) {
        char c = d->name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '+' || c == '-' || (c == '.' && i > 0);

        out[i] = ok ? c : '_';
    }
    out[i] = '\0';
    if (!out[0])
        snprintf(out, len, "domain-%" PRIu32, d->domid);
}

static int record_child(void *ctx, const struct xu_fleet_member *m, int fd,
                        volatile sig_atomic_t *stop)
{
    struct all_run *r = ctx;
    struct xu_options o = *r->o;
    struct xu_log_prefixed log;
    char base[128];
    char *output = NULL, *stats = NULL;
    const char *ext = r->fmt->extensions;
    int rc = XU_EXIT_FAILURE;

    (void)fd;
    file_base(&m->dom, base, sizeof(base));
    xu_fleet_child_log(&log, r->log, m);
    if (asprintf(&output, "%s/%s%.*s", r->o->output, base, (int)strcspn(ext, " "), ext) < 0) {
        output = NULL;
        goto out;
    }
    if (r->o->stats && asprintf(&stats, "%s/%s%s", r->o->output, base, r->o->stats) < 0) {
        stats = NULL;
        goto out;
    }
    o.domain = m->id;
    o.output = output;
    o.stats = stats;
    o.format = r->fmt->name;
    o.all = false;
    rc = xu_record_options(&o, &log.log, stop, false);
out:
    if (!output)
        xu_error(&log.log, "out of memory");
    free(output);
    free(stats);
    return rc;
}

/* 0 < 6 (written, ended) < 4 (no ELF, no file) < any failure */
static int rank(int status)
{
    return status == XU_EXIT_OK ? 0 : status == XU_EXIT_DOMAIN_ENDED ? 1
           : status == XU_EXIT_SYMBOLS ? 2 : 3;
}

static void record_started(void *ctx, struct xu_fleet_member *m)
{
    struct all_run *r = ctx;

    r->started++;
    xu_info(r->log, "domain %" PRIu32 " (%s): recording", m->dom.domid, m->dom.name);
}

static void record_ended(void *ctx, struct xu_fleet_member *m, int status, bool stopped)
{
    struct all_run *r = ctx;

    (void)stopped;
    if (status == XU_EXIT_DOMAIN_ENDED)
        xu_info(r->log, "domain %" PRIu32 " (%s) ended; its file is written", m->dom.domid,
                m->dom.name);
    else if (status != XU_EXIT_OK)
        xu_error(r->log, "domain %" PRIu32 " (%s): no file written (exit status %d)",
                 m->dom.domid, m->dom.name, status);
    if (rank(status) > rank(r->status))
        r->status = status;
}

/* DIR, made when missing.  0 or an exit status (logged). */
static int make_dir(const char *dir, struct xu_log *log)
{
    struct stat st;

    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        xu_error(log, "cannot make the directory %s: %s", dir, strerror(errno));
        return XU_EXIT_FAILURE;
    }
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        xu_error(log, "--all -o %s: not a directory", dir);
        return XU_EXIT_USAGE;
    }
    return 0;
}

int xu_record_all(const struct xu_options *o, struct xu_log *log, volatile sig_atomic_t *stop)
{
    static const struct xu_fleet_ops ops = {
        .child = record_child,
        .started = record_started,
        .ended = record_ended,
    };
    struct all_run r = { .o = o, .log = log };
    struct xu_fleet_config fc = {
        .log = log,
        .stop = stop,
        .follow = false,        /* the guests of the start: a fixed set of files */
        .poll_s = 0.2,
        .stop_wait_s = 0,       /* each writes its file, however long it takes */
        .ops = &ops,
        .ctx = &r,
    };
    int rc;

    r.fmt = o->format ? xu_output_find(o->format) : xu_output_default();
    if (!r.fmt) {
        xu_error(log, "unknown format '%s' (see xen-uniprof --help)", o->format);
        return XU_EXIT_USAGE;
    }
    rc = make_dir(o->output, log);
    if (rc)
        return rc;
    rc = xu_fleet_run(&fc);
    if (rc < 0)
        return rc == -EACCES || rc == -EPERM ? XU_EXIT_PRIVILEGE : XU_EXIT_FAILURE;
    if (!r.started) {
        xu_error(log, "no running guest to record (dom0 is never recorded)");
        return XU_EXIT_NO_DOMAIN;
    }
    return r.status;
}
