/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_log.h - how loud each xen-uniprof command logs.
 *
 * Messages go to stderr as "xen-uniprof: [warning: |error: |debug: ]text".
 * Each command has its own default level (recording is chatty, info and up:
 * it says which ELF it chose and why; convert and diff are quiet filters,
 * warnings and up); each -v lowers the threshold one level, -q shows errors
 * only.
 */
#ifndef XU_CLI_LOG_H
#define XU_CLI_LOG_H

#include <stdbool.h>

#include "util/xu_log.h"

void xu_cli_log_init(struct xu_log *log, enum xu_log_level dflt, int verbose, bool quiet);

#endif
