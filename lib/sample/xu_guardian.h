/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_guardian.h - a small process that unpauses the guest if the profiler
 * dies while the guest is paused (SIGKILL, a crash, the OOM killer).
 *
 * Start it before the first pause.  It is forked from the profiler and
 * shares one anonymous MAP_SHARED word with it: the profiler's pause state
 * (enum xu_pause_state in xu_pause.h), which the profiler's pause handle
 * (xu_pause_new() with this word) updates around every pause.  The guardian opens its own
 * target on the domain, with the same backend ops, after the fork: Xen
 * handles are never shared across fork.
 *
 * It then blocks reading a pipe whose only write end the profiler holds.
 *  - xu_guardian_stop() with the state RUNNING says "done": the guardian
 *    exits without touching the domain.
 *  - The pipe closing any other way (the profiler died; the kernel closes
 *    its descriptors whatever killed it), or stop() called while the state
 *    is not RUNNING: the guardian reads the state and hands it to
 *    xu_pause_recover(): PAUSED or PAUSING, and the domain reports itself
 *    paused, it gives our one reference back (retried as every unpause
 *    is), logs one line and exits, 1 when the unpause failed for good.
 *    Xen counts controller pauses, so one unpause undoes only our pause: a
 *    domain its admin had paused as well stays paused.
 *
 * The guardian keeps none of the profiler's descriptors but stderr: its
 * stdin and stdout are /dev/null, so `xen-uniprof -o - | consumer` ends
 * when the profiler does.  It ignores SIGINT, SIGTERM, SIGHUP (meant for
 * the profiler's process group: the profiler handles them and then stops
 * the guardian), SIGPIPE and SIGTTOU, and moves into its own process group
 * so a kill aimed at the profiler's group does not take it too.
 *
 * Use from the CLI:
 *  - start it before opening the profiler's own target, so the child
 *    inherits no Xen handles or mappings at all;
 *  - make the one pause handle of the run with *pause_state
 *    (xu_pause_new()); with --create, xu_pause_adopt() the creation pause
 *    right away, so a profiler killed before the first unpause does not
 *    leave a never-started guest behind;
 *  - pass that handle to the sampler (cfg.pause) and to
 *    xu_elf_match_guest(); call xu_guardian_stop() after the last unpause.
 * A process whose SIGCHLD is SIG_IGN reaps the guardian by itself: stop
 * then returns -ECHILD, which is harmless.
 */
#ifndef XU_GUARDIAN_H
#define XU_GUARDIAN_H

#include <stdint.h>
#include <sys/types.h>

#include "util/xu_log.h"
#include "target/xu_target.h"

struct xu_guardian;

/*
 * Fork the guardian for domid.  On success *pause_state points at the
 * shared word (initially XU_PAUSE_RUNNING), valid until xu_guardian_stop().
 * Returns once the child has opened its target (bounded wait), so a
 * guardian that could not attach is an error here, not a surprise later:
 * the child's open() error is returned.  -ENOMEM, -EAGAIN (fork), -ETIMEDOUT.
 * Every failure is logged here, once (a Xen version mismatch by the
 * child's open, in the backend's own line).
 * log is used by the child for its one line (NULL: stderr).
 */
int xu_guardian_start(struct xu_guardian **out, const struct xu_target_ops *ops,
                      uint32_t domid, volatile uint32_t **pause_state,
                      struct xu_log *log);

/*
 * Tell the guardian the run is over, wait for it to exit and free it.
 * Safe on every path: when the state is not RUNNING the guardian recovers
 * the domain instead.  Returns 0, or -ECHILD when the child ended abnormally.
 * NULL is fine.
 */
int xu_guardian_stop(struct xu_guardian *g);

/* The guardian's pid (tests and diagnostics). */
pid_t xu_guardian_pid(const struct xu_guardian *g);

#endif
