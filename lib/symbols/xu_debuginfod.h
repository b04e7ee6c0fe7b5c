/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_debuginfod.h - the guest's debug file from debuginfod servers, by
 * build-id: the last place the symbol search looks (xu_elf_find.h).
 *
 * The servers are the ones $DEBUGINFOD_URLS names (space-separated), as
 * for every elfutils tool; when the variable is unset or empty no server is
 * contacted, ever.  The download lands in debuginfod's own cache
 * ($DEBUGINFOD_CACHE_PATH, by default ~/.cache/debuginfod_client), so the
 * next run finds it there without the network; $DEBUGINFOD_TIMEOUT and
 * $DEBUGINFOD_MAXTIME bound each attempt as libdebuginfod documents.
 * Progress is logged at INFO at most once a second.
 */
#ifndef XU_DEBUGINFOD_H
#define XU_DEBUGINFOD_H

#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"

/* The variable that names the servers (libdebuginfod's). */
#define XU_DEBUGINFOD_URLS_ENV "DEBUGINFOD_URLS"

/*
 * Fetch the debug file of build-id id[0..len).  0 and *path (malloc'd: the
 * file in the cache), or:
 *   -ENODEV  DEBUGINFOD_URLS unset or empty: nothing was asked
 *   -ENOSYS  this build has no libdebuginfod
 *   -ELIBACC this host has no usable libdebuginfod.so.1 (Debian's libdebuginfod1)
 *   -ENOENT  the servers answered and none has it
 *   -EINVAL  an empty build-id
 *   -ENOMEM
 *   other    the servers could not be asked (-ECONNREFUSED, -ETIMEDOUT, ...)
 * The file found is logged at INFO, a failure at DEBUG only: the caller
 * names it in its own message (xu_debuginfod_servers() says where it asked).
 */
/* $DEBUGINFOD_URLS when it names a server, else NULL. */
const char *xu_debuginfod_servers(void);

int xu_debuginfod_find_debuginfo(const uint8_t *id, size_t len, struct xu_log *log,
                                 char **path);

#endif
