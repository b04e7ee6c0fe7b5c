/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_log.c - the commands' logging levels (see cli_log.h); the messages
 * themselves go out through the library's stderr logger.
 */
#include "config.h"

#include "cli_log.h"

void xu_cli_log_init(struct xu_log *log, enum xu_log_level dflt, int verbose, bool quiet)
{
    int level = (int)dflt - (verbose > 0 ? verbose : 0);

    xu_log_init_stderr(log, quiet ? XU_LOG_ERROR
                       : level < (int)XU_LOG_DEBUG ? XU_LOG_DEBUG : (enum xu_log_level)level);
}
