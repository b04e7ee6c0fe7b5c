/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - profiling a live domain: the default command of xen-uniprof.
 */
#ifndef XU_TOOLS_RECORD_H
#define XU_TOOLS_RECORD_H

#include "options.h"

/* Run the whole job described by o; returns an exit code (exit_codes.h). */
int xu_record(const struct xu_options *o);

/* The exit status (exit_codes.h) of a record run's result: the one
 * mapping, for recording and for top. */
int xu_record_exit_status(enum xu_record_result r);

#endif
