# SPDX-License-Identifier: GPL-2.0-only
"""What the judges share: reading dom0's files and xen-uniprof's own account of a run."""
import json
import os
import re


def read(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def read_id(d, sid, ext, default=None):
    """dom0's file <sid><ext>, e.g. read_id(d, "ratio-pv-xc", ".rc")."""
    return read(os.path.join(d, sid + ext), default)


def xen_cpus(d):
    """Xen's physical CPUs in this lab (xl info's nr_cpus), None if unknown."""
    m = re.search(r"^nr_cpus\s*:\s*(\d+)", read(os.path.join(d, "xl-info.txt"), "") or "",
                  re.M)
    return int(m.group(1)) if m else None


def pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


# The suffix xen-uniprof gives an inlined function's frame (`--lines` puts the line
# before it: function_3:32_[i]).
INLINED_SUFFIX = "_[i]"


def parse_folded(text, inlined=False):
    """[(frames root-first, count)]; malformed lines are skipped.  The guests' expected
    chains are their physical calls, so inlined frames (xen-uniprof's default where the
    ELF has DWARF: a static inline hypercall wrapper, Mini-OS at -O3) are left out unless
    inlined is true (judges/inline.py)."""
    stacks = []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line:
            continue
        head, _, count = line.rpartition(" ")
        if not head or not count.isdigit():
            continue
        frames = head.split(";")
        if not inlined:
            frames = [f for f in frames if not f.endswith(INLINED_SUFFIX)]
        stacks.append((frames, int(count)))
    return stacks


def xl_cpu_seconds(xllist, name):
    """The Time(s) column of `xl list NAME`: CPU seconds the domain has used."""
    for line in (xllist or "").splitlines():
        cols = line.split()
        if len(cols) >= 6 and cols[0] == name and cols[1].isdigit():
            try:
                return float(cols[5])
            except ValueError:
                return None
    return None


def xl_state(xllist, name):
    """The state column of `xl list NAME` for the domain, or None (also when xl says
    "NAME is an invalid domain identifier")."""
    for line in (xllist or "").splitlines():
        cols = line.split()
        if len(cols) >= 5 and cols[0] == name and cols[1].isdigit():
            return cols[4]
    return None


def running(state):
    """An `xl list` state of a domain that runs: not paused, crashed or dying."""
    return state is not None and not (set(state) & set("pcd"))


def new_result(d, sid, **fields):
    r = {"id": sid, "command": (read_id(d, sid, ".cmd", "") or "").strip()}
    r.update(fields)
    return r


def did_not_run(r):
    r.update({"pass": False, "reasons": ["scenario did not run (dom0 never got to it)"]})
    return r


def begin(d, sid, **fields):
    """A run's verdict so far: (result, reasons, exit code), or (result, None, None) when
    the scenario did not run (the result then says so and is final)."""
    r = new_result(d, sid, **fields)
    rc = exit_code(d, sid)
    if rc is None:
        return did_not_run(r), None, None
    r["exit_code"] = rc
    return r, [], rc


def expect_rc(d, sid, rc, want, reasons):
    if rc != want:
        reasons.append("exit code %d (expected %d): %s" % (rc, want, stderr_tail(d, sid)))


def known_failure(r, reasons, msg):
    """A check against how a guest was designed to behave rather than against what it
    measured itself (Mini-OS's busy thread does not time its functions; hcall's upcall
    share follows the host's load under emulation).  It fails the scenario only with
    XU_LAB_STRICT=1 (scripts/test under XU_TEST_ALL=1); otherwise it is reported, under
    "known_failures" and in the lab's summary, never hidden."""
    if os.environ.get("XU_LAB_STRICT") == "1":
        reasons.append(msg)
    else:
        r.setdefault("known_failures", []).append(msg)


def limitation(r, msg):
    """Something outside xen-uniprof that keeps a scenario from showing all it would
    (a Xen tool that writes less than it should): the checks of what remains still
    decide the verdict; this is reported under "limitations" and as a LIMIT line of the
    lab's output, in strict runs too, never hidden."""
    r.setdefault("limitations", []).append(msg)


def convert_view(d, sid, name, reasons, ext):
    """What the user's `xen-uniprof convert` for view name wrote (ID.NAME<ext>, its exit
    status in ID.NAME.rc, its messages in ID.NAME.stderr), or None with a reason."""
    rc = read_id(d, sid, ".%s.rc" % name)
    if rc is None or rc.strip() != "0":
        reasons.append("convert for the %s view exited %s: %s" % (
            name, rc.strip() if rc else "(did not run)",
            " | ".join((read_id(d, sid, ".%s.stderr" % name, "") or "").strip()
                       .splitlines()[-2:])))
        return None
    return read_id(d, sid, "." + name + ext)


def finish(r, reasons):
    r["pass"] = not reasons
    r["reasons"] = reasons
    return r


def exit_code(d, sid):
    """The exit status dom0 recorded for the scenario, None if it did not run."""
    rc = read_id(d, sid, ".rc")
    if rc is None:
        return None
    try:
        return int(rc.strip())
    except ValueError:
        return -1


def stderr_tail(d, sid, n=3):
    err = (read_id(d, sid, ".stderr", "") or "").strip().splitlines()
    return " | ".join(err[-n:])


def check_guest_after(d, sid, name, r, reasons):
    """The guest must be running, unpaused, after the scenario (<sid>.xllist)."""
    state = xl_state(read_id(d, sid, ".xllist"), name)
    r["xl_state_after"] = state
    r["guest_running_after"] = running(state)
    if state is None:
        reasons.append("guest %s missing from xl list after the run" % name)
    elif "p" in state:
        reasons.append("guest left paused (xl list state %s)" % state)
    elif set(state) & set("cd"):
        reasons.append("guest crashed or dying (xl list state %s)" % state)
    return state


SUMMARY_RE = re.compile(r"(\d+) samples in ([\d.]+) s \(([\d.]+)/s\), (\d+) missed deadlines"
                        r"(?:, \d+ ticks skipped \([^)]*\))?, "
                        r"paused median ([\d.]+) us p99 ([\d.]+) us, ([\d.]+)% complete stacks")


# The ends of a walk xen-uniprof counts as complete (lib/profile/xu_walk.h:
# xu_walk_complete()), by their names in --stats' "walks".
COMPLETE_WALK_ENDS = ("complete", "cfi root")
# The folded output's root for a walk that did not complete (lib/output/folded.c).
INCOMPLETE_ROOT = "[incomplete]"
# Reported completeness must match the share of samples that truly reach their chain's
# root, in both directions: a profile that calls broken chains complete misleads as much as
# one that calls right ones incomplete.
COMPLETENESS_TOLERANCE_PP = 1.0


# The root --state=split puts above a line's frames (lib/output/view.c).
STATE_ROOTS = {"[running]", "[runnable]", "[blocked]", "[offline]", "[unknown]"}


def chain_body(frames):
    """A folded line's own frames, without the roots the output puts above them, in the
    order lib/output/folded.c writes them: vcpuN, a [state], [incomplete]."""
    i = 0
    if i < len(frames) and re.match(r"vcpu\d+$", frames[i]):
        i += 1
    if i < len(frames) and frames[i] in STATE_ROOTS:
        i += 1
    if i < len(frames) and frames[i] == INCOMPLETE_ROOT:
        i += 1
    return frames[i:]


def truly_complete(stacks, chains):
    """Samples whose own frames (chain_body) start with one of chains, each a root-first
    list: the walks that truly reached where the guest's threads begin."""
    return sum(c for f, c in stacks
               if any(chain_body(f)[:len(ch)] == list(ch) for ch in chains))


def reported_complete_pct(d, sid):
    """(%, where from) of the samples xen-uniprof called complete: what its summary line
    told the user, else --stats; (None, why) when it said neither."""
    m = SUMMARY_RE.search(read_id(d, sid, ".stderr", "") or "")
    if m:
        return float(m.group(7)), "summary"
    st = tool_stats(d, sid)
    if st.get("complete_stacks_pct") is not None:
        return st["complete_stacks_pct"], "--stats"
    return None, "neither a summary line nor --stats walks"


def check_completeness(d, sid, true_n, total, r, reasons, what, required=False,
                       upper_bound=False):
    """Reported completeness against the share of samples (true_n of total) that truly
    reach their root (what: how the judge knows), within COMPLETENESS_TOLERANCE_PP either
    way.  Records both in r["completeness"].  A run that reported none (a run cut short
    prints no summary) is a failure only where the scenario asks for one (required).
    upper_bound: the judge sees only the outermost frame, not whether every caller is
    real (a build with neither frame pointers nor DWARF, where a walk that skipped a
    frame still ends at the root): true_n bounds the truth from above, so only a report
    above it is wrong."""
    rep, src = reported_complete_pct(d, sid)
    true_pct = round(pct(true_n, total), 2) if total else None
    c = {"reported_pct": rep, "reported_from": src, "true_pct": true_pct, "true_means": what,
         "tolerance_pp": COMPLETENESS_TOLERANCE_PP}
    r["completeness"] = c
    if rep is None or true_pct is None:
        if total and required:
            reasons.append("no reported completeness to judge (%s)" % src)
        return
    c["deviation_pp"] = round(rep - true_pct, 2)
    c["true_is_upper_bound"] = upper_bound
    if upper_bound and rep - true_pct > COMPLETENESS_TOLERANCE_PP:
        reasons.append("xen-uniprof reported %.1f%% complete stacks, at most %.2f%% truly "
                       "are (%s)" % (rep, true_pct, what))
    elif not upper_bound and abs(rep - true_pct) > COMPLETENESS_TOLERANCE_PP:
        reasons.append("xen-uniprof reported %.1f%% complete stacks, %.2f%% truly are (%s; "
                       "need within %.0f point%s either way)"
                       % (rep, true_pct, what, COMPLETENESS_TOLERANCE_PP,
                          "" if COMPLETENESS_TOLERANCE_PP == 1 else "s"))


def tool_stats(d, sid):
    """What xen-uniprof said about its run: --stats JSON, else its summary line."""
    st = {}
    js = read_id(d, sid, ".stats.json")
    if js:
        try:
            j = json.loads(js)
            st["samples"] = j.get("samples")
            st["rate_hz"] = (round(j["ticks"] / j["duration_s"], 1)
                             if j.get("duration_s") else None)
            st["missed_deadlines"] = j.get("missed_deadlines")
            st["ticks"] = j.get("ticks")
            st["frequency_hz"] = j.get("frequency_hz")
            st["vcpus"] = j.get("vcpus")
            st["paused_by_other_ticks"] = j.get("paused_by_other_ticks")
            p = j.get("paused_ns", {})
            st["paused_us"] = {k: round(p[k] / 1000.0, 1) for k in ("median", "p99", "max", "mean")
                               if k in p}
            walks = j.get("walks", {})
            total = sum(v for v in walks.values() if isinstance(v, int))
            if total and "complete" in walks:
                st["complete_stacks_pct"] = round(pct(sum(
                    walks.get(k, 0) for k in COMPLETE_WALK_ENDS), total), 2)
            st["walks"] = walks
            st["stop_reason"] = j.get("stop_reason")
            st["guest_type_seen"] = j.get("guest_type")
        except (ValueError, KeyError, TypeError, ZeroDivisionError) as e:
            st["stats_error"] = str(e)
    m = SUMMARY_RE.search(read_id(d, sid, ".stderr", "") or "")
    if m:
        st.setdefault("samples", int(m.group(1)))
        st.setdefault("rate_hz", float(m.group(3)))
        st.setdefault("missed_deadlines", int(m.group(4)))
        st.setdefault("paused_us", {"median": float(m.group(5)), "p99": float(m.group(6))})
        st.setdefault("complete_stacks_pct", float(m.group(7)))
    return st
