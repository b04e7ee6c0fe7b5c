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
 */
#ifndef XU_ATOMIC_FILE_H
#define XU_ATOMIC_FILE_H

#include <stdio.h>

struct xu_atomic_file {
    FILE *f;            /* write here */
    char *path;         /* final name */
    char *tmp_path;     /* temporary name; NULL when written in place */
};

/* NULL with errno on failure. */
struct xu_atomic_file *xu_atomic_open(const char *path);
int xu_atomic_commit(struct xu_atomic_file *af);   /* 0 or -errno; the temp file is removed on failure */
void xu_atomic_abort(struct xu_atomic_file *af);

#endif
