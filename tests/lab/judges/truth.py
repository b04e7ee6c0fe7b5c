# SPDX-License-Identifier: GPL-2.0-only
"""The ground-truth guests' own measurement of where vCPU 0's running time went.

Each guest publishes `guest_truth` (tests/guests/truth.h); tests/lab/init.sh reads it
from guest memory right before and right after a profiling run (ID.truth-before,
ID.truth-after: "<dom0 ns> <hex bytes>").  The difference is what the guest measured over
the run: per timed function, cycle-counter deltas and the time Xen says the vCPU did not
run within them.  Turned into running time, that is the split a profile of the run must
show, whatever QEMU and the host did to the design split.
"""
import struct

from .common import read_id

MAGIC = 0x3148545552545558          # "XUTRUTH1"
VERSION = 1
SLOTS = 8
SLOT_BLOCK = 7                      # hcall's block_for
# magic, version, ok, read_cycles, cycles[8], notrun_ns[8], calls[8], now_cycles,
# now_notrun_ns, now_xen_ns, reads, now_blocked_ns: 33 little-endian 64-bit words.
WORDS = 4 + 3 * SLOTS + 5


def parse(text):
    """The structure as a dict, or None with why."""
    if not text or not text.strip():
        return None, "no snapshot"
    parts = text.split()
    if len(parts) != 2:
        return None, "unreadable snapshot: %s" % text.strip()[:120]
    try:
        raw = bytes.fromhex(parts[1])
    except ValueError:
        return None, "unreadable snapshot: %s" % text.strip()[:120]
    if len(raw) < WORDS * 8:
        return None, "short snapshot (%d bytes)" % len(raw)
    w = struct.unpack_from("<%dQ" % WORDS, raw)
    if w[0] != MAGIC or w[1] != VERSION:
        return None, "not a version-%d guest_truth (magic %#x, version %d)" % (
            VERSION, w[0], w[1])
    t = {"ok": w[2], "read_cycles": w[3],
         "cycles": list(w[4:4 + SLOTS]), "notrun_ns": list(w[4 + SLOTS:4 + 2 * SLOTS]),
         "calls": list(w[4 + 2 * SLOTS:4 + 3 * SLOTS])}
    (t["now_cycles"], t["now_notrun_ns"], t["now_xen_ns"],
     t["reads"], t["now_blocked_ns"]) = w[4 + 3 * SLOTS:WORDS]
    return t, None


def measured_split(d, sid):
    """{slot: % of vCPU 0's running time} over the run of scenario sid, plus details;
    (None, why) when the guest gave no usable truth."""
    before, why = parse(read_id(d, sid, ".truth-before"))
    if before is None:
        return None, "before the run: " + why
    after, why = parse(read_id(d, sid, ".truth-after"))
    if after is None:
        return None, "after the run: " + why
    if not (before["ok"] and after["ok"]):
        return None, "the guest could not register its runstate area"
    dc = after["now_cycles"] - before["now_cycles"]
    dx = after["now_xen_ns"] - before["now_xen_ns"]
    if dc <= 0 or dx <= 0:
        return None, "the guest's clocks did not move over the run"
    # Cycles per ns of Xen's time, over the whole run: the only conversion made.
    ratio = dc / dx
    total = dc - ratio * (after["now_notrun_ns"] - before["now_notrun_ns"])
    if total <= 0:
        return None, "no running time over the run"
    read = after["read_cycles"]
    run = {}
    for s in range(1, SLOT_BLOCK):
        calls = after["calls"][s] - before["calls"][s]
        if calls <= 0:
            continue
        cyc = (after["cycles"][s] - before["cycles"][s]
               - ratio * (after["notrun_ns"][s] - before["notrun_ns"][s]))
        # An interval holds about one of its two clock reads; a sampler charges both to
        # the function, whose code they are.
        run[s] = max(cyc, 0) + calls * read
    split = {s: 100.0 * v / total for s, v in run.items()}
    details = {"running_s_by_guest": round(total / ratio / 1e9, 3),
               "cycles_per_ns": round(ratio, 4), "read_cycles": read,
               "read_share_pct": round(100.0 * sum(
                   2 * (after["calls"][s] - before["calls"][s]) * read for s in run) / total, 2),
               "split_pct": {"function_%d" % s: round(v, 2) for s, v in split.items()}}
    calls = after["calls"][SLOT_BLOCK] - before["calls"][SLOT_BLOCK]
    if calls > 0:
        # Wall time, not running time: what a wall-clock profile shows as blocked.
        details["block_for_wall_pct"] = round(100.0 * (
            after["cycles"][SLOT_BLOCK] - before["cycles"][SLOT_BLOCK]) / dc, 2)
        details["xen_blocked_pct"] = round(100.0 * (
            after["now_blocked_ns"] - before["now_blocked_ns"]) / dx, 2)
    return split, details
