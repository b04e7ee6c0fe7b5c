# SPDX-License-Identifier: GPL-2.0-only
"""xen-uniprof top, the live view (scenarios/top.sh).

top-ratio-<type>: `xen-uniprof top -b -n 5 -d 10` on the ratio guest, found by name.
  Exit 0, exactly five snapshots numbered 1 to 5 for domain ratio-<type>, each with its
  header and table; in the last one function_1, function_2 and function_3 at the designed
  10/30/60 % self shares within SHARE_TOLERANCE_PP; the guest running afterwards.  The
  split the guest measured itself over about the last window (TRUTH_WINDOW) is reported
  beside each share (truth_deviation_pp), not judged: the design is what was asked.
top-sigint-ratio-<type>: top with no -n, SIGINT after 4 s: exit 0, at least one snapshot,
  the guest running (not paused) afterwards.
"""
import re

from .common import begin, check_guest_after, expect_rc, finish, read_id
from .truth import measured_split

SHARE_TOLERANCE_PP = 3.0
SNAPSHOTS = 5
DESIGN = [("function_1", 10.0), ("function_2", 30.0), ("function_3", 60.0)]
CHECKS = {"share_tolerance_pp": SHARE_TOLERANCE_PP, "snapshots": SNAPSHOTS,
          "design": dict(DESIGN)}

# The batch format (man page, TOP): a header line, a rate line, optional "paused by
# someone else" and "no symbols" lines, an empty line, the column titles, rows
# "SELF TOTAL NAME", an empty line.
HEAD_RE = re.compile(r"xen-uniprof top: snapshot (\d+) at ([\d.]+) s, domain (\d+) \((.*)\), "
                     r"(\d+) vCPUs?$")
RATE_RE = re.compile(r"rate ([\d.]+)/s \(([\d.e+]+) Hz asked\), (\d+) missed, paused median "
                     r"([\d.]+) us, (\d+) samples, ([\d.]+%|-) complete$")
ROW_RE = re.compile(r"\s*([\d.]+)\s+([\d.]+)  (.+)$")
MORE_RE = re.compile(r"  \((\d+) more\)$")


def parse_snapshots(text):
    """[{index, elapsed_s, domid, domain, vcpus, rate, ..., rows: {name: (self, total)}}],
    and the lines that fit no part of the format."""
    snaps, bad, cur = [], [], None
    for line in (text or "").splitlines():
        m = HEAD_RE.match(line)
        if m:
            cur = {"index": int(m.group(1)), "elapsed_s": float(m.group(2)),
                   "domid": int(m.group(3)), "domain": m.group(4), "vcpus": int(m.group(5)),
                   "rows": {}}
            snaps.append(cur)
            continue
        if cur is None:
            bad.append(line)
            continue
        m = RATE_RE.match(line)
        if m:
            cur.update({"rate_hz": float(m.group(1)), "asked_hz": float(m.group(2)),
                        "missed": int(m.group(3)), "paused_median_us": float(m.group(4)),
                        "samples": int(m.group(5)),
                        "complete_pct": None if m.group(6) == "-" else float(m.group(6)[:-1])})
            continue
        if line.startswith("paused by someone else at "):
            cur["paused_by_other"] = True
            continue
        if line == "" or line.startswith("  SELF%  TOTAL%  FUNCTION") or \
                line.startswith("no symbols:") or MORE_RE.match(line):
            continue
        m = ROW_RE.match(line)
        if m:
            cur["rows"][m.group(3)] = (float(m.group(1)), float(m.group(2)))
            continue
        bad.append(line)
    return snaps, bad


def judge_ratio(d, sid, m):
    gtype = m.group(1)
    guest = "ratio-%s" % gtype
    r, reasons, rc = begin(d, sid, guest=guest, program="ratio", guest_type=gtype,
                           tool="xen-uniprof top", checks=CHECKS)
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    snaps, bad = parse_snapshots(read_id(d, sid, ".stdout", ""))
    r["snapshots"] = len(snaps)
    if bad:
        reasons.append("%d lines of stdout fit no part of the batch format, first: %r"
                       % (len(bad), bad[0]))
    if [s["index"] for s in snaps] != list(range(1, SNAPSHOTS + 1)):
        reasons.append("snapshots numbered %s (expected 1 to %d)"
                       % ([s["index"] for s in snaps], SNAPSHOTS))
    for s in snaps:
        if s["domain"] != guest:
            reasons.append("snapshot %d names domain %r" % (s["index"], s["domain"]))
            break
        if "samples" not in s:
            reasons.append("snapshot %d has no rate line" % s["index"])
            break
    if not snaps:
        return finish(r, reasons)
    last = snaps[-1]
    r["last"] = {k: last.get(k) for k in ("index", "elapsed_s", "rate_hz", "missed",
                                          "paused_median_us", "samples", "complete_pct")}
    truth, details = measured_split(d, sid)
    r["truth"] = details if truth is not None else {"missing": details}
    shares = {}
    for fn, want in DESIGN:
        got = last["rows"].get(fn, (0.0, 0.0))[0]
        shares[fn] = {"design": want, "measured": got, "deviation_pp": round(got - want, 2)}
        if truth is not None:
            t = truth.get(int(fn.rsplit("_", 1)[1]), 0.0)
            shares[fn]["guest_measured"] = round(t, 2)
            shares[fn]["truth_deviation_pp"] = round(got - t, 2)
        if fn not in last["rows"]:
            reasons.append("%s missing from the last snapshot" % fn)
        elif abs(got - want) > SHARE_TOLERANCE_PP:
            reasons.append("%s self share %.1f%% in the last snapshot (designed %.0f%% +- %.0f)"
                           % (fn, got, want, SHARE_TOLERANCE_PP))
    r["shares"] = shares
    # Against the design, over a 10 s window of about 5,000 samples: not the lab's
    # 1-point measure (20,000 samples against the guest's own split), so kept apart.
    r["worst_design_deviation_pp"] = max(abs(v["deviation_pp"]) for v in shares.values())
    return finish(r, reasons)


def judge_sigint(d, sid, m):
    gtype = m.group(1)
    guest = "ratio-%s" % gtype
    r, reasons, rc = begin(d, sid, guest=guest, program="ratio", guest_type=gtype,
                           tool="xen-uniprof top", signal="SIGINT")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    snaps, bad = parse_snapshots(read_id(d, sid, ".stdout", ""))
    r["snapshots"] = len(snaps)
    if not snaps:
        reasons.append("no snapshot before SIGINT")
    if bad:
        reasons.append("%d lines of stdout fit no part of the batch format, first: %r"
                       % (len(bad), bad[0]))
    return finish(r, reasons)


JUDGES = [
    (r"top-ratio-(pv|pvh|arm)", judge_ratio),
    (r"top-sigint-ratio-(pv|pvh|arm)", judge_sigint),
]
