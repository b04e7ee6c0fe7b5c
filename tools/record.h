/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - profiling a live domain: the default command of xen-uniprof.
 */
#ifndef XU_TOOLS_RECORD_H
#define XU_TOOLS_RECORD_H

#include <signal.h>
#include <stdbool.h>

#include "options.h"
#include "util/xu_log.h"

/* Run the whole job described by o; returns an exit code (exit_codes.h). */
int xu_record(const struct xu_options *o);

/* One domain's run of o as given (o->all is not looked at), messages
 * through log, ended early by *stop, a progress line with progress: the
 * exit status. */
int xu_record_options(const struct xu_options *o, struct xu_log *log,
                      volatile sig_atomic_t *stop, bool progress);

/* record_all.c: --all -o DIR, every running guest (the man page's
 * RECORDING EVERY GUEST); the exit status. */
int xu_record_all(const struct xu_options *o, struct xu_log *log, volatile sig_atomic_t *stop);

/* The exit status (exit_codes.h) of a record run's result: the one
 * mapping, for recording and for top. */
int xu_record_exit_status(enum xu_record_result r);

#endif
