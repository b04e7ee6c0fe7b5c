# SPDX-License-Identifier: GPL-2.0-only
"""xen-uniprof against the ground truth of the guests in tests/guests/.

Scenario ids: <program>[-nofp]-<type>-<backend> (program: ratio, nested, smp, hcall), e.g.
ratio-pv-xencall, ratio-arm-xencall or nested-nofp-pvh-xc; the guest is the domain
<program>[-nofp]-<type> (the -nofp guests are built without frame pointers, for CFI
unwinding).  The expected shares are documented next to the guests' source.  hcall (x86
only) keeps the checks the other programs also have (old_checks) apart from those of the
hypercall page and the upcall (new_checks), each with the numbers measured (r["hcall"]).
"""
import os
import re
import subprocess
from collections import Counter

from .common import (begin, check_completeness, check_guest_after, expect_rc, finish,
                     known_failure, parse_folded, pct, read_id, tool_stats, truly_complete,
                     xen_cpus, xl_cpu_seconds, xl_state)
from .truth import measured_split

# The samples of a run are not independent (under QEMU the guest moves less than one round
# of its loop between two samples): across the lab's runs the shares scattered 1.4-1.8
# times as far as independent samples would.  With 20,000 samples that is still under
# 0.5 points for a 30 % share, so the 2-point tolerance holds with room; 6,000 samples
# had left about 2.2 standard deviations, and an occasional failure.
MIN_SAMPLES = 18000
SHARE_TOLERANCE_PP = 2.0
# Against the split the guest measured itself over the run (tests/guests/truth.h,
# judges/truth.py) rather than the design split, which QEMU and a busy host bend.  The
# design tolerance above holds only where a guest gives no truth.
# With two CPUs at 499 Hz the shares of 20,000-sample runs scattered about the guest's split
# with a standard deviation of about 0.4 points (nested, 8 runs: worst 0.77), so a share 1
# point off happens by chance in about 1 share of 100, and a lab judges some 100: the gate
# is 1.5 points (about 4 standard deviations), and how many shares came within 1 point is
# reported (GOAL_PP: each share's within_goal, the lab's summary).  With one CPU, shared by
# the guest and dom0's sampler, the scatter was about twice as wide (up to 2.6 points
# against 1.45 with two CPUs in one experiment at 997 Hz), so a lab with one CPU (arm64's)
# is held to 2 points.
TRUTH_TOLERANCE_PP = 1.5
TRUTH_TOLERANCE_ONE_CPU_PP = 2.0
GOAL_PP = 1.0
# A total share (nested's function_1, function_2) also holds the function's calls and
# returns and its callees' prologues, which the guest times as outside every function
# (0.5-1 % of its time): over 17 runs the totals read 0.35 points high on average and
# scattered with a standard deviation of 0.55, so they are held to 2 points.
TRUTH_TOLERANCE_TOTAL_PP = 2.0
MIN_COMPLETE_RATIO = 99.0       # % of samples with the full chain, ratio guest
MIN_VCPU_ATTRIBUTION = 97.0     # % of a vCPU's samples in its own hot function

# Ground truth (tests/guests/*.c): expected % of all samples.
# "self": the function is the leaf; "total": the function is anywhere in the stack.
EXPECTED = {
    "ratio": [("function_1", "self", 10.0), ("function_2", "self", 30.0),
              ("function_3", "self", 60.0)],
    "nested": [("function_1", "self", 10.0), ("function_2", "self", 10.0),
               ("function_3", "self", 30.0), ("function_4", "self", 20.0),
               ("function_5", "self", 30.0), ("function_1", "total", 40.0),
               ("function_2", "total", 60.0)],
}
# The guest's timed slots (function_N is slot N) that make up a total share.
TOTAL_SLOTS = {"function_1": (1, 3), "function_2": (2, 4, 5)}
# The chain every sample of vCPU 0 (and vCPU 1 of smp) must carry, root first.
CHAIN_VCPU0 = ["_start", "start_kernel", "main"]
CHAIN_VCPU1 = ["_start_ap", "secondary_main"]
# Where every chain of the guests ends (the asm entries zero the frame pointer before their
# first call, tests/guests/guest.h): a walk that reached one of them is complete, any other
# is not, whatever it was called.
ROOTS = (["_start"], ["_start_ap"])
ROOTS_MEAN = "the outermost frame is _start or _start_ap"
# smp: vCPU -> (its hot function, functions it must never show)
SMP_VCPUS = {"vcpu0": ("function_1", {"function_2", "secondary_main", "_start_ap"}),
             "vcpu1": ("function_2", {"function_1", "main", "start_kernel"})}

# hcall (tests/guests/hcall.c): ratio's busy functions, a vCPU blocked in Xen's hypercall
# page, and a periodic event upcall that interrupts whatever runs.
HCALL_BUSY = [("function_1", 10.0), ("function_2", 30.0), ("function_3", 60.0)]
# A vCPU blocked in SCHEDOP_block: the page's entry, the C wrapper, its caller.
HCALL_BLOCK_TAIL = ["block_for", "HYPERVISOR_sched_op", "hypercall_page"]
# The upcall's own frames, root first: the asm entry, then (except for a sample taken in
# the entry itself) its C handler.
UPCALL_FRAMES = ["hypervisor_callback", "do_hypervisor_callback"]
# What the upcall's C handler calls (only while the guest is in block_for: it re-arms the
# one-shot timer), so the frames above the upcall entry follow these edges.
UPCALL_CALLS = {"hypervisor_callback": {"do_hypervisor_callback"},
                "do_hypervisor_callback": {"now_ns", "HYPERVISOR_set_timer_op"},
                "HYPERVISOR_set_timer_op": {"hypercall_page"},
                "now_ns": {"hypercall_page"}}
# The frame xen-uniprof puts between an interrupted function and the upcall entry (the
# boundary of an interrupt frame).  Its name is the profiler's decision: change it here
# if the profiler's differs.
UPCALL_BOUNDARY = "[upcall]"
# Who calls whom in hcall, below main: an interrupted chain must follow these edges.
HCALL_CALLS = {"main": {"function_1", "function_2", "function_3", "block_for",
                        "console_puts", "console_hex"},
               "block_for": {"now_ns", "HYPERVISOR_set_timer_op", "HYPERVISOR_sched_op"},
               "HYPERVISOR_sched_op": {"hypercall_page"},
               "HYPERVISOR_set_timer_op": {"hypercall_page"},
               "now_ns": {"hypercall_page"},
               "console_hex": {"console_puts"},
               "console_puts": {"hypercall_page"}}
# The guest must really have blocked (samples with exactly the SCHEDOP_block chain) and
# taken upcalls, or the new checks prove nothing.  Measured under QEMU: blocked 21-28 %,
# upcalls 2-5 % on PVH (they depend on the CPU the guest gets, so only a floor is held).
# The guest times its upcalls' work (truth.h, slot 6): short (about 9 us, 450-465 a
# second), 0.6-0.7 % of the time the vCPU ran on PV, about 1 % on PVH; the rest of PVH's
# 3.5 % in the upcall is its hypercalls (re-arming the timer while blocked, leaf
# hypercall_page).  Recorded sleeping between ticks, PV met only 0.15-0.26 % here: the
# sampler woke in the same late batch of the emulator's timers as the guest's timer
# events and paused it before the upcall ran.  scenarios/profiles.sh and nofp.sh record
# hcall with --spin; in one boot (4.17, 499 Hz, xencall) the upcall's work was then 0.52 and
# 0.58 % of the unblocked PV samples against the guest's 0.61 and 0.63 %, and 1.02 and
# 0.84 % on PVH against 1.05 and 1.09 %.  The floor stays a known failure when missed
# (a host that holds the sampler back): the judge reports both figures
# (hcall.upcall_work_pct_of_unblocked, truth.upcall_pct_of_running).
MIN_BLOCKED_PCT = 2.0
MIN_UPCALL_PCT = 0.5
# Of the samples in hypercall_page (leaf, no upcall): a valid chain of hcall's call graph,
# the wrapper between the caller and the page, e.g.
# _start;start_kernel;main;block_for;HYPERVISOR_sched_op;hypercall_page.
MIN_BLOCK_CHAIN_PCT = 98.0
# Of the upcall samples: the interrupted chain (a valid chain of hcall's call graph from
# _start), UPCALL_BOUNDARY, then the upcall frames and nothing else.
MIN_UPCALL_WELLFORMED_PCT = 95.0
# Of the upcall samples outside block_for: a busy function right below the boundary (or
# right below the upcall entry, when the boundary is missing: this one checks the
# interrupted function alone).  Outside block_for the guest is in a busy function but for
# main's own loop (about 1 %) and the rare print; an unwinder that drops the interrupted
# function shows main there instead.
MIN_UPCALL_BUSY_PCT = 80.0

CHECKS = {"min_samples": MIN_SAMPLES, "share_tolerance_pp": SHARE_TOLERANCE_PP,
          "truth_tolerance_pp": TRUTH_TOLERANCE_PP,
          "truth_tolerance_one_cpu_pp": TRUTH_TOLERANCE_ONE_CPU_PP,
          "truth_tolerance_total_pp": TRUTH_TOLERANCE_TOTAL_PP, "goal_pp": GOAL_PP,
          "min_complete_chains_ratio_pct": MIN_COMPLETE_RATIO,
          "min_vcpu_attribution_pct": MIN_VCPU_ATTRIBUTION}


HCALL_CHECKS = {"upcall_boundary": UPCALL_BOUNDARY, "min_blocked_pct": MIN_BLOCKED_PCT,
                "min_upcall_pct": MIN_UPCALL_PCT, "min_block_chain_pct": MIN_BLOCK_CHAIN_PCT,
                "min_upcall_wellformed_pct": MIN_UPCALL_WELLFORMED_PCT,
                "min_upcall_busy_below_pct": MIN_UPCALL_BUSY_PCT}


def has_chain(frames, chain):
    return frames[:len(chain)] == chain


def slot(fn):
    return int(fn.rsplit("_", 1)[1])


def truth_tolerance(cpus, kind="self"):
    tol = TRUTH_TOLERANCE_PP
    if cpus == 1:
        tol = max(tol, TRUTH_TOLERANCE_ONE_CPU_PP)
    if kind == "total":
        tol = max(tol, TRUTH_TOLERANCE_TOTAL_PP)
    return tol


def split_among(truth, fns):
    """The guest's split (truth: {slot: %}) among the functions fns alone: {slot: %}."""
    t = sum(truth.get(slot(fn), 0.0) for fn in fns)
    return {slot(fn): pct(truth.get(slot(fn), 0.0), t) for fn in fns}


def want_share(fn, kind, design, truth, cpus=None):
    """(expected share, tolerance, where it comes from) of fn: the guest's measurement
    when there is one, else the design."""
    if truth is None:
        return design, SHARE_TOLERANCE_PP, "design"
    slots = (slot(fn),) if kind == "self" else TOTAL_SLOTS[fn]
    return sum(truth.get(s, 0.0) for s in slots), truth_tolerance(cpus, kind), "guest"


def record_share(shares, key, kind, design, want, tol, source, got, reasons, what):
    shares[key] = {"kind": kind, "design": design, "expected": round(want, 2),
                   "expected_from": source, "measured": got,
                   "deviation_pp": round(got - want, 2)}
    if source == "guest":
        shares[key]["within_goal"] = abs(got - want) <= GOAL_PP
    if abs(got - want) > tol:
        reasons.append("%s %.2f%% (%s %.2f%% +- %.1f)"
                       % (what, got, "the guest measured" if source == "guest" else "expected",
                          want, tol))


def worst_deviation(r):
    devs = [abs(v["deviation_pp"]) for v in r.get("shares", {}).values()
            if "deviation_pp" in v]
    if devs:
        r["worst_share_deviation_pp"] = max(devs)


def check_shares(stacks, prog, r, reasons, truth=None, cpus=None):
    """ratio and nested: every share within the tolerance of the guest's own measurement
    (truth: {slot: %}) or, without one, of the design; the full chain."""
    per_vcpu = bool(stacks) and all(re.match(r"vcpu\d+$", f[0]) for f, _ in stacks)

    def body(frames):
        return frames[1:] if per_vcpu else frames

    total = sum(c for _, c in stacks)
    names = set()
    for f, _ in stacks:
        names.update(body(f))
    shares = {}
    for fn, kind, want in EXPECTED[prog]:
        if kind == "self":
            n = sum(c for f, c in stacks if body(f) and body(f)[-1] == fn)
        else:
            n = sum(c for f, c in stacks if fn in body(f))
        got = round(pct(n, total), 2)
        exp, tol, source = want_share(fn, kind, want, truth, cpus)
        record_share(shares, "%s%s" % (fn, "" if kind == "self" else " (total)"), kind,
                     want, exp, tol, source, got, reasons, "%s %s share" % (fn, kind))
    r["shares"] = shares
    worst_deviation(r)
    full = sum(c for f, c in stacks if has_chain(body(f), CHAIN_VCPU0))
    r["complete_chains"] = round(pct(full, total), 2)
    if r["complete_chains"] < MIN_COMPLETE_RATIO:
        reasons.append("%.2f%% of samples carry the full chain %s (need >= %.0f%%)"
                       % (r["complete_chains"], ";".join(CHAIN_VCPU0), MIN_COMPLETE_RATIO))
    for fn in sorted({fn for fn, _, _ in EXPECTED[prog]}):
        if fn not in names:
            reasons.append("output does not name %s" % fn)


def check_vcpus(stacks, r, reasons):
    """smp: each vCPU's samples in its own function, never the other's."""
    if not (stacks and all(re.match(r"vcpu\d+$", f[0]) for f, _ in stacks)):
        reasons.append("folded output is not per vCPU (no vcpuN; prefixes)")
    total = sum(c for _, c in stacks)
    vc = {}
    full = 0
    for vcpu, (hot, foreign) in SMP_VCPUS.items():
        mine = [(f[1:], c) for f, c in stacks if f and f[0] == vcpu]
        n = sum(c for _, c in mine)
        hot_n = sum(c for f, c in mine if f and f[-1] == hot)
        bad = sum(c for f, c in mine if foreign & set(f))
        chain = CHAIN_VCPU0 if vcpu == "vcpu0" else CHAIN_VCPU1
        full += sum(c for f, c in mine if has_chain(f, chain))
        vc[vcpu] = {"samples": n, "hot_function": hot,
                    "hot_share": round(pct(hot_n, n), 2), "foreign_samples": bad}
        if n == 0:
            reasons.append("no samples for %s" % vcpu)
            continue
        if pct(hot_n, n) < MIN_VCPU_ATTRIBUTION:
            reasons.append("%s: only %.2f%% in %s (need >= %.0f%%)"
                           % (vcpu, pct(hot_n, n), hot, MIN_VCPU_ATTRIBUTION))
        if bad:
            reasons.append("%s: %d samples show the other vCPU's functions" % (vcpu, bad))
    r["per_vcpu"] = vc
    r["complete_chains"] = round(pct(full, total), 2)
    r["shares"] = {"%s on %s" % (v["hot_function"], k): {
        "kind": "self, per vCPU", "expected": 100.0, "measured": v["hot_share"]}
        for k, v in vc.items()}


def valid_hcall_chain(frames):
    """frames (root first) is _start;start_kernel;main then a path of hcall's call graph."""
    if not has_chain(frames, CHAIN_VCPU0):
        return False
    rest = frames[len(CHAIN_VCPU0) - 1:]
    return all(b in HCALL_CALLS.get(a, ()) for a, b in zip(rest, rest[1:]))


def top(counter, n=8):
    return [{"frames": k, "samples": v} for k, v in counter.most_common(n)]


def check_hcall(stacks, r, reasons, truth=None, cpus=None):
    """hcall: the old checks (busy shares, full chains of the busy samples, names) and the
    new ones (blocked in the hypercall page, the interrupted function below an upcall).
    Every number measured goes into r["hcall"]; the reasons say which check failed."""
    per_vcpu = bool(stacks) and all(re.match(r"vcpu\d+$", f[0]) for f, _ in stacks)
    stacks = [(f[1:] if per_vcpu else f, c) for f, c in stacks]
    total = sum(c for _, c in stacks)
    busy_names = [fn for fn, _ in HCALL_BUSY]
    upcall, blocked, busy = [], [], []
    for f, c in stacks:
        if any(x in f for x in UPCALL_FRAMES) or UPCALL_BOUNDARY in f:
            upcall.append((f, c))
        elif f and f[-1] == "hypercall_page":
            blocked.append((f, c))
        elif f and f[-1] in busy_names:
            busy.append((f, c))
    n_up = sum(c for _, c in upcall)
    n_bl = sum(c for _, c in blocked)
    n_busy = sum(c for _, c in busy)
    h = {"samples": total, "busy_samples": n_busy,
         "upcall_samples": n_up, "upcall_pct": round(pct(n_up, total), 2),
         # the samples that are not blocked in SCHEDOP_block: while the vCPU ran, what
         # the guest's own time in upcalls (r["truth"]["upcall_pct_of_running"]) is of
         "upcall_pct_of_unblocked": round(pct(n_up, total - n_bl), 2),
         # the upcall's own work (the leaf in its C half): what the guest times
         "upcall_work_pct_of_unblocked": round(pct(sum(
             c for f, c in upcall if f and f[-1] == "do_hypervisor_callback"), total - n_bl), 2),
         "upcall_boundary": UPCALL_BOUNDARY}
    r["hcall"] = h
    old, new = [], []

    # old: shares among the busy samples, their full chains, the names
    shares = {}
    busy_truth = split_among(truth, busy_names) if truth is not None else None
    for fn, want in HCALL_BUSY:
        got = round(pct(sum(c for f, c in busy if f[-1] == fn), n_busy), 2)
        exp, tol, source = want_share(fn, "self", want, busy_truth, cpus)
        record_share(shares, fn, "self, of the busy samples", want, exp, tol, source, got,
                     old, "%s share of the busy samples" % fn)
    r["shares"] = shares
    worst_deviation(r)
    full = sum(c for f, c in busy if has_chain(f, CHAIN_VCPU0))
    r["complete_chains"] = round(pct(full, n_busy), 2)
    if r["complete_chains"] < MIN_COMPLETE_RATIO:
        old.append("%.2f%% of the busy samples carry the full chain %s (need >= %.0f%%)"
                   % (r["complete_chains"], ";".join(CHAIN_VCPU0), MIN_COMPLETE_RATIO))
    names = set()
    for f, _ in stacks:
        names.update(f)
    for fn in busy_names:
        if fn not in names:
            old.append("output does not name %s" % fn)

    # new: the hypercall page.  Every sample sitting in it (no upcall) must show the wrapper
    # that called it between its caller and the page (a valid chain of the call graph), and
    # enough of them must be the vCPU blocked in SCHEDOP_block.  The other hypercalls
    # (now_ns's HVMOP_get_time, HYPERVISOR_set_timer_op) show up too, more than their time
    # would give them: a vCPU is most often descheduled, and so paused, on the way out of a
    # hypercall.
    good_pg = sum(c for f, c in blocked if valid_hcall_chain(f))
    n_block = sum(c for f, c in blocked if f == CHAIN_VCPU0 + HCALL_BLOCK_TAIL)
    h["page_samples"] = n_bl
    h["page_valid_chain_pct"] = round(pct(good_pg, n_bl), 2)
    h["blocked_samples"] = n_block
    h["blocked_pct"] = round(pct(n_block, total), 2)
    h["page_stacks"] = top(Counter({";".join(f): c for f, c in blocked}))
    want_block = ";".join(CHAIN_VCPU0 + HCALL_BLOCK_TAIL)
    if n_bl == 0:
        new.append("no sample sits in hypercall_page: the guest did not block, or its samples "
                   "lost the page")
    elif h["page_valid_chain_pct"] < MIN_BLOCK_CHAIN_PCT:
        seen = h["page_stacks"][0]["frames"] if h["page_stacks"] else "-"
        new.append("%.2f%% of the samples in hypercall_page carry a valid chain such as %s "
                   "(need >= %.0f%%); most common: %s"
                   % (h["page_valid_chain_pct"], want_block, MIN_BLOCK_CHAIN_PCT, seen))
    if h["blocked_pct"] < MIN_BLOCKED_PCT:
        new.append("%.2f%% of all samples are %s (need >= %.1f%%)"
                   % (h["blocked_pct"], want_block, MIN_BLOCKED_PCT))
    for fn in ("block_for", "HYPERVISOR_sched_op", "hypercall_page"):
        if fn not in names:
            new.append("output does not name %s" % fn)

    # new: upcalls, with the interrupted function right below them
    wellformed = busy_below = loop_up = 0
    below = Counter()
    for f, c in upcall:
        i = f.index("hypervisor_callback") if "hypervisor_callback" in f else (
            f.index("do_hypervisor_callback") if "do_hypervisor_callback" in f else
            f.index(UPCALL_BOUNDARY))
        pre, tail = f[:i], f[i:]
        tail_ok = bool(tail) and tail[0] == UPCALL_FRAMES[0] and all(
            b in UPCALL_CALLS.get(a, ()) for a, b in zip(tail, tail[1:]))
        if pre and pre[-1] == UPCALL_BOUNDARY:
            pre = pre[:-1]
            marked = True
        else:
            marked = False
        below[pre[-1] if pre else "(nothing)"] += c
        if tail_ok and marked and valid_hcall_chain(pre):
            wellformed += c
        # with or without the boundary: is the interrupted function there at all?  Counted
        # among the upcalls that did not come while block_for waited (most do on PVH).
        if "block_for" not in pre:
            loop_up += c
            if tail_ok and pre and pre[-1] in busy_names and has_chain(pre, CHAIN_VCPU0):
                busy_below += c
    h["upcall_wellformed_pct"] = round(pct(wellformed, n_up), 2)
    h["upcall_outside_block_samples"] = loop_up
    h["upcall_busy_below_pct"] = round(pct(busy_below, loop_up), 2)
    h["upcall_frame_below"] = {k: {"samples": v, "pct": round(pct(v, n_up), 2)}
                               for k, v in below.most_common(10)}
    h["upcall_stacks"] = top(Counter({";".join(f): c for f, c in upcall}))
    want_up = "%s;function_N;%s;%s[;...]" % (";".join(CHAIN_VCPU0), UPCALL_BOUNDARY,
                                            ";".join(UPCALL_FRAMES))
    if h["upcall_pct"] < MIN_UPCALL_PCT:
        # how much of its time the guest spends in upcalls moves with the host's load
        # (see known_failure()); the samples that are there are still judged below
        up_truth = (r.get("truth") or {}).get("upcall_pct_of_running")
        known_failure(r, new, "only %.2f%% of samples in the upcall (need >= %.1f%%); its "
                      "work: %.2f%% of the unblocked samples, %s%% of the time the guest ran "
                      "by its own clock (see MIN_UPCALL_PCT)"
                      % (h["upcall_pct"], MIN_UPCALL_PCT, h["upcall_work_pct_of_unblocked"],
                         up_truth if up_truth is not None else "?"))
    if n_up:
        if h["upcall_wellformed_pct"] < MIN_UPCALL_WELLFORMED_PCT:
            seen = h["upcall_stacks"][0]["frames"] if h["upcall_stacks"] else "-"
            new.append("%.2f%% of the upcall samples have the form %s (interrupted chain, "
                       "boundary, upcall frames; need >= %.0f%%); most common: %s"
                       % (h["upcall_wellformed_pct"], want_up, MIN_UPCALL_WELLFORMED_PCT, seen))
        # (judged where there are upcalls that came while busy, not only while blocked)
        if loop_up and h["upcall_busy_below_pct"] < MIN_UPCALL_BUSY_PCT:
            new.append("%.2f%% of the upcall samples outside block_for show a busy function "
                       "right below the upcall (need >= %.0f%%); below any upcall: %s"
                       % (h["upcall_busy_below_pct"], MIN_UPCALL_BUSY_PCT,
                          ", ".join("%s %.1f%%" % (k, v["pct"])
                                    for k, v in list(h["upcall_frame_below"].items())[:4])))
    r["old_checks"] = {"pass": not old, "reasons": old}
    r["new_checks"] = {"pass": not new, "reasons": new}
    reasons.extend(old)
    reasons.extend("new check: " + x for x in new)


def judge_run(d, sid, guest, prog, min_samples=MIN_SAMPLES, guest_gone_after=False,
              **fields):
    """A xen-uniprof run whose folded output is <sid>.folded, against program prog's
    ground truth.  Other judges use it too (e.g. a profile taken from the guest's boot,
    whose guest must be gone afterwards: guest_gone_after)."""
    r, reasons, rc = begin(d, sid, guest=guest, program=prog, tool="xen-uniprof", **fields)
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    r.update(tool_stats(d, sid))

    after = read_id(d, sid, ".xllist")
    if guest_gone_after:
        r["xl_state_after"] = xl_state(after, guest)
        if r["xl_state_after"] is not None:
            reasons.append("guest %s still exists after the run (xl list state %s)"
                           % (guest, r["xl_state_after"]))
    else:
        check_guest_after(d, sid, guest, r, reasons)
    # How much CPU the guest itself got while being profiled: the samples can only be as
    # independent as the guest's progress between them allows.
    c0 = xl_cpu_seconds(read_id(d, sid, ".xllist-before"), guest)
    c1 = xl_cpu_seconds(after, guest)
    secs = (read_id(d, sid, ".secs", "") or "").split()
    if c0 is not None and c1 is not None and len(secs) == 2:
        wall = float(secs[1]) - float(secs[0])
        r["guest_cpu_s"] = round(c1 - c0, 1)
        r["guest_cpu_share_pct"] = round(pct(c1 - c0, wall), 1) if wall > 0 else None

    folded = read_id(d, sid, ".folded")
    if folded is None:
        reasons.append("no folded output")
        r.update({"pass": False, "reasons": reasons})
        return r
    stacks = parse_folded(folded)
    total = sum(c for _, c in stacks)
    r["samples_in_output"] = total
    r.setdefault("samples", total)
    if total < min_samples:
        reasons.append("only %d samples (need >= %d)" % (total, min_samples))
    check_completeness(d, sid, truly_complete(stacks, ROOTS), total, r, reasons, ROOTS_MEAN)
    truth = None
    if prog in EXPECTED or prog == "hcall":
        truth, details = measured_split(d, sid)
        r["truth"] = details if truth is not None else {"missing": details}
    cpus = xen_cpus(d)
    r["xen_cpus"] = cpus
    if prog in EXPECTED:
        check_shares(stacks, prog, r, reasons, truth, cpus)
    elif prog == "hcall":
        check_hcall(stacks, r, reasons, truth, cpus)
    else:
        check_vcpus(stacks, r, reasons)
    return finish(r, reasons)


def twin_deltas(d, r, twin):
    """A -nofp run next to its frame-pointer twin of the same boot, if that ran: how far
    apart their shares are, in points.  Reported, not judged: each is already held to the
    ground truth, and a self share depends only on where the guest was, not on the
    unwinder (the leaf is the sampled instruction pointer)."""
    stacks = parse_folded(read_id(d, twin, ".folded"))
    if not stacks or "shares" not in r:
        return
    t = {}
    check_shares(stacks, r["program"], t, [])
    deltas = {k: round(v["measured"] - t["shares"][k]["measured"], 2)
              for k, v in r["shares"].items() if k in t["shares"]}
    r["fp_twin"] = {"id": twin, "delta_pp": deltas,
                    "max_abs_delta_pp": max(abs(v) for v in deltas.values())}


def judge(d, sid, m):
    """m: program, -nofp, guest type, ..., backend last (JUDGES here, hvm.py's too)."""
    prog, nofp, gtype, backend = m.group(1), m.group(2), m.group(3), m.group(m.lastindex)
    guest = "%s%s-%s" % (prog, nofp or "", gtype)
    r = judge_run(d, sid, guest, prog, guest_type=gtype, backend=backend,
                  frame_pointers=not nofp,
                  checks=dict(CHECKS, **HCALL_CHECKS) if prog == "hcall" else CHECKS)
    if nofp and prog in EXPECTED:
        twin_deltas(d, r, "%s-%s-%s" % (prog, gtype, backend))
    return r


# How a function of the guest sets up its frame pointer, per guest type: the objdump
# that reads it and the instruction (x86-64: mov %rsp,%rbp; AArch64: mov x29, sp).
FP_SETUP = {"pv": ("objdump", r"mov\s+%rsp,%rbp"), "pvh": ("objdump", r"mov\s+%rsp,%rbp"),
            "arm": ("aarch64-linux-gnu-objdump", r"(mov|add)\s+x29,\s*sp")}
# 32-bit x86 (tests/guests/x86_32): mov %esp,%ebp.  A -fomit-frame-pointer i386 function
# still pushes EBP when it uses it as a general register, so the push alone says nothing.
for _t in ("x86_32-pvh", "x86_32pae-pvh", "x86_32-hvm", "x86_32pae-hvm", "x86_32-pv"):
    FP_SETUP[_t] = ("objdump", r"mov\s+%esp,%ebp")
# ARMv7 (tests/guests/arm32), GCC: add fp, sp, #N in ARM code; r7 set from sp in Thumb-2
# (add r7, sp, #N, or mov r7, sp).  Without frame pointers GCC may still push r11 or r7
# as a callee-saved register, so again the push alone says nothing.
for _t in ("arm32", "arm32lpae"):
    FP_SETUP[_t] = ("arm-linux-gnueabihf-objdump", r"add\s+fp,\s*sp")
FP_SETUP["arm32thumb"] = ("arm-linux-gnueabihf-objdump", r"(add|mov)\s+r7,\s*sp")


def sets_frame_pointer(elf, gtype, function):
    """Whether FUNCTION in ELF sets up a frame pointer, from its code (None: unreadable)."""
    tool, pattern = FP_SETUP[gtype]
    try:
        out = subprocess.run([tool, "-d", "--no-show-raw-insn", "--disassemble=" + function,
                              elf], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    if "<%s>:" % function not in out:
        return None
    return re.search(pattern, out) is not None


def judge_fp_control(d, sid, m):
    """The control of the -nofp runs: the guest's busy code must really be built without
    frame pointers (read from its ELF), or the CFI runs' pass would prove nothing.  The
    frame-pointer unwinder now follows functions without a frame record by their
    prologues, so the share of full chains it finds is recorded, not gated; the run is
    -q without --stats, so it reports no completeness to hold against the truth."""
    prog, gtype = m.groups()
    guest = "%s-nofp-%s" % (prog, gtype)
    r, reasons, rc = begin(d, sid, guest=guest, program=prog, guest_type=gtype,
                           tool="xen-uniprof", unwind="fp", control=True)
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    stacks = parse_folded(read_id(d, sid, ".folded"))
    total = sum(c for _, c in stacks)
    full = sum(c for f, c in stacks if has_chain(f, CHAIN_VCPU0))
    r["samples"] = total
    r["complete_chains"] = round(pct(full, total), 2)
    # the walks that lost their way must not be called complete either
    check_completeness(d, sid, truly_complete(stacks, ROOTS), total, r, reasons, ROOTS_MEAN)
    # tests/guests/Makefile: <prog>-nofp-<pv|pvh>.elf, the arm64 ones <prog>-nofp-arm64.elf
    elf = os.path.join(os.path.dirname(os.path.abspath(d)), "guests",
                       "%s-nofp-%s.elf" % (prog, "arm64" if gtype == "arm" else gtype))
    fp = sets_frame_pointer(elf, gtype, "function_1")
    r["function_1_sets_frame_pointer"] = fp
    if total == 0:
        reasons.append("no samples")
    if fp is None:
        reasons.append("cannot read function_1's code in %s" % elf)
    elif fp:
        reasons.append("function_1 of %s sets up a frame pointer: the guest was not built "
                       "without them" % guest)
    return finish(r, reasons)


# Guest types: pv and pvh (x86_64), arm (arm64: tests/guests/arm64, no PV/PVH there),
# the 32-bit x86 guests of scenarios/x86_32.sh (tests/guests/x86_32: 2-level paging or PAE,
# PVH or HVM).
X86_32_TYPES = r"x86_32(?:pae)?-(?:pvh|hvm)|x86_32-pv"
# and the ARMv7 guests of scenarios/arm32.sh (tests/guests/arm32: ARM or Thumb-2 code,
# short-descriptor or LPAE tables), whose -nofp builds are also unwound with their EHABI
# tables (an -ehabi infix before the backend: the same judgement).
ARM32_TYPES = r"arm32|arm32thumb|arm32lpae"
GUEST_TYPES = r"pv|pvh|arm|%s|%s" % (X86_32_TYPES, ARM32_TYPES)
JUDGES = [(r"(ratio|nested|smp|hcall)(-nofp)?-(%s)(-ehabi)?-(xencall|xc)" % GUEST_TYPES,
           judge),
          (r"(ratio|nested|hcall)-nofp-(%s)-fp-control" % GUEST_TYPES, judge_fp_control)]
