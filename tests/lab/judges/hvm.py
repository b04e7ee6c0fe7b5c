# SPDX-License-Identifier: GPL-2.0-only
"""HVM guests (scenarios/hvm.sh): the ground-truth guests booted by the device model.

The profiles are held to profiles.py's checks (the guest's own split, complete chains,
per-vCPU attribution), with the ELF found by name through the xl plugin.  Each result
also reports what booting the guest cost: seconds from `xl create` to the kernel's
GUEST_RUNNING line, the device model's resident memory and dom0's free memory then.
"""
import re

from .common import begin, expect_rc, finish, parse_folded, pct, read_id, tool_stats, xl_state
from .lifecycle import chosen_symbols, destroyed_run
from .profiles import (CHAIN_VCPU0, EXPECTED, SHARE_TOLERANCE_PP, has_chain,
                       judge as judge_profile)
from .truth import measured_split

# A guest destroyed mid-run: the samples kept, against the guest's own split over the
# window they cover (a few thousand samples, so a wider gate than a 20,000-sample run's).
DESTROYED_TOLERANCE_PP = 3.0
MIN_DESTROYED_SAMPLES = 1000
MIN_CHAINS = 99.0
MISMATCH = "does NOT match"


def boot_cost(d, guest, r):
    """What the guest's boot cost, as init.sh's hvm_wait_running recorded it."""
    secs = (read_id(d, guest, ".boot-secs", "") or "").split()
    if len(secs) == 2:
        r["boot_s"] = round(float(secs[1]) - float(secs[0]), 1)
    rss = [int(x) for x in (read_id(d, guest, ".dm-rss", "") or "").split() if x.isdigit()]
    if rss:
        r["device_model_rss_kb"] = sum(rss)
    for ext, key in ((".free-before", "dom0_mem_used_before_kb"), (".free", "dom0_mem_used_kb")):
        m = re.search(r"^Mem:\s+\d+\s+(\d+)", read_id(d, guest, ext, "") or "", re.M)
        if m:
            r[key] = int(m.group(1))


def judge_by_name(d, sid, m):
    """profiles.py's judge, and the symbols found by name: the kernel xl booted."""
    prog, nofp, _, _ = m.groups()
    guest = "%s%s-hvm" % (prog, nofp or "")
    r = judge_profile(d, sid, m)
    if "exit_code" not in r:
        return r
    reasons = r["reasons"]
    r["symbols"], r["symbols_reason"] = chosen_symbols(d, sid)
    if r["symbols"] != "/guests/%s.elf" % guest:
        reasons.append("symbols from %s, not the kernel /guests/%s.elf" % (r["symbols"], guest))
    boot_cost(d, guest, r)
    return finish(r, reasons)


def main_shares(stacks, r, reasons):
    """ratio's self shares among the samples in main (a profile from the firmware's first
    instruction also holds hvmloader's, SeaBIOS's and the option ROM's), against the
    design split: the guest did not exist before the run, so it has no measurement."""
    in_main = [(f, c) for f, c in stacks if "main" in f]
    r["boot_samples"] = sum(c for f, c in stacks) - sum(c for _, c in in_main)
    total = sum(c for _, c in in_main)
    r["samples_in_main"] = total
    if not total:
        reasons.append("no sample in main")
        return
    shares = {}
    for fn, _, want in EXPECTED["ratio"]:
        got = round(pct(sum(c for f, c in in_main if f[-1] == fn), total), 2)
        shares[fn] = {"design": want, "measured": got, "deviation_pp": round(got - want, 2)}
        if abs(got - want) > SHARE_TOLERANCE_PP:
            reasons.append("%s self share %.2f%% among main's samples (design %.0f%% +- %.0f)"
                           % (fn, got, want, SHARE_TOLERANCE_PP))
    r["shares_in_main"] = shares
    full = sum(c for f, c in in_main if has_chain(f, CHAIN_VCPU0))
    r["complete_chains_in_main"] = round(pct(full, total), 2)
    if r["complete_chains_in_main"] < MIN_CHAINS:
        reasons.append("%.2f%% of main's samples carry the full chain (need >= %.0f%%)"
                       % (r["complete_chains_in_main"], MIN_CHAINS))


def judge_create(d, sid, m):
    guest = "ratio-hvm"
    r, reasons, rc = begin(d, sid, guest=guest, program="ratio", tool="xen-uniprof",
                           guest_type="hvm", backend="xencall")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    r.update(tool_stats(d, sid))
    err = read_id(d, sid, ".stderr", "") or ""
    r["mismatch_warning"] = next((l for l in err.splitlines() if MISMATCH in l), None)
    if r["mismatch_warning"]:
        reasons.append("ELF-mismatch warning on --create: %s" % r["mismatch_warning"])
    if xl_state(read_id(d, sid, ".xllist-before", "") or "", guest) is not None:
        reasons.append("%s existed before --create" % guest)
    if not re.search(r"destroyed domain \d+", err):
        reasons.append("xen-uniprof did not say it destroyed the domain")
    r["xl_state_after"] = xl_state(read_id(d, sid, ".xllist", "") or "", guest)
    if r["xl_state_after"] is not None:
        reasons.append("%s still exists after --destroy" % guest)
    main_shares(parse_folded(read_id(d, sid, ".folded")), r, reasons)
    return finish(r, reasons)


def judge_destroyed(d, sid, m):
    r, reasons = destroyed_run(d, sid, guest="ratio-hvm", program="ratio", guest_type="hvm",
                               backend="xencall")
    if reasons is None:
        return r
    stacks = parse_folded(read_id(d, sid, ".folded"))
    total = sum(c for _, c in stacks)
    r["samples_in_output"] = total
    if total < MIN_DESTROYED_SAMPLES:
        reasons.append("only %d samples kept (need >= %d)" % (total, MIN_DESTROYED_SAMPLES))
        return finish(r, reasons)
    truth, details = measured_split(d, sid)
    r["truth"] = details if truth is not None else {"missing": details}
    shares = {}
    for fn, _, want in EXPECTED["ratio"]:
        slot = int(fn.rsplit("_", 1)[1])
        exp, source = (truth[slot], "guest") if truth and slot in truth else (want, "design")
        got = round(pct(sum(c for f, c in stacks if f[-1] == fn), total), 2)
        shares[fn] = {"design": want, "expected": round(exp, 2), "source": source,
                      "measured": got, "deviation_pp": round(got - exp, 2)}
        if abs(got - exp) > DESTROYED_TOLERANCE_PP:
            reasons.append("%s self share %.2f%% of the kept samples (%s %.2f%% +- %.0f)"
                           % (fn, got, source, exp, DESTROYED_TOLERANCE_PP))
    r["shares"] = shares
    r["complete_chains"] = round(pct(sum(c for f, c in stacks if has_chain(f, CHAIN_VCPU0)),
                                     total), 2)
    return finish(r, reasons)


JUDGES = [(r"(ratio|nested|smp)(-nofp)?-(hvm)-(xencall|xc)", judge_by_name),
          (r"create-ratio-hvm", judge_create),
          (r"destroyed-hvm", judge_destroyed)]
