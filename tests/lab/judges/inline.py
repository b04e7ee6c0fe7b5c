# SPDX-License-Identifier: GPL-2.0-only
"""Inline frames and source lines (scenarios/inline.sh) on tests/guests/inlined.c, ratio.c
with function_1/2/3 inlined into main at -O2: the profile must show them as inlined frames
at the shares the guest measured itself, on their lines of ratio.c, and fold them into main
with --no-inline."""
import json
import os
import re

from .common import (begin, check_guest_after, convert_view, expect_rc, finish, parse_folded,
                     pct, read_id)
from .truth import measured_split

GUEST = "inlined"
FUNCS = ["function_1", "function_2", "function_3"]
INLINED = "_[i]"
# The issue's bound for inlined frames against the guest's own split (the guests'
# non-inlined shares are held to 1 point in profiles.py).
SHARE_TOLERANCE_PP = 2.0
GOAL_PP = 1.0                       # the lab's goal for every share (profiles.py)
MIN_SAMPLES = 19000
MIN_RECORD_SAMPLES = 2500
# Samples whose stack holds one of the three inlined frames: the rest is main's loop and
# the console line every few thousand rounds.
MIN_IN_FUNCS_PCT = 97.0
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "guests",
                      "ratio.c")


def source_lines():
    """{function_N: the line of its definition (its TIMED_WORK, one line)} and
    {function_N: the lines of main that call it}, read from the guest's source."""
    defs, calls = {}, {fn: set() for fn in FUNCS}
    with open(SOURCE, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = re.match(r"WORK_FUNCTION void (function_\d)\(void\)", line)
            if m:
                defs[m.group(1)] = no
            m = re.search(r"\b(function_\d)\(\);", line)
            if m and not line.startswith("WORK_FUNCTION"):
                calls[m.group(1)].add(no)
    return defs, calls


def strip_line(frame):
    """function_3:27_[i] -> (function_3_[i], 27); main:31 -> (main, 31)."""
    m = re.match(r"^(.*?):(\d+)(_\[i\])?$", frame)
    if not m:
        return frame, None
    return m.group(1) + (m.group(3) or ""), int(m.group(2))


def check_lines(stacks, r, reasons, what):
    """Every inlined function_N frame on its definition's line, the main frame above it on
    a line of main that calls it."""
    defs, calls = source_lines()
    bad, seen = [], 0
    for frames, c in stacks:
        named = [strip_line(f) for f in frames]
        for i, (name, line) in enumerate(named):
            fn = name[:-len(INLINED)] if name.endswith(INLINED) else None
            if fn not in FUNCS:
                continue
            seen += c
            caller = named[i - 1] if i else (None, None)
            if line != defs.get(fn) or caller[0] != "main" or caller[1] not in calls[fn]:
                bad.append(("%s:%s under %s:%s" % (fn, line, caller[0], caller[1]), c))
    r["%s_lines_checked" % what] = seen
    r["%s_lines_wrong" % what] = sum(c for _, c in bad)
    if not seen:
        reasons.append("%s: no inlined function_N frame with a line" % what)
    elif bad:
        reasons.append("%s: %d samples with wrong lines, e.g. %s (want function_N on %s, "
                       "called from main on %s)" % (what, sum(c for _, c in bad), bad[0][0],
                                                    defs, {k: sorted(v) for k, v in calls.items()}))


def start(d, sid, m):
    """begin() for a run on inlined-TYPE that must exit 0 and leave the guest running."""
    gtype = m.group(1)
    name = "%s-%s" % (GUEST, gtype)
    r, reasons, rc = begin(d, sid, guest=name, tool="xen-uniprof", guest_type=gtype)
    if reasons is not None:
        expect_rc(d, sid, rc, 0, reasons)
        check_guest_after(d, sid, name, r, reasons)
    return r, reasons


def judge_inline(d, sid, m):
    r, reasons = start(d, sid, m)
    if reasons is None:
        return r

    stacks = parse_folded(convert_view(d, sid, "inline", reasons, ".out"), inlined=True)
    total = sum(c for _, c in stacks)
    r["samples"] = total
    if total < MIN_SAMPLES:
        reasons.append("only %d samples (need >= %d)" % (total, MIN_SAMPLES))
    counts = {fn: sum(c for f, c in stacks if fn + INLINED in f) for fn in FUNCS}
    n = sum(counts.values())
    r["in_inlined_functions_pct"] = round(pct(n, total), 2)
    if total and r["in_inlined_functions_pct"] < MIN_IN_FUNCS_PCT:
        reasons.append("%.2f%% of samples in an inlined function_N frame (need >= %.0f%%)"
                       % (r["in_inlined_functions_pct"], MIN_IN_FUNCS_PCT))
    if any(fn in f for f, _ in stacks for fn in FUNCS):
        reasons.append("function_N appears as a physical frame: it is inlined in this build")
    split, details = measured_split(d, sid)
    r["truth"] = details if split is not None else {"missing": details}
    shares, worst = {}, 0.0
    for i, fn in enumerate(FUNCS, 1):
        got = round(pct(counts[fn], n), 2)
        want = split.get(i) if split else None
        shares[fn] = {"measured": got, "expected": round(want, 2) if want is not None else None,
                      "expected_from": "guest"}
        if want is None:
            reasons.append("no self-timing from the guest for %s" % fn)
            continue
        shares[fn]["deviation_pp"] = round(got - want, 2)
        shares[fn]["within_goal"] = abs(got - want) <= GOAL_PP
        worst = max(worst, abs(got - want))
        if abs(got - want) > SHARE_TOLERANCE_PP:
            reasons.append("%s_[i] %.2f%% of the samples in the three (the guest measured "
                           "%.2f%% +- %.0f)" % (fn, got, want, SHARE_TOLERANCE_PP))
    r["shares"] = shares
    r["worst_share_deviation_pp"] = round(worst, 2)

    noinline = parse_folded(convert_view(d, sid, "noinline", reasons, ".out"), inlined=True)
    if noinline:
        r["noinline_main_leaf_pct"] = round(pct(sum(c for f, c in noinline if f[-1] == "main"),
                                                sum(c for _, c in noinline)), 2)
        if any(INLINED in x for f, _ in noinline for x in f):
            reasons.append("--no-inline still shows inlined frames")
        if r["noinline_main_leaf_pct"] < MIN_IN_FUNCS_PCT:
            reasons.append("--no-inline: only %.2f%% of samples end in main (the inlined "
                           "functions folded into it)" % r["noinline_main_leaf_pct"])

    lines = convert_view(d, sid, "lines", reasons, ".out")
    if lines is not None:
        check_lines(parse_folded(lines, inlined=True), r, reasons, "lines")

    sp = convert_view(d, sid, "speedscope", reasons, ".out")
    if sp is not None:
        defs, _ = source_lines()
        try:
            frames = json.loads(sp)["shared"]["frames"]
        except (ValueError, KeyError, TypeError) as e:
            reasons.append("speedscope output unreadable: %s" % e)
            frames = []
        found = {f.get("name"): f for f in frames}
        r["speedscope_frames"] = {fn: found.get(fn + INLINED) for fn in FUNCS}
        for fn in FUNCS:
            f = found.get(fn + INLINED)
            if not f:
                reasons.append("speedscope: no frame %s%s" % (fn, INLINED))
            elif not str(f.get("file", "")).endswith("ratio.c") or f.get("line") != defs[fn]:
                reasons.append("speedscope: %s%s at %s:%s (want ratio.c:%d)"
                               % (fn, INLINED, f.get("file"), f.get("line"), defs[fn]))
    return finish(r, reasons)


def judge_inline_record(d, sid, m):
    r, reasons = start(d, sid, m)
    if reasons is None:
        return r
    stacks = parse_folded(read_id(d, sid, ".folded"), inlined=True)
    total = sum(c for _, c in stacks)
    r["samples"] = total
    if total < MIN_RECORD_SAMPLES:
        reasons.append("only %d samples (need >= %d)" % (total, MIN_RECORD_SAMPLES))
    check_lines(stacks, r, reasons, "record")
    counts = [sum(c for f, c in stacks if any(strip_line(x)[0] == fn + INLINED for x in f))
              for fn in FUNCS]
    r["counts"] = dict(zip(FUNCS, counts))
    if not counts[0] < counts[1] < counts[2]:
        reasons.append("inlined function shares out of order for the 10/30/60 guest: %s"
                       % r["counts"])
    return finish(r, reasons)


JUDGES = [
    (r"inline-(pv|pvh)", judge_inline),
    (r"inline-record-(pv|pvh)", judge_inline_record),
]
