/*
 * cli_log.c - the commands' stderr logger (see cli_log.h).
 */
#include "config.h"

#include <stdio.h>

#include "cli_log.h"

static void cli_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    static const char *const prefix[] = {
        [XU_LOG_DEBUG] = "debug: ",
        [XU_LOG_INFO] = "",
        [XU_LOG_WARN] = "warning: ",
        [XU_LOG_ERROR] = "error: ",
    };

    (void)ctx;
    fprintf(stderr, "xen-uniprof: %s%s\n", prefix[level], msg);
}

void xu_cli_log_init(struct xu_log *log, enum xu_log_level dflt, int verbose, bool quiet)
{
    int level = (int)dflt - (verbose > 0 ? verbose : 0);

    log->emit = cli_emit;
    log->ctx = NULL;
    log->min_level = quiet ? XU_LOG_ERROR
                     : level < (int)XU_LOG_DEBUG ? XU_LOG_DEBUG : (enum xu_log_level)level;
}
