/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_guardian.h - a guardian that is not a process, for tests of the
 * record, stack and top jobs: the pause word lives in this struct, and the
 * starts, stops and the word seen at the stop are counted so that a test
 * can check that every start was stopped with the guest left running.
 * One at a time (the guardian callbacks have no context of their own).
 */
#ifndef FAKE_GUARDIAN_H
#define FAKE_GUARDIAN_H

#include <stdint.h>

#include "sample/xu_guardian.h"

struct fake_guardian {
    volatile uint32_t word;     /* the pause state the job writes */
    int starts, stops;
    uint32_t word_at_stop;      /* 0xdead until a stop */
};

extern struct fake_guardian fake_guardian;

/* Zero the counts; word_at_stop reads 0xdead until the first stop. */
void fake_guardian_reset(void);

/* The two callbacks of struct xu_record_env. */
int fake_guardian_start(struct xu_guardian **out, const struct xu_target_ops *ops,
                        uint32_t domid, volatile uint32_t **pause_state, struct xu_log *log);
int fake_guardian_stop(struct xu_guardian *g);

#endif
