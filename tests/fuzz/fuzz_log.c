/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_log.c - a logger that formats every message and prints none: the
 * formatting runs (a bad format argument is a finding) without flooding the
 * fuzzer's output.
 */
#include "config.h"

#include "fuzz.h"

static void discard(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    (void)msg;
}

struct xu_log *xu_fuzz_log(void)
{
    static struct xu_log log = { .emit = discard, .min_level = XU_LOG_DEBUG };

    return &log;
}
