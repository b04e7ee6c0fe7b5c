# SPDX-License-Identifier: GPL-2.0-only
"""xen-uniprof against the ground truth of the guests in tests/guests/.

Scenario ids: <program>[-nofp]-<type>-<backend>, e.g. ratio-pv-xencall, ratio-arm-xencall or
nested-nofp-pvh-xc; the guest is the domain <program>[-nofp]-<type> (the -nofp guests are
built without frame pointers, for CFI unwinding).  The expected shares are documented next
to the guests' source.
"""
import re

from .common import (begin, check_guest_after, expect_rc, finish, parse_folded, pct, read_id,
                     tool_stats, xl_cpu_seconds, xl_state)

# The samples of a run are not independent (under QEMU the guest moves less than one round
# of its loop between two samples): across the lab's runs the shares scattered 1.4-1.8
# times as far as independent samples would.  With 20,000 samples that is still under
# 0.5 points for a 30 % share, so the 2-point tolerance holds with room; 6,000 samples
# had left about 2.2 standard deviations, and an occasional failure.
MIN_SAMPLES = 18000
SHARE_TOLERANCE_PP = 2.0
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
# The chain every sample of vCPU 0 (and vCPU 1 of smp) must carry, root first.
CHAIN_VCPU0 = ["_start", "start_kernel", "main"]
CHAIN_VCPU1 = ["_start_ap", "secondary_main"]
# smp: vCPU -> (its hot function, functions it must never show)
SMP_VCPUS = {"vcpu0": ("function_1", {"function_2", "secondary_main", "_start_ap"}),
             "vcpu1": ("function_2", {"function_1", "main", "start_kernel"})}
CHECKS = {"min_samples": MIN_SAMPLES, "share_tolerance_pp": SHARE_TOLERANCE_PP,
          "min_complete_chains_ratio_pct": MIN_COMPLETE_RATIO,
          "min_vcpu_attribution_pct": MIN_VCPU_ATTRIBUTION}


def has_chain(frames, chain):
    return frames[:len(chain)] == chain


def check_shares(stacks, prog, r, reasons):
    """ratio and nested: every expected share within the tolerance, the full chain."""
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
        shares["%s%s" % (fn, "" if kind == "self" else " (total)")] = {
            "kind": kind, "expected": want, "measured": got}
        if abs(got - want) > SHARE_TOLERANCE_PP:
            reasons.append("%s %s share %.2f%% (expected %.0f%% +- %.0f)"
                           % (fn, kind, got, want, SHARE_TOLERANCE_PP))
    r["shares"] = shares
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
    if prog in EXPECTED:
        check_shares(stacks, prog, r, reasons)
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
    prog, nofp, gtype, backend = m.groups()
    guest = "%s%s-%s" % (prog, nofp or "", gtype)
    r = judge_run(d, sid, guest, prog, guest_type=gtype, backend=backend,
                  frame_pointers=not nofp, checks=CHECKS)
    if nofp:
        twin_deltas(d, r, "%s-%s-%s" % (prog, gtype, backend))
    return r


MAX_CONTROL_CHAINS = 10.0   # % of full chains a frame-pointer walk may find without them


def judge_fp_control(d, sid, m):
    """The control of the -nofp runs: the frame-pointer unwinder on the same guest must
    lose the chains (leaf only), or the guest was not built the way the CFI runs need
    and their pass would prove nothing."""
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
    if total == 0:
        reasons.append("no samples")
    elif r["complete_chains"] > MAX_CONTROL_CHAINS:
        reasons.append("the frame-pointer walk found %.2f%% full chains on a guest built "
                       "without frame pointers (expected <= %.0f%%)"
                       % (r["complete_chains"], MAX_CONTROL_CHAINS))
    return finish(r, reasons)


# Guest types: pv and pvh (x86_64), arm (arm64: tests/guests/arm64, no PV/PVH there).
JUDGES = [(r"(ratio|nested|smp)(-nofp)?-(pv|pvh|arm)-(xencall|xc)", judge),
          (r"(ratio|nested)-nofp-(pv|pvh|arm)-fp-control", judge_fp_control)]
