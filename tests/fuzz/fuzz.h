/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - what every harness of tests/fuzz/ is: one libFuzzer entry point.
 *
 * Built with --enable-fuzzing, libFuzzer supplies main(); otherwise
 * replay.c does, and runs the harness over its checked-in corpus and past
 * crash inputs, so `make check` keeps every finding fixed.
 */
#ifndef XU_FUZZ_H
#define XU_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/xu_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A FILE that discards what is written (the writers' output is not checked,
 * only that producing it is safe). */
FILE *xu_fuzz_sink(void);
/* A logger that formats and drops every message. */
struct xu_log *xu_fuzz_log(void);
/* The input as a file with a path (one memfd, rewritten each call), for
 * readers that open a path; NULL if it could not be written. */
const char *xu_fuzz_as_file(const uint8_t *data, size_t size);

#endif
