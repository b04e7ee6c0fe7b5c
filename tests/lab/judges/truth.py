# SPDX-License-Identifier: GPL-2.0-only
"""The ground-truth guests' own measurement of where vCPU 0's time went.

Each guest publishes `guest_truth` (tests/guests/truth.h); tests/lab/init.sh reads it
from guest memory right before and right after a profiling run (ID.truth-before,
ID.truth-after: "<dom0 ns> <hex bytes>").  The difference is what the guest measured over
the run: per timed function, the cycles it executed (cycle-counter deltas minus the gaps in
which it was not executing: paused, descheduled, or QEMU off the host's CPU) and, for the
cross-check, Xen's view (the time the runstate area accounted as not running).  That is the
split a profile of the run must show, whatever QEMU and the host did to the design split.
"""
import struct

from .common import read_id

MAGIC = 0x3148545552545558          # "XUTRUTH1"
VERSION = 3
SLOTS = 8
SLOT_BLOCK = 7                      # hcall: its SCHEDOP_block calls
SLOT_UPCALL = 6                     # hcall: the work of its event upcalls
HEAD = ["magic", "version", "ok", "read_cycles", "gap_cycles"]
PER_SLOT = ["cycles", "gaps", "notrun_ns", "calls"]
TAIL = ["now_cycles", "now_notrun_ns", "now_xen_ns", "now_blocked_ns", "now_offline_ns",
        "reads"]
WORDS = len(HEAD) + SLOTS * len(PER_SLOT) + len(TAIL)     # little-endian 64-bit words


def parse(text):
    """The structure as a dict, or None with why."""
    if not text or not text.strip():
        return None, "no snapshot"
    parts = text.split()
    try:
        raw = bytes.fromhex(parts[1]) if len(parts) == 2 else b""
    except ValueError:
        raw = b""
    if not raw:
        return None, "unreadable snapshot: %s" % text.strip()[:120]
    if len(raw) < WORDS * 8:
        return None, "short snapshot (%d bytes)" % len(raw)
    w = list(struct.unpack_from("<%dQ" % WORDS, raw))
    if w[0] != MAGIC or w[1] != VERSION:
        return None, "not a version-%d guest_truth (magic %#x, version %d)" % (
            VERSION, w[0], w[1])
    t = dict(zip(HEAD, w))
    i = len(HEAD)
    for name in PER_SLOT:
        t[name] = w[i:i + SLOTS]
        i += SLOTS
    t.update(zip(TAIL, w[i:]))
    return t, None


def measured_split(d, sid):
    """{slot: % of the time vCPU 0 executed} over the run of scenario sid, and details;
    (None, why) when the guest gave no usable truth."""
    before, why = parse(read_id(d, sid, ".truth-before"))
    if before is None:
        return None, "before the run: " + why
    after, why = parse(read_id(d, sid, ".truth-after"))
    if after is None:
        return None, "after the run: " + why
    if not (before["ok"] and after["ok"]):
        return None, "the guest could not register its runstate area"

    def delta(name, s=None):
        return (after[name] - before[name]) if s is None else (after[name][s] - before[name][s])

    dc, dx = delta("now_cycles"), delta("now_xen_ns")
    if dc <= 0 or dx <= 0:
        return None, "the guest's clocks did not move over the run"
    # Cycles per ns of Xen's time, over the whole run: the only conversion made, for
    # the time outside the timed intervals (main's loop, calls) and the cross-check.
    ratio = dc / dx
    read = after["read_cycles"]
    timed = [s for s in range(1, SLOT_UPCALL) if delta("calls", s) > 0]
    executed, running = {}, {}
    for s in timed:
        # An interval holds about one of its two clock reads; a sampler charges both to
        # the function, whose code they are.
        extra = delta("calls", s) * read
        executed[s] = max(delta("cycles", s) - delta("gaps", s), 0) + extra
        running[s] = max(delta("cycles", s) - ratio * delta("notrun_ns", s), 0) + extra
    # The upcalls' intervals lie inside the others (the work they interrupt) or in
    # main's loop: counted with those, not once more.
    own = [s for s in range(SLOTS) if s != SLOT_UPCALL]
    outside = dc - sum(delta("cycles", s) for s in own)
    outside_notrun = delta("now_notrun_ns") - sum(delta("notrun_ns", s) for s in own)
    # The guest reads no clock between its intervals, so the time the host took from
    # QEMU there (which Xen counts as running) is not seen as gaps: left in, it made
    # main's few instructions several points of an arm64 run on a loaded host.  The
    # host takes the CPU whatever instruction runs, so that time outside is taken out
    # at the rate the intervals measured.
    other_running = max(outside - ratio * outside_notrun, 0)
    exec_timed, run_timed = sum(executed.values()), sum(running.values())
    other = other_running * min(exec_timed / run_timed, 1.0) if run_timed > 0 else 0
    total = exec_timed + other
    run_total = run_timed + other_running
    if total <= 0 or run_total <= 0:
        return None, "no running time over the run"
    split = {s: 100.0 * v / total for s, v in executed.items()}
    gaps = sum(delta("gaps", s) for s in timed)
    notrun = sum(ratio * delta("notrun_ns", s) for s in timed)
    details = {"executed_s": round(total / ratio / 1e9, 3),
               "running_s_xen": round(run_total / ratio / 1e9, 3),
               # Gaps Xen did not account as not running: the host took the CPU from QEMU.
               "host_stolen_pct_of_running": round(100.0 * (gaps - notrun) / run_total, 2),
               "running_share_pct": round(100.0 * (1 - delta("now_notrun_ns") / dx), 2),
               "cycles_per_ns": round(ratio, 4), "read_cycles": read,
               "gap_cycles": after["gap_cycles"],
               "outside_timed_pct": round(100.0 * other / total, 2),
               "split_pct": {"function_%d" % s: round(v, 2) for s, v in split.items()},
               "running_split_pct": {"function_%d" % s: round(100.0 * v / run_total, 2)
                                     for s, v in running.items()}}
    if delta("calls", SLOT_UPCALL) > 0:
        # The upcalls' work, executed (not run: Xen's not-running time inside taken
        # out), as a share of the time the vCPU ran: what the samples taken while it
        # ran should show in the upcall.
        up = max(delta("cycles", SLOT_UPCALL) - ratio * delta("notrun_ns", SLOT_UPCALL), 0)
        ran = dc - ratio * delta("now_notrun_ns")
        details["upcalls"] = delta("calls", SLOT_UPCALL)
        details["upcall_pct_of_running"] = round(100.0 * up / ran, 3) if ran > 0 else None
    if delta("calls", SLOT_BLOCK) > 0:
        # Wall time in SCHEDOP_block, not executed time: what a wall profile shows blocked.
        details["blocked_wall_pct"] = round(100.0 * delta("cycles", SLOT_BLOCK) / dc, 2)
        details["xen_blocked_pct"] = round(100.0 * delta("now_blocked_ns") / dx, 2)
        # A sample reads the vCPU's state before it pauses the guest, so samples are
        # taken in the time the vCPU was not paused (offline, in Xen's runstate; a
        # blocked vCPU that is paused stays blocked): blocked among that time.
        details["xen_blocked_unpaused_pct"] = round(100.0 * delta("now_blocked_ns") / (
            dx - delta("now_offline_ns")), 2) if dx > delta("now_offline_ns") else None
    return split, details
