/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inlined: ratio (ratio.c) as an optimised unikernel build makes it, its
 * three functions inlined into main (built with -O2: Makefile).  In the
 * binary main is the only physical function; DWARF says which inlined
 * function each of its instructions belongs to.
 *
 * Expected, with inline frames: _start;start_kernel;main;function_N_[i] at
 * 10/30/60 % (each against the guest's own timing, truth.h), function_N on
 * its line of ratio.c; with --no-inline: _start;start_kernel;main for all.
 */
#define GUEST_NAME "inlined"
#define WORK_FUNCTION static inline __attribute__((always_inline))
#include "ratio.c"
