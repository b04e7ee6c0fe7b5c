# SPDX-License-Identifier: GPL-2.0-only
"""The guest's life around the profiler: scenarios/lifecycle.sh.

Each judge checks what its case is about; the shares themselves are profiles.py's
business, except for create-ratio-pv, a whole profile taken from the guest's boot.
"""
import re

from .common import (begin, check_completeness, check_guest_after, expect_rc, finish,
                     parse_folded, pct, read_id, stderr_tail, tool_stats, truly_complete,
                     xl_state)
from .profiles import CHAIN_VCPU0, EXPECTED, ROOTS, ROOTS_MEAN, has_chain, judge_run

EXIT_FAILURE = 1
EXIT_SYMBOLS = 4
EXIT_DOMAIN_ENDED = 6
MIN_CHAINS = 99.0
KILLS = 100
# admin-paused-mid-pv: 2 s of a 5 s run paused (about 40 % of the deadlines), and the
# self shares of about 3 s of samples, which a frozen stack would move by tens of points.
MIN_SKIPPED_PCT = 20.0
MID_PAUSE_SHARE_PP = 5.0
RATIO_FUNCTIONS = [fn for fn, _, _ in EXPECTED["ratio"]]


def check_ratio_profile(d, sid, r, reasons, min_samples):
    """The ratio guest's functions by name, nearly every chain whole, function_3 on top:
    the symbols found are the right ones."""
    stacks = parse_folded(read_id(d, sid, ".folded"))
    total = sum(c for _, c in stacks)
    r["samples_in_output"] = total
    if total < min_samples:
        reasons.append("only %d samples in the output (need >= %d)" % (total, min_samples))
        return
    leaf = {fn: sum(c for f, c in stacks if f[-1] == fn) for fn in RATIO_FUNCTIONS}
    r["self_shares"] = {fn: round(pct(n, total), 2) for fn, n in leaf.items()}
    r["complete_chains"] = round(pct(sum(c for f, c in stacks if has_chain(f, CHAIN_VCPU0)),
                                     total), 2)
    check_completeness(d, sid, truly_complete(stacks, ROOTS), total, r, reasons, ROOTS_MEAN)
    missing = [fn for fn, n in leaf.items() if n == 0]
    if missing:
        reasons.append("the profile does not name %s" % ", ".join(missing))
    elif not leaf["function_1"] < leaf["function_2"] < leaf["function_3"]:
        reasons.append("self shares out of order for the 10/30/60 guest: %s" % r["self_shares"])
    if r["complete_chains"] < MIN_CHAINS:
        reasons.append("%.2f%% of samples carry the chain %s (need >= %.0f%%)"
                       % (r["complete_chains"], ";".join(CHAIN_VCPU0), MIN_CHAINS))


def chosen_symbols(d, sid):
    """xen-uniprof's `symbols: PATH (REASON)` line: (path, reason) or (None, None)."""
    m = re.search(r"^xen-uniprof: symbols: (\S+) \((.*)\)$", read_id(d, sid, ".stderr", "") or "",
                  re.M)
    return (m.group(1), m.group(2)) if m else (None, None)


def judge_found(d, sid, m, want_path, want_reason, guest, extra_line=None):
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type=m.group(m.lastindex))
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    r["symbols"], r["symbols_reason"] = chosen_symbols(d, sid)
    if r["symbols"] != want_path or r["symbols_reason"] != want_reason:
        reasons.append("chose %s (%s); expected %s (%s)" % (r["symbols"], r["symbols_reason"],
                                                             want_path, want_reason))
    if extra_line and not re.search(extra_line, read_id(d, sid, ".stderr", "") or ""):
        reasons.append("stderr lacks /%s/" % extra_line)
    check_guest_after(d, sid, guest, r, reasons)
    check_ratio_profile(d, sid, r, reasons, 2000)
    return finish(r, reasons)


def judge_find_elf(d, sid, m):
    t = m.group(1)
    if t == "arm":
        # xl boots a raw Image on arm: the symbols can only come from beside it.
        return judge_found(d, sid, m, "/guests/ratio-arm64.Image.dbg", ".dbg sibling",
                           "ratio-arm")
    return judge_found(d, sid, m, "/guests/ratio-%s.elf" % t, "kernel has symbols",
                       "ratio-%s" % t)


def judge_find_elf_xenstore(d, sid, m):
    t = m.group(1)
    return judge_found(d, sid, m, "/guests/ratio-%s.elf" % t, "kernel has symbols",
                       "ratio-%s" % t, extra_line=r"xl-plugin not loaded .*: using xenstore")


def judge_dbg_sibling(d, sid, m):
    t = m.group(1)
    return judge_found(d, sid, m, "/guests/stripped/ratio-%s.dbg" % t, ".dbg sibling",
                       "ratio-stripped-%s" % t)


def judge_stripped_only(d, sid, m):
    t = m.group(1)
    guest = "ratio-bare-%s" % t
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type=t)
    if reasons is None:
        return r
    expect_rc(d, sid, rc, EXIT_SYMBOLS, reasons)
    err = read_id(d, sid, ".stderr", "") or ""
    r["message"] = next((l for l in err.splitlines() if "no symbols" in l), None)
    if not r["message"] or "--elf" not in r["message"] or "/guests/bare/ratio-%s" % t not in \
            r["message"]:
        reasons.append("no error naming the stripped kernel and --elf: %s" % stderr_tail(d, sid))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_wrong_elf(d, sid, m):
    t = m.group(1)
    guest = "ratio-%s" % t
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type=t)
    if reasons is None:
        return r
    # The profile is still written (the user asked for that ELF), but loudly flagged.
    expect_rc(d, sid, rc, 0, reasons)
    err = read_id(d, sid, ".stderr", "") or ""
    r["warning"] = next((l for l in err.splitlines() if "does NOT match" in l), None)
    if not r["warning"] or "nested-%s.elf" % t not in r["warning"]:
        reasons.append("no mismatch warning naming /guests/nested-%s.elf" % t)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_create(d, sid, m):
    r = judge_run(d, sid, "ratio-pv", "ratio", guest_gone_after=True, guest_type="pv",
                  backend="xencall")
    if "exit_code" not in r:
        return r
    reasons = r["reasons"]
    before = read_id(d, sid, ".xllist-before", "") or ""
    r["existed_before"] = xl_state(before, "ratio-pv") is not None
    if r["existed_before"]:
        reasons.append("ratio-pv existed before --create")
    if not re.search(r"destroyed domain \d+", read_id(d, sid, ".stderr", "") or ""):
        reasons.append("xen-uniprof did not say it destroyed the domain")
    # From boot: samples before main's loop (the entry, console set-up) show that sampling
    # began with the guest's first instructions; reported, since a fast boot may dodge
    # the first tick.
    stacks = parse_folded(read_id(d, sid, ".folded"))
    r["boot_samples"] = sum(c for f, c in stacks if "main" not in f)
    return finish(r, reasons)


def judge_sigkill(d, sid, m):
    guest = "ratio-%s" % m.group(1)
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type=m.group(1))
    if reasons is None:
        return r
    runs = []
    for line in (read_id(d, sid, ".runs", "") or "").splitlines():
        cols = line.split()
        if len(cols) == 4:
            runs.append({"delay_ms": int(cols[0]), "sampling": cols[1] == "1",
                         "state_right_after": cols[2], "state_settled": cols[3]})
    running = [x for x in runs if x["state_settled"] != "-" and
               not set(x["state_settled"]) & set("pcd")]
    r.update({
        "kills": len(runs),
        "kills_while_sampling": sum(1 for x in runs if x["sampling"]),
        "paused_right_after_kill": sum(1 for x in runs if "p" in x["state_right_after"]),
        "kills_guest_running_after": len(running),
        "runs": runs,
    })
    if len(runs) != KILLS:
        reasons.append("%d kills recorded (expected %d)" % (len(runs), KILLS))
    if len(running) != len(runs):
        bad = [x for x in runs if x not in running]
        reasons.append("%d of %d kills left the guest not running (first: %s)"
                       % (len(bad), len(runs), bad[0]))
    if r["kills_while_sampling"] < KILLS // 2:
        reasons.append("only %d kills landed while sampling" % r["kills_while_sampling"])
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_sigterm(d, sid, m):
    guest = "ratio-pv"
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type="pv")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    r.update(tool_stats(d, sid))
    if "stopped by signal 15" not in (read_id(d, sid, ".stderr", "") or ""):
        reasons.append("no 'stopped by signal 15' line")
    check_guest_after(d, sid, guest, r, reasons)
    check_ratio_profile(d, sid, r, reasons, 1000)
    return finish(r, reasons)


def judge_admin_paused(d, sid, m):
    """Paused by its admin for the whole run: no frozen stack passed off as time (exit 1,
    the reason in one line, no output), and the admin's pause kept."""
    guest = "ratio-pv"
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type="pv")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, EXIT_FAILURE, reasons)
    err = read_id(d, sid, ".stderr", "") or ""
    r["message"] = next((l for l in err.splitlines() if "paused by someone else" in l), None)
    if not r["message"]:
        reasons.append("no line saying the domain was paused by someone else: %s"
                       % stderr_tail(d, sid))
    if read_id(d, sid, ".folded") is not None:
        reasons.append("an output was written from a domain paused throughout")
    r["xl_state_after"] = xl_state(read_id(d, sid, ".xllist"), guest)
    if not r["xl_state_after"] or "p" not in r["xl_state_after"]:
        reasons.append("the admin's pause was undone (xl list state %s)" % r["xl_state_after"])
    return finish(r, reasons)


def judge_admin_paused_mid(d, sid, m):
    """Paused by its admin for 2 s of a 5 s run: those ticks skipped and counted as such,
    the profile made of the running time only (a frozen stack over 2 s would put about
    40 % of the samples on one function), the guest running again after."""
    guest = "ratio-pv"
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof", guest_type="pv")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    r.update(tool_stats(d, sid))
    skipped, ticks = r.get("paused_by_other_ticks") or 0, r.get("ticks") or 0
    r["skipped_pct"] = round(pct(skipped, skipped + ticks), 2) if skipped + ticks else None
    if not r["skipped_pct"] or r["skipped_pct"] < MIN_SKIPPED_PCT:
        reasons.append("%s of %s deadlines skipped as paused by the admin (need >= %.0f%% "
                       "for a 2 s pause in 5 s)" % (skipped, skipped + ticks, MIN_SKIPPED_PCT))
    if "ticks skipped (the domain was paused by someone else)" not in (
            read_id(d, sid, ".stderr", "") or ""):
        reasons.append("the summary does not say ticks were skipped: %s" % stderr_tail(d, sid))
    check_ratio_profile(d, sid, r, reasons, 500)
    for fn, want in zip(RATIO_FUNCTIONS, (10.0, 30.0, 60.0)):
        got = (r.get("self_shares") or {}).get(fn)
        if got is not None and abs(got - want) > MID_PAUSE_SHARE_PP:
            reasons.append("%s %.2f%% of the samples (the design's %.0f%% +- %.0f): a frozen "
                           "stack counted?" % (fn, got, want, MID_PAUSE_SHARE_PP))
    r["xl_state_after"] = xl_state(read_id(d, sid, ".xllist"), guest)
    if not r["xl_state_after"] or "p" in r["xl_state_after"]:
        reasons.append("the guest is not running after the admin's unpause (xl list state %s)"
                       % r["xl_state_after"])
    return finish(r, reasons)


def destroyed_run(d, sid, **fields):
    """A run whose guest was destroyed under it: exit 6 and the message that says so.
    (result, reasons), reasons None when the scenario did not run."""
    r, reasons, rc = begin(d, sid, tool="xen-uniprof", **fields)
    if reasons is None:
        return r, None
    expect_rc(d, sid, rc, EXIT_DOMAIN_ENDED, reasons)
    r.update(tool_stats(d, sid))
    err = read_id(d, sid, ".stderr", "") or ""
    r["message"] = next((l for l in err.splitlines() if "was destroyed" in l), None)
    if not r["message"]:
        reasons.append("no message that the domain was destroyed: %s" % stderr_tail(d, sid))
    return r, reasons


def judge_destroyed(d, sid, m):
    r, reasons = destroyed_run(d, sid, guest="ratio-pv", guest_type="pv")
    if reasons is None:
        return r
    check_ratio_profile(d, sid, r, reasons, 1000)
    return finish(r, reasons)


JUDGES = [
    (r"find-elf-(pv|pvh|arm)", judge_find_elf),
    (r"find-elf-xenstore-(pv)", judge_find_elf_xenstore),
    (r"dbg-sibling-(pv|pvh)", judge_dbg_sibling),
    (r"stripped-only-(pv|pvh|arm)", judge_stripped_only),
    (r"wrong-elf-(pv|pvh|arm)", judge_wrong_elf),
    (r"create-ratio-pv", judge_create),
    (r"sigkill-(pv|arm)", judge_sigkill),
    (r"sigterm-pv", judge_sigterm),
    (r"admin-paused-pv", judge_admin_paused),
    (r"admin-paused-mid-pv", judge_admin_paused_mid),
    (r"destroyed-pv", judge_destroyed),
]
