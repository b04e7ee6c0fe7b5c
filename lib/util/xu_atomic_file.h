/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_atomic_file.h - a file that appears whole or not at all.
 *
 * xu_atomic_open() creates "<dir>/.<name>.XXXXXX" beside path;
 * xu_atomic_commit() flushes, fsyncs and renames it over path;
 * xu_atomic_abort() removes it.  Exactly one of commit/abort must follow a
 * successful open; both free the struct.
 *
 * Only regular files are replaced: a symbolic link's target is replaced
 * (the link stays), and an existing non-regular file (/dev/null, a FIFO)
 * is written in place (tmp_path is then NULL).  A directory is EISDIR.
 *
 * A write that fails keeps its errno (write_errno), so a full disk is
 * reported as ENOSPC, not as the EIO that a failed fprintf leaves writers
 * to guess.
 *
 * A process killed while a temporary file exists would leave it behind:
 * every temporary file is tracked from open to commit/abort, and
 * xu_atomic_remove_temporaries() (async-signal-safe) removes those still
 * there.  xu_atomic_cleanup_on_signals() installs handlers that do that for
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT, then die of the signal as before; a
 * program with handlers of its own calls xu_atomic_remove_temporaries()
 * from them instead.
 */
#ifndef XU_ATOMIC_FILE_H
#define XU_ATOMIC_FILE_H

#include <stdio.h>

struct xu_atomic_file {
    FILE *f;            /* write here */
    char *path;         /* final name */
    char *tmp_path;     /* temporary name; NULL when written in place */
    int fd;             /* what f writes to */
    int write_errno;    /* the first failed write's errno, 0 if none */
    int track_slot;     /* see xu_atomic_remove_temporaries(); -1 if untracked */
};

/* NULL with errno on failure. */
struct xu_atomic_file *xu_atomic_open(const char *path);
int xu_atomic_commit(struct xu_atomic_file *af);   /* 0 or -errno; the temp file is removed on failure */
void xu_atomic_abort(struct xu_atomic_file *af);

/* The reason to report for a writer's rc: -write_errno when the writer said
 * -EIO and a write had failed with a more precise errno, else rc. */
int xu_atomic_reason(const struct xu_atomic_file *af, int rc);

/* Remove every temporary file not yet committed or aborted: for signal
 * handlers (async-signal-safe; the structs are left to exit). */
void xu_atomic_remove_temporaries(void);
/* Handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that remove the
 * temporaries and then die of the signal; a signal ignored (nohup) stays
 * ignored.  0 or -errno. */
int xu_atomic_cleanup_on_signals(void);

#endif
