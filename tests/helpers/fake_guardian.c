/* SPDX-License-Identifier: GPL-2.0-only */
/* fake_guardian.c - a guardian that is not a process (see fake_guardian.h). */
#include "config.h"

#include "fake_guardian.h"
#include "target/xu_pause.h"

struct fake_guardian fake_guardian;

void fake_guardian_reset(void)
{
    fake_guardian.starts = fake_guardian.stops = 0;
    fake_guardian.word_at_stop = 0xdead;
}

int fake_guardian_start(struct xu_guardian **out, const struct xu_target_ops *ops,
                        uint32_t domid, volatile uint32_t **pause_state, struct xu_log *log)
{
    (void)ops;
    (void)domid;
    (void)log;
    fake_guardian.starts++;
    fake_guardian.word = XU_PAUSE_RUNNING;
    *pause_state = &fake_guardian.word;
    *out = (struct xu_guardian *)&fake_guardian;
    return 0;
}

int fake_guardian_stop(struct xu_guardian *g)
{
    (void)g;
    fake_guardian.stops++;
    fake_guardian.word_at_stop = fake_guardian.word;
    return 0;
}
