# SPDX-License-Identifier: GPL-2.0-only
"""Linux guests (scenarios/linux.sh, linux-hvm.sh): Debian's own kernel, booted from its
bzImage as a PV and a PVH domU (PVH from a copy deleted once it was built, as pygrub
leaves a domain: its symbols come from the guest's memory), and as an HVM domU by the
device model (KASLR on: the run must say the slide it found and confirmed), profiled by
name with no --elf, against the guest's own accounting.

The guest runs its known work on its CPU 1 (nohz_full) and the profile is written
--per-vcpu: the user share, the tasks' shares and perf's (-C 1) are compared on vCPU 1's
samples (WORK_VCPU), the rest on all of them.
What is judged is what xen-uniprof can do today:
  * the run: exit 0, at least MIN_SAMPLES_SHARE of the samples due (samples_due), the
    guest running afterwards and its console free of a kernel crash (a "shut down" that
    was a crash must not pass);
  * the symbols came from the image: xen-uniprof said it named the frames from the
    kernel's own kallsyms tables in the bzImage the config names (PVH: in the guest's
    memory, its config's kernel being a copy deleted once it was built), and every sample taken
    in kernel mode has its pc named (no kernel address left as hex); the frames above
    it are counted by what they look like ("caller_frames"), and MIN_WHOLE_KERNEL_PCT of
    the kernel chains must end at a kernel entry (ENTRY_RE);
  * the user-mode share (check_user_share) of the running samples, charged as the guest's
    clocks charge them (charged_body: interrupt handling to what it interrupted, the
    irq-off way out to user mode to user mode but on PV, PV_WAY_OUT), within
    USER_SHARE_TOLERANCE_PP of perf's inside the guest over the same window
    (TRUTH_WINDOW: the guest prints its accounting and perf's report on its console when
    dom0 asks; perf, started before the profile, records only between those two moments,
    PERF_WINDOW); the guest's own /proc/stat and its tasks' utime / (utime + stime) are
    reported beside it (why not compared: check_user_share);
  * every sample names its task (the root frame "[task] comm/pid", "[idle]"), and each
    known task's share (TASKS, matched by pid) of the running samples of those tasks
    within TASK_SHARE_TOLERANCE_PP of its share of their CPU time by its own
    /proc/PID/stat (utime + stime: a reaped child, such as the sleeper's sleep, is a task
    of its own in the profile, so children's time is reported, not counted) over the
    window;
  * the top TOP_PERF kernel functions by perf's self share inside the guest over the
    same window (perf record -e cpu-clock -a -g, when the guest's initramfs has perf),
    each within PERF_TOLERANCE_PP of xen-uniprof's share of the running samples, charged
    as perf charges them (charged_body: interrupt handling to what it interrupted); the
    functions where perf's samples land when interrupts come back on (PERF_IRQ_ON_RE) are
    reported, not compared;
  * kernel modules (check_modules): where the guest ran its module work on CPU 0 (its
    READY line's modules=zram:PID), samples whose pc is in a module's text are named
    "module:function" from the guest's module list: at least one, none "[module NAME]"
    and no frame in the module area left as hex; the chains through module code (which
    the walk follows through the module's own ORC tables) are in the kernel-chain check
    and also counted on their own, MIN_WHOLE_KERNEL_PCT of them ending at an entry;
  * reported only: the top kernel functions by xen-uniprof's self share, the tasks'
    own CPU times, xen-uniprof's completeness.
linux-TYPE-stack: `stack GUEST --format json` of the running guest (judge_stack);
linux-hvm-stack-memory: the same with the kernel file gone (judge_stack_memory).
linux-TYPE-top: `top -b` of it, the tasks as rows (judge_top).
What needs perf where the guest has none is listed under "pending", which the lab prints
as PENDING lines: never a pass.
"""
import json
import re

from .common import (begin, check_guest_after, expect_rc, finish, parse_folded, pct,
                     read_id, tool_stats, STATE_ROOTS, INCOMPLETE_ROOT)
from .top import parse_snapshots

# Of the samples due (the run's rate and vCPUs, by its --stats, over its -T: 23,760 at
# 99 Hz for 120 s on two vCPUs), at least this share: a run that fell further behind its
# deadlines disturbed the guest more than the judged one (init.sh's LINUX_PROFILE_SECS).
MIN_SAMPLES_SHARE = 0.84
USER_SHARE_TOLERANCE_PP = 2.0
TOP_KERNEL = 10
# x86-64: user space is the lower canonical half, the kernel the upper one.
USER_TOP = 0x0000800000000000
KERNEL_BASE = 0xFFFF800000000000
# What a crashed or dying guest kernel prints on its console.
CRASH_PATTERNS = ("Kernel panic", "Bad FPU state", "BUG:", "Oops:", "general protection",
                  "invalid opcode:", "Call Trace:")
# The guest's tasks (tests/guests/linux/init).
TASKS = ("busy", "dd", "sleeper")
HEX_RE = re.compile(r"0x([0-9a-f]+)$")
# /proc/stat's cpu line, in order.
STAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
               "guest", "guest_nice")

PENDING = []
TASK_SHARE_TOLERANCE_PP = 2.0
# The frames lib/profile/xu_tasks.h names: a task is a stack's outermost frame, a sample
# taken in user mode is [user] under it.
TASK_RE = re.compile(r"^\[task\] (.*)/(\d+)$")
TASK_FRAMES = ("[idle]", "[task] unknown", "[task] others")
USER_FRAME = "[user]"


def is_task_frame(f):
    return f in TASK_FRAMES or bool(TASK_RE.match(f)) or f.startswith("[task] #")


def body_of(frames):
    """A folded line's frames without the roots above them: state, [incomplete], task."""
    return [f for f in frames if f not in STATE_ROOTS and f != INCOMPLETE_ROOT
            and not is_task_frame(f)]


def task_of(frames):
    """The line's task frame, or None."""
    for f in frames:
        if is_task_frame(f):
            return f
    return None
# A kernel chain is whole when its outermost frame is where the kernel is entered: the
# syscall entry, an exception's or an interrupt's entry (the asm stub, or on PV the upcall's
# handler when the stub's frame ends the walk at the user registers it saved), a kernel
# thread's ret_from_fork, or the idle loop's root on a CPU the kernel started; a sample
# whose pc is in that entry code itself, or in its way back to user mode
# (RETURN_STUBS), is whole too.
# The entry code's own returns to user mode: its sysret path, and
# swapgs_restore_regs_and_return_to_usermode, named as the kernel names its address in
# Debian's 6.1 (common_interrupt_return; __irqentry_text_end, a section marker there, must
# not name it).
RETURN_STUBS = (r"entry_SYSRETQ_\w+|syscall_return_via_sysret|"
                r"swapgs_restore_regs_and_return_to_usermode|"
                r"common_interrupt_return|xenpv_restore_regs_and_return_to_usermode")
ENTRY_RE = re.compile(r"^(entry_SYSCALL_64\w*|xen_entry_SYSCALL_64\w*|entry_SYSRETQ\w*|" +
                      RETURN_STUBS +
                      r"|asm_exc_\w+|xen_asm_exc_\w+|"
                      r"exc_xen_hypervisor_callback|asm_common_interrupt|asm_sysvec_\w+|"
                      r"error_entry|error_return|ret_from_fork\w*|startup_64|"
                      r"secondary_startup_64\w*|x86_64_start_\w+|xen_start_kernel|"
                      r"startup_xen|cpu_bringup_and_idle|xen_iret|xen_sysret\w*)$")
MIN_WHOLE_KERNEL_PCT = 95.0
# Only when the guest had no perf (tests/guests/linux/build found none for it).
PENDING_PERF = {"check": "top_kernel_self_shares",
                "wants": "the top five kernel functions' self shares within 2 points of "
                         "perf's",
                "needs": "a reference perf record -e cpu-clock -a -g inside the guest "
                         "(Debian's linux-perf in its initramfs)"}
TOP_PERF = 5
PERF_TOLERANCE_PP = 2.0
# How perf's recording inside the guest met the window (tests/guests/linux/init's
# perf-window): its events turned on and off as the window opened and closed, perf itself
# started before the profile, so that its start (seconds here, before it records) is in
# neither.
PERF_WINDOW = "enabled"
PERF_LINE_RE = re.compile(r"([\d.]+)%\s+\[([k.])\]\s+(\S+)")
# perf's samples by task and object (--sort pid,dso): "40.12%  100:sh  busybox"; every
# object but the kernel's (the task's binary, its libraries, [vdso], [unknown]) is user
# mode.
PERF_DSO_RE = re.compile(r"^([\d.]+)%\s+(?:(\d+):)?(?:.*\s)?(\S+)$")
PERF_KERNEL_DSOS = ("[kernel.kallsyms]", "[kernel.vmlinux]")
# perf's kernel functions by task (--sort pid,sym): "0.52%  98:sh  [k] schedule".
PERF_PID_SYM_RE = re.compile(r"^([\d.]+)%\s+(\d+):.*\[k\]\s+(\S+)$")
# Where perf's cpu-clock lands when interrupts come back on.  Its sample is an hrtimer
# interrupt: one due while interrupts are off is taken at the instruction that turns them
# on again, so perf's self share of the function holding that instruction holds time
# spent elsewhere with interrupts off (the scheduler's switch, the way out to user mode),
# which xen-uniprof's samples find where it was spent.  In Debian's 6.1 on x86-64: the
# scheduler's unlock (finish_task_switch), the work loop on the way out to user mode and
# the syscall entry's (exit_to_user_mode_prepare, syscall_enter_from_user_mode), the
# spinlock releases that restore interrupts, softirq processing; on PV, unmasking events
# with one pending delivers it through a hypercall (xen_irq_enable's check_events), so the
# sample's registers are in xen_hypercall_pv.  These are reported beside perf's, not
# compared.
PERF_IRQ_ON_RE = re.compile(r"^(finish_task_switch(\.isra\.\d+)?|exit_to_user_mode_prepare|"
                            r"syscall_enter_from_user_mode|_raw_spin_unlock_irq(restore)?|"
                            r"handle_softirqs|__do_softirq|xen_hypercall_pv|check_events|"
                            r"xen_irq_enable\w*)$")
PERF_SAMPLES_RE = re.compile(r"# Samples: (\S+)\s+of event '([^']*)'")
PERF_WROTE_RE = re.compile(r"perf record: Captured and wrote .*\((\d+) samples\)")
# Fewer and perf's shares are no reference: a 10 % share of 2,000 samples has a standard
# error of 0.7 points (in a boot at host load 10, perf recorded 9 and 15 samples over a
# 39 s window).
PERF_MIN_SAMPLES = 2000


def guest_snapshots(console, tag):
    """The guest's answer to "S TAG": {"uptime": s, "stat": {field: ticks},
    "tasks": {name: {"pid", "comm", "utime", "stime", "cutime", "cstime"}}}, or None
    when it did not answer (or not in full)."""
    snap = {"tasks": {}}
    done = False
    prefix = "@@XU %s " % tag
    for line in (console or "").splitlines():
        line = line.strip()
        i = line.find(prefix)
        if i < 0:
            continue
        kind, _, rest = line[i + len(prefix):].partition(" ")
        try:
            if kind == "uptime":
                snap["uptime"] = float(rest)
            elif kind == "stat":
                cols = rest.split()
                if cols and cols[0] == "cpu":
                    snap["stat"] = dict(zip(STAT_FIELDS, (int(c) for c in cols[1:])))
                elif cols and cols[0][3:].isdigit():
                    snap.setdefault("cpus", {})[int(cols[0][3:])] = dict(
                        zip(STAT_FIELDS, (int(c) for c in cols[1:])))
            elif kind == "task":
                name, _, st = rest.partition(" ")
                pid, _, st = st.partition(" ")
                comm = st[st.find("(") + 1:st.rfind(")")]
                f = st[st.rfind(")") + 1:].split()
                # fields 14-17 of /proc/PID/stat; f[0] is field 3 (the state)
                snap["tasks"][name] = {"pid": int(pid), "comm": comm,
                                       "utime": int(f[11]), "stime": int(f[12]),
                                       "cutime": int(f[13]), "cstime": int(f[14])}
            elif kind == "end":
                done = True
        except (ValueError, IndexError):
            return None
    if not done or "stat" not in snap or "uptime" not in snap:
        return None
    return snap


def stat_window(before, after):
    """A /proc/stat line's ticks over the window and its user share: (user + nice) /
    (user + nice + system + irq + softirq), and user / (user + system)."""
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in STAT_FIELDS}
    user = delta["user"] + delta["nice"]
    kernel = delta["system"] + delta["irq"] + delta["softirq"]
    us = delta["user"] + delta["system"]
    return {"stat_ticks": delta,
            "user_share_pct": round(pct(user, user + kernel), 2) if user + kernel else None,
            "user_over_user_system_pct": round(pct(delta["user"], us), 2) if us else None}


def guest_truth(d, sid, guest, r, reasons):
    """The guest's own accounting over the sampling window, or None (with a reason)."""
    console = read_id(d, guest, ".console.txt", "")
    before = guest_snapshots(console, sid + ".truth-before")
    after = guest_snapshots(console, sid + ".truth-after")
    if before is None or after is None:
        reasons.append("the guest's own accounting is missing from its console (%s: %s; "
                       "%s: %s)" % ("before", (read_id(d, sid, ".truth-before", "none")
                                               or "").strip(),
                                    "after", (read_id(d, sid, ".truth-after", "none")
                                              or "").strip()))
        return None
    t = {"window_s": round(after["uptime"] - before["uptime"], 2)}
    t.update(stat_window(before["stat"], after["stat"]))
    b, a = before.get("cpus", {}).get(WORK_VCPU), after.get("cpus", {}).get(WORK_VCPU)
    t["work_cpu"] = stat_window(b, a) if b and a else None
    t["tasks"] = {}
    # A task's utime and stime hold the time it was stolen from too (the guest paused by
    # the sampler is "stolen"), which /proc/stat's cpu line leaves out: each task's share
    # is of the three tasks' total (their children, the sleeper's sleep processes, with
    # them).
    tasks_total = own_total = 0
    for name in TASKS:
        b, a = before["tasks"].get(name), after["tasks"].get(name)
        if not b or not a or a["pid"] != b["pid"]:
            continue
        du, ds = a["utime"] - b["utime"], a["stime"] - b["stime"]
        dc = a["cutime"] + a["cstime"] - b["cutime"] - b["cstime"]
        t["tasks"][name] = {"pid": a["pid"], "comm": a["comm"], "utime": du, "stime": ds,
                            "children": dc}
        tasks_total += du + ds + dc
        own_total += du + ds
    for v in t["tasks"].values():
        v["share_of_tasks_pct"] = round(pct(v["utime"] + v["stime"] + v["children"],
                                            tasks_total), 2)
        # without the reaped children's time: a child is a task of its own, with its own
        # pid in the profile (the sleeper's sleep processes)
        v["own_share_of_tasks_pct"] = round(pct(v["utime"] + v["stime"], own_total), 2) \
            if own_total else None
    r["guest"] = t
    return t


def guest_perf(d, sid, guest):
    """perf's report inside the guest over the window (tests/guests/linux/init): "none"
    when the guest had no perf, "missing" when it printed nothing about perf, else
    {"samples": "19K", "kernel": {symbol: self %}, "user_pct", "lines"} (lines: what perf
    said, when it gave no symbol)."""
    tag = "@@XU %s.truth-after " % sid
    lines = []
    for line in (read_id(d, guest, ".console.txt", "") or "").splitlines():
        i = line.find(tag)
        if i >= 0:
            lines.append(line[i + len(tag):].strip())
    if any(l.startswith("perf none") for l in lines):
        return "none"
    if not any(l.startswith("perf") for l in lines):
        return "missing"
    p = {"samples": None, "event": None, "kernel": {}, "user_pct": 0.0,
         "complete": "perf-end" in lines}
    for l in lines:
        m = PERF_WROTE_RE.search(l)
        if m:
            p["recorded"] = int(m.group(1))
        if l.startswith("perf-dso "):
            perf_by_mode(p, l[len("perf-dso "):].strip())
            continue
        if l.startswith("perf-pid-sym "):
            m = PERF_PID_SYM_RE.match(l[len("perf-pid-sym "):].strip())
            if m:
                by = p.setdefault("pid_kernel_pct", {}).setdefault(int(m.group(2)), {})
                by[m.group(3)] = by.get(m.group(3), 0.0) + float(m.group(1))
            continue
        if l.startswith("perf-late "):
            p["late"] = {m.group(1): dict(zip(("samples", "late_100us", "late_500us",
                                               "mean_late_us"),
                                              (int(m.group(2)), int(m.group(3)),
                                               int(m.group(4)), round(int(m.group(5)) / 1e3,
                                                                      1))))
                         for m in PERF_LATE_RE.finditer(l)}
            continue
        if l.startswith("perf-weight ") or l.startswith("perf-w "):
            perf_weight(p, l)
            continue
        m = PERF_GRID_RE.match(l)
        if m:
            p["grid"] = {"spans": int(m.group(1)), "moved": int(m.group(2))}
            continue
        if l.startswith("perf-window "):
            p["window"] = l[len("perf-window "):].strip()
            continue
        if not l.startswith("perf "):
            continue
        m = PERF_SAMPLES_RE.search(l)
        if m:
            p["samples"], p["event"] = m.group(1), m.group(2)
            continue
        m = PERF_LINE_RE.search(l)
        if not m:
            continue
        share = float(m.group(1))
        if m.group(2) == "k":
            p["kernel"][m.group(3)] = p["kernel"].get(m.group(3), 0.0) + share
        else:
            p["user_pct"] += share
    if not p["kernel"]:
        p["lines"] = [l for l in lines if l.startswith("perf")][:20]
    return p


def perf_by_mode(p, line):
    """One line of perf's --sort pid,dso report into p: "mode_pct" {"user", "kernel"} and,
    by pid, "pid_mode_pct" {pid: {"user", "kernel"}}."""
    m = PERF_DSO_RE.match(line)
    if not m:
        return
    mode = "kernel" if m.group(3) in PERF_KERNEL_DSOS else "user"
    share = float(m.group(1))
    p.setdefault("mode_pct", {"user": 0.0, "kernel": 0.0})[mode] += share
    if m.group(2):
        by = p.setdefault("pid_mode_pct", {}).setdefault(int(m.group(2)),
                                                         {"user": 0.0, "kernel": 0.0})
        by[mode] += share


PERF_WEIGHT_RE = re.compile(r"perf-weight periods=(\d+) samples=(\d+) user=(\d+) "
                            r"kernel=(\d+) gaps=(\d+)")
PERF_W_RE = re.compile(r"perf-w (\d+) (\S+)")
# How late perf's samples were taken after they fell due, by mode: "user=N/L1/L5/MEAN"
# (samples, those over 100 us and over 500 us late, the mean in ns).
PERF_LATE_RE = re.compile(r"(user|kernel)=(\d+)/(\d+)/(\d+)/(\d+)")
# Whether perf's timer kept one phase over the window, which the lateness above assumes:
# of the 5 s spans of each CPU, those whose own commonest phase moved.
PERF_GRID_RE = re.compile(r"perf-grid spans=(\d+) moved=(\d+)")


def perf_weight(p, line):
    """One line of perf's samples weighted by the periods each stands for (the guest's
    perf_weighted) into p["weighted"]: {"periods", "samples", "user", "kernel", "gaps",
    "user_pct", "kernel_pct": {symbol: share of the periods}}."""
    m = PERF_WEIGHT_RE.match(line)
    if m:
        w = p.setdefault("weighted", {"kernel_pct": {}})
        w.update(zip(("periods", "samples", "user", "kernel", "gaps"),
                     (int(g) for g in m.groups())))
        if w["user"] + w["kernel"]:
            w["user_pct"] = round(pct(w["user"], w["user"] + w["kernel"]), 2)
        return
    m = PERF_W_RE.match(line)
    w = p.get("weighted")
    if m and w and w.get("periods"):
        w["kernel_pct"][m.group(2)] = round(pct(int(m.group(1)), w["periods"]), 2)


def perf_user_pct(p):
    """perf's share of its samples taken in user mode, or None without its mode report."""
    m = p.get("mode_pct") if isinstance(p, dict) else None
    if not m or m["user"] + m["kernel"] <= 0:
        return None
    return round(pct(m["user"], m["user"] + m["kernel"]), 2)


def perf_reference(p, r, reasons):
    """Whether perf's report p (guest_perf) is a reference: pending when the guest had no
    perf, a failure when it said nothing about the window or took too few samples; a
    failure too, its figures still compared, when it recorded over another window than the
    profile's (PERF_WINDOW).  Asked once, for both checks that use it (check_user_share,
    check_perf)."""
    ok = False
    if p == "none":
        r["pending"].append(PENDING_PERF)
    elif p == "missing":
        reasons.append("no perf report from the guest over the window")
    elif p.get("recorded", 0) < PERF_MIN_SAMPLES:
        r["perf"] = p
        reasons.append("perf inside the guest recorded %s samples over the window (need %d "
                       "for a reference)" % (p.get("recorded", "no"), PERF_MIN_SAMPLES))
    else:
        r["perf"] = p
        ok = True
        if p.get("window") != PERF_WINDOW:
            reasons.append("perf's window inside the guest was not the profile's "
                           "(perf-window %s, need %s: perf armed before the profile, its "
                           "events turned on and off as the window opens and closes)"
                           % (p.get("window"), PERF_WINDOW))
    return ok


def check_perf(p, names, running, r, reasons):
    """The top TOP_PERF kernel functions by perf's self share inside the guest, each
    within PERF_TOLERANCE_PP of xen-uniprof's share of the running samples whose pc is in
    it, but for those where perf's samples land when interrupts come back on
    (PERF_IRQ_ON_RE: reported beside).  p: perf's report, None when it is no reference."""
    if p is None:
        return
    if not p["kernel"]:
        reasons.append("perf inside the guest reported no kernel function (%s)"
                       % " | ".join(p.get("lines", [])[:3]))
        return
    ranked = sorted(p["kernel"].items(), key=lambda kv: (-kv[1], kv[0]))
    top = [kv for kv in ranked if not PERF_IRQ_ON_RE.match(kv[0])][:TOP_PERF]
    r["perf_irq_on"] = [{"function": name, "perf_pct": perf_pct,
                         "xen_uniprof_pct": round(pct(names.get(name, 0), running), 2)}
                        for name, perf_pct in ranked[:ranked.index(top[-1]) if top else None]
                        if PERF_IRQ_ON_RE.match(name)]
    cmp = []
    for name, perf_pct in top:
        ours = round(pct(names.get(name, 0), running), 2)
        dev = round(ours - perf_pct, 2)
        cmp.append({"function": name, "perf_pct": perf_pct, "xen_uniprof_pct": ours,
                    "deviation_pp": dev,
                    "perf_weighted_pct": p.get("weighted", {}).get("kernel_pct", {})
                    .get(name)})
        if abs(dev) > PERF_TOLERANCE_PP:
            reasons.append("%s: %.2f%% of the running samples, perf inside the guest "
                           "%.2f%% (need within %.0f points)"
                           % (name, ours, perf_pct, PERF_TOLERANCE_PP))
    r["top_kernel_vs_perf"] = cmp


# Where an interrupt's handling starts on x86-64 Linux: the entry stub, or on PV the
# upcall's handler when the stub's frame ends the walk at the user registers it saved.  A
# kernel chain interrupted in kernel mode shows the walk's [upcall] frame before the stub.
IRQ_ENTRY_RE = re.compile(r"^(asm_sysvec_\w+|asm_common_interrupt|"
                          r"asm_exc_xen_hypervisor_callback|"
                          r"xen_asm_exc_xen_hypervisor_callback|exc_xen_hypervisor_callback)$")
UPCALL_FRAME = "[upcall]"
# Past the handler proper, with interrupts enabled again: the way back (which may
# schedule) and the softirqs run on the way out.
IRQ_ON_RE = re.compile(r"^(irqentry_exit\w*|__do_softirq|handle_softirqs|"
                       r"do_softirq_own_stack|run_ksoftirqd)$")


# The way out to user mode after its last local_irq_disable(): the exit functions
# (EXIT_TO_USER_RE, entered with interrupts on or off) and below them only what runs with
# interrupts off (OFF_TO_USER_RE: exit_to_user_mode_prepare's own code and its irq-off
# callees, the FPU's restore, the nohz flush; context tracking's entry to user mode with
# all it calls).  Anything else below an exit function (schedule, signal delivery, task
# work, syscall_exit_to_user_mode_prepare's tracing, the PV irq-enable path) may run with
# interrupts on: such a sample is kept in the kernel.  The entry code's own returns
# (RETURN_STUBS) are exit functions too, and xen_iret where its chain is whole (returning
# to the kernel, its end-of-stack mark is in mid-stack: the chain ends [incomplete]).
EXIT_TO_USER_RE = re.compile(r"^(syscall_exit_to_user_mode|irqentry_exit_to_user_mode|"
                             r"xen_iret|" + RETURN_STUBS + r")$")
OFF_TO_USER_RE = re.compile(r"^(exit_to_user_mode_prepare|rcu_nocb_flush_deferred_wakeup|"
                            r"switch_fpu_return|restore_fpregs_from_fpstate|"
                            r"fpregs_assert_state_consistent|amd_clear_divider)$")
CT_USER_ENTER_RE = re.compile(r"^(__ct_user_enter|user_enter_irqoff)$")


def on_way_out_irqs_off(body):
    """Is the sample on the way out to user mode with interrupts off (EXIT_TO_USER_RE,
    OFF_TO_USER_RE)?"""
    for i, f in enumerate(body):
        if not EXIT_TO_USER_RE.match(f):
            continue
        for g in body[i + 1:]:
            if CT_USER_ENTER_RE.match(g):
                return True
            if not OFF_TO_USER_RE.match(g):
                return False
        return True
    return False


# PV_WAY_OUT: a PV kernel returns to user mode through Xen's iret hypercall, which turns
# events back on as it returns, so a clock event due on the way out should be taken at
# the first user-mode instruction, as on PVH and HVM.  perf inside a PV guest does not
# take it there.  Its samples of dd's user mode were as many as xen-uniprof's samples
# taken in user mode, without the way out: 22.09 % of dd against 22.54 % (20.89 against
# 20.96 in another boot), where with the way out charged to user mode xen-uniprof had
# 28.23 % (26.78).  Of perf's 11,504 samples of dd, 2,131 were in xen_hypercall_pv under
# syscall_enter_from_user_mode's event unmask, 18.5 % of dd, against xen-uniprof's 12.9 %
# of dd in the masked syscall entry, about the way out's share more (perf script inside
# the guest; tests/lab/README.md, "The way out to user mode on PV").  Why the event waits
# for the next system call is not known.  On PVH, where it is taken at the return, dd's
# user share was 20.26 % charged and 19.67 % by perf, 4.62 % without the way out.


def charged_body(frames, pv=False):
    """A sample's frames as the guest's own clocks charge them.  Debian's kernel has no
    IRQ_TIME_ACCOUNTING: its tick is an interrupt, so time spent handling interrupts is
    never seen by a tick; each tick's period is charged to what the tick interrupted.
    perf's cpu-clock, also an hrtimer interrupt, charges a sample that falls due while an
    interrupt is being handled to the interrupted registers (the handler's get_irq_regs()).
    So a sample xen-uniprof took in an interrupt handler (interrupts off) is charged here to
    what the innermost interrupt interrupted: the frames below its [upcall] frame, or
    [user] when the handler's chain starts at its entry from user mode.  Likewise a clock
    interrupt due on the way out to user mode, after the last local_irq_disable(), is taken
    at the first user-mode instruction (the return turns interrupts on): such a sample
    (on_way_out_irqs_off) is charged to [user], but on PV (pv), where perf took such
    samples in the kernel, at the next system call's unmasking of events (PV_WAY_OUT).
    Chains the walk left incomplete, and samples past the handler proper (IRQ_ON_RE) but
    not on that irq-off way out, are kept as they are."""
    body = body_of(frames)
    if INCOMPLETE_ROOT in frames:
        return body
    if not pv and on_way_out_irqs_off(body):
        return [USER_FRAME]
    for i in range(len(body) - 1, -1, -1):
        if not IRQ_ENTRY_RE.match(body[i]):
            continue
        if any(IRQ_ON_RE.match(g) for g in body[i + 1:]):
            return body
        if i and body[i - 1] == UPCALL_FRAME:
            return body[:i - 1] or body
        return body[:i] if i else [USER_FRAME]
    return body


def classify(stacks):
    """Per state root: counts of samples whose pc (the leaf) is in user space, a named
    kernel function, a kernel address left unnamed, or neither half (non-canonical);
    the named leaves' counts; and a few unnamed kernel pcs."""
    by = {}
    names = {}
    unnamed = {}
    for frames, n in stacks:
        state = frames[0] if frames and frames[0] in STATE_ROOTS else "(none)"
        body = body_of(frames)
        c = by.setdefault(state, {"user": 0, "kernel_named": 0, "kernel_unnamed": 0,
                                  "noncanonical": 0})
        if not body:
            c["noncanonical"] += n
            continue
        leaf = body[-1]
        if leaf == USER_FRAME:
            c["user"] += n
            continue
        m = HEX_RE.match(leaf)
        if not m:
            c["kernel_named"] += n
            if state == "[running]":
                names[leaf] = names.get(leaf, 0) + n
            continue
        pc = int(m.group(1), 16)
        if pc < USER_TOP:
            c["user"] += n
        elif pc >= KERNEL_BASE:
            c["kernel_unnamed"] += n
            unnamed[leaf] = unnamed.get(leaf, 0) + n
        else:
            c["noncanonical"] += n
    return by, names, unnamed


def charged_shares(stacks, pv=False):
    """The running samples as the guest's clocks charge them (charged_body; pv: a PV
    guest's): how many are charged to user mode, how many to the kernel, and the kernel
    functions' counts."""
    user = kernel = 0
    names = {}
    for frames, n in stacks:
        if not frames or frames[0] != "[running]":
            continue
        body = charged_body(frames, pv)
        if not body:
            continue
        leaf = body[-1]
        m = HEX_RE.match(leaf)
        if leaf == USER_FRAME or (m and int(m.group(1), 16) < USER_TOP):
            user += n
            continue
        kernel += n
        if not m:
            names[leaf] = names.get(leaf, 0) + n
    return user, kernel, names


def caller_frames(stacks):
    """The frames above each pc, by what they look like: named, a user address, a kernel
    address no function holds, neither (non-canonical)."""
    c = {"named": 0, "user_hex": 0, "kernel_hex": 0, "noncanonical": 0}
    for frames, n in stacks:
        for f in body_of(frames)[:-1]:
            m = HEX_RE.match(f)
            if not m:
                c["named"] += n
            elif int(m.group(1), 16) < USER_TOP:
                c["user_hex"] += n
            elif int(m.group(1), 16) >= KERNEL_BASE:
                c["kernel_hex"] += n
            else:
                c["noncanonical"] += n
    return c


def kernel_chains(stacks):
    """Of the samples that found the vCPU running kernel code: how many, how many the walk
    left incomplete, how many end at an entry (ENTRY_RE) and were not left incomplete, and
    the outermost frames of the rest."""
    c = {"kernel_samples": 0, "incomplete": 0, "whole": 0}
    other = {}
    for frames, n in stacks:
        if not frames or frames[0] != "[running]":
            continue
        body = body_of(frames)
        if not body or body[-1] == USER_FRAME:
            continue                    # a user-mode sample: no kernel chain
        m = HEX_RE.match(body[-1])
        if m and int(m.group(1), 16) < USER_TOP:
            continue                    # a user-mode sample: no kernel chain
        c["kernel_samples"] += n
        if INCOMPLETE_ROOT in frames:
            c["incomplete"] += n
            root = body[0] + " [incomplete]"
        elif ENTRY_RE.match(body[0]):
            c["whole"] += n
            continue
        else:
            root = body[0]
        other[root] = other.get(root, 0) + n
    c["whole_pct"] = round(pct(c["whole"], c["kernel_samples"]), 2) \
        if c["kernel_samples"] else None
    c["other_roots"] = dict(sorted(other.items(), key=lambda kv: -kv[1])[:8])
    return c


VCPU_RE = re.compile(r"vcpu(\d+)$")
# The vCPU the guest runs its known work on, when its READY line says it pinned it there
# (tests/guests/linux/init: CPU 1, nohz_full); the profile is written --per-vcpu, and
# what is compared with the guest's accounting and with perf (-C 1) is that vCPU's.
WORK_VCPU = 1


def work_pinned(ready):
    return " nohz_full=1 " in ready and " work=taskset 2 " in ready


def by_vcpu(stacks):
    """(the stacks without their vcpuN root frame, {vCPU: those stacks}); lines written
    without --per-vcpu are under None."""
    out, per = [], {}
    for frames, n in stacks:
        v = None
        m = VCPU_RE.match(frames[0]) if frames else None
        if m:
            v, frames = int(m.group(1)), frames[1:]
        out.append((frames, n))
        per.setdefault(v, []).append((frames, n))
    return out, per


def check_user_share(truth, perf, counts, r, reasons):
    """The user-mode share of the running samples (of the work's vCPU where the guest
    pinned its work), charged as the guest's clocks charge them (charged_body: interrupt
    handling to what it interrupted, the irq-off way out to user mode to user mode but on
    PV), against perf's inside the guest over the same window: the share of its
    cpu-clock samples (on the work's CPU, -C 1) taken in user mode, within
    USER_SHARE_TOLERANCE_PP.

    The guest's own accounting is reported beside it, not compared: neither of the
    kernel's ways of splitting time into user and system holds up while a sampler pauses
    the guest (measured in the lab, tests/lab/README.md).  On a nohz_full CPU
    (VIRT_CPU_ACCOUNTING_GEN) the kernel times every kernel entry and exit, but subtracts
    the time stolen from it (Xen's runstate counts a paused vCPU as offline, stolen) from
    whichever interval it is closing, up to its length (get_vtime_delta): the mode the
    task spends its long intervals in loses the stolen time, so the busy loop, which
    never makes a system call, came out with no user time at all on HVM, and dd with 92 %.
    By ticks, a tick due while interrupts are off is taken where they come back on, often
    in the next task after a switch: the busy loop came out 96-99.7 % user where
    xen-uniprof found 87-97 % and perf 88-91 %.

    Compared on a profile taken at the default rate (scenarios/linux.sh): at 499 Hz the
    profiler's pauses disturbed the guest so much under this emulation that its two views
    of it, xen-uniprof's and perf's, differed by 0.3-4.9 points (tests/lab/README.md).

    Reported beside perf's share: the same with each of perf's samples weighted by the
    periods it stands for, and how late perf's samples were taken after they fell due
    (the guest's perf_weighted; tests/lab/README.md: 645 us on average on PVH in this lab
    under a profile at 499 Hz), and whether perf's timer kept its phase over the window,
    which that lateness assumes (perf-grid)."""
    user, kernel, c_user, c_kernel = counts
    u = {"running_samples": user + kernel,
         "as_sampled_pct": round(pct(user, user + kernel), 2) if user + kernel else None,
         "charged_pct": round(pct(c_user, c_user + c_kernel), 2) if c_user + c_kernel
         else None,
         "tolerance_pp": USER_SHARE_TOLERANCE_PP}
    r["user_share"] = u
    if truth:
        cpu = truth.get("work_cpu") or truth
        u["guest_stat_pct"] = cpu["user_share_pct"]
        u["guest_stat_from"] = ("CPU %d's /proc/stat line" % WORK_VCPU
                                if truth.get("work_cpu") else "/proc/stat's cpu line")
        ut = sum(g["utime"] for g in truth["tasks"].values())
        st = sum(g["stime"] for g in truth["tasks"].values())
        u["guest_tasks_utime_pct"] = round(pct(ut, ut + st), 2) if ut + st else None
    if perf is None:
        return
    u["perf_pct"] = perf_user_pct(perf)
    w = perf.get("weighted", {})
    u["perf_weighted_pct"] = w.get("user_pct")
    u["perf_periods"] = {k: w.get(k) for k in ("periods", "samples", "gaps")}
    u["perf_late"] = perf.get("late")
    u["perf_grid"] = perf.get("grid")
    u["perf_window"] = perf.get("window")
    if u["perf_pct"] is None or u["charged_pct"] is None:
        reasons.append("no user-mode share to compare (xen-uniprof %s, perf %s)"
                       % (u["charged_pct"], u["perf_pct"]))
        return
    u["deviation_pp"] = round(u["charged_pct"] - u["perf_pct"], 2)
    if abs(u["deviation_pp"]) > USER_SHARE_TOLERANCE_PP:
        reasons.append("user-mode share %.2f%% of the running samples (interrupt handling "
                       "charged to what it interrupted, the irq-off way out to user mode "
                       "as perf charges it: charged_body), perf inside the guest %.2f%% "
                       "(need within %.0f points)" % (u["charged_pct"], u["perf_pct"],
                                                      USER_SHARE_TOLERANCE_PP))


def check_tasks(stacks, truth, perf, r, reasons, pv=False):
    """Every sample names its task; each known task's share of the running samples of the
    known tasks against its share of their CPU time (guest_truth); reported: the tasks'
    [user] shares, as taken and charged as perf charges them (charged_body; pv: a PV
    guest's), against perf's (by pid) and their utime / (utime + stime), the top task
    frames."""
    running = {}
    user = {}
    charged = {}
    charged_leaf = {}
    total = unnamed = 0
    for frames, n in stacks:
        task = task_of(frames)
        total += n
        if task is None:
            unnamed += n
            continue
        if not frames or frames[0] != "[running]":
            continue
        running[task] = running.get(task, 0) + n
        body = body_of(frames)
        if body and body[-1] == USER_FRAME:
            user[task] = user.get(task, 0) + n
        body = charged_body(frames, pv)
        if body and body[-1] == USER_FRAME:
            charged[task] = charged.get(task, 0) + n
        elif body:
            leaf = charged_leaf.setdefault(task, {})
            leaf[body[-1]] = leaf.get(body[-1], 0) + n
    all_running = sum(running.values())
    t = {"samples_without_task": unnamed, "running_samples": all_running,
         "top_tasks_pct_of_running": {
             k: round(pct(v, all_running), 2)
             for k, v in sorted(running.items(), key=lambda kv: -kv[1])[:10]},
         "unknown_pct_of_running": round(pct(running.get("[task] unknown", 0),
                                             all_running), 2) if all_running else None,
         "tolerance_pp": TASK_SHARE_TOLERANCE_PP, "tasks": {}}
    r["task_shares"] = t
    if unnamed:
        reasons.append("%d of %d samples name no task" % (unnamed, total))
    if not truth or not truth["tasks"]:
        return
    ours = {}
    for name, g in truth["tasks"].items():
        frames = [k for k in running if TASK_RE.match(k)
                  and int(TASK_RE.match(k).group(2)) == g["pid"]]
        ours[name] = (sum(running[k] for k in frames), sum(user.get(k, 0) for k in frames),
                      sum(charged.get(k, 0) for k in frames), frames)
    known = sum(v[0] for v in ours.values())
    for name, g in truth["tasks"].items():
        n, nu, nc, frames = ours[name]
        cpu = g["utime"] + g["stime"]
        by_pid = perf.get("pid_mode_pct", {}).get(g["pid"]) if isinstance(perf, dict) \
            else None
        e = {"pid": g["pid"], "frames": frames, "samples": n,
             "pct_of_known_tasks": round(pct(n, known), 2) if known else None,
             "pct_of_running": round(pct(n, all_running), 2) if all_running else None,
             "guest_pct_of_known_tasks": g["own_share_of_tasks_pct"],
             "guest_pct_with_children": g["share_of_tasks_pct"],
             "user_pct_of_task": round(pct(nu, n), 2) if n else None,
             "charged_user_pct_of_task": round(pct(nc, n), 2) if n else None,
             "perf_user_pct_of_task": (round(pct(by_pid["user"], by_pid["user"]
                                                 + by_pid["kernel"]), 2)
                                       if by_pid and by_pid["user"] + by_pid["kernel"]
                                       else None),
             "guest_user_pct_of_task": round(pct(g["utime"], cpu), 2) if cpu else None,
             "kernel_functions_vs_perf": task_kernel_functions(
                 [charged_leaf.get(k, {}) for k in frames], all_running,
                 perf.get("pid_kernel_pct", {}).get(g["pid"], {})
                 if isinstance(perf, dict) else {})}
        if known:
            e["deviation_pp"] = round(e["pct_of_known_tasks"] - g["own_share_of_tasks_pct"], 2)
        t["tasks"][name] = e
        if not known or abs(e["deviation_pp"]) > TASK_SHARE_TOLERANCE_PP:
            reasons.append("task %s (pid %d): %s%% of the known tasks' running samples, "
                           "%.2f%% of their CPU time by its /proc/PID/stat (need within %.0f "
                           "points)" % (name, g["pid"],
                                        e["pct_of_known_tasks"] if known else "no",
                                        g["own_share_of_tasks_pct"], TASK_SHARE_TOLERANCE_PP))


def task_kernel_functions(leaves, running, perf_by_sym, top=8):
    """A task's kernel functions, charged as perf charges them (charged_body's leaf), as
    shares of all the running samples, beside perf's shares of all its samples: the top
    `top` of either, {function: [xen-uniprof %, perf %]} (reported, not compared)."""
    ours = {}
    for leaf in leaves:
        for name, n in leaf.items():
            ours[name] = ours.get(name, 0) + n
    names = sorted(ours, key=lambda k: -ours[k])[:top]
    names += [k for k in sorted(perf_by_sym, key=lambda k: -perf_by_sym[k])[:top]
              if k not in names]
    return {k: [round(pct(ours.get(k, 0), running), 2) if running else None,
                round(perf_by_sym.get(k, 0.0), 2)] for k in names}


# Where each guest's names must come from (build-initramfs): PV and HVM name the bzImage
# in their configs; PVH was built, as pygrub builds a domain, from a copy of it deleted
# once the domain was built, so its names come from the kernel in the guest's memory.
SYMBOLS_FROM = {"pv": ("/guests/linux/vmlinuz", "the bzImage's"),
                "pvh": ("'s memory", "the kernel in the guest's memory and its"),
                "hvm": ("/guests/linux/vmlinuz", "the bzImage's")}


def check_symbols(d, sid, guest_type, r, reasons):
    """xen-uniprof's own line on where the names came from (SYMBOLS_FROM): the kernel's
    kallsyms, in the bzImage or in the guest's memory."""
    err = read_id(d, sid, ".stderr", "") or ""
    m = re.search(r"symbols: (.*)", err)
    r["symbols_line"] = m.group(0).strip() if m else None
    where, said = SYMBOLS_FROM[guest_type]
    if not m or where not in m.group(1) or "kallsyms" not in m.group(1):
        reasons.append("xen-uniprof did not say it named the frames from %s kallsyms (%s)"
                       % (said, r["symbols_line"] or "no 'symbols:' line"))
    r["warnings"] = [l.strip() for l in err.splitlines() if "warning" in l.lower()][:10]


# xen-uniprof's line on the kernel's runtime slide (lib/symbols/kaslr.c).
KASLR_RE = re.compile(r"KASLR: .*")


def check_kaslr(d, sid, guest_type, r, reasons):
    """An HVM guest's kernel was randomised by its decompressor: xen-uniprof must say the
    slide it found and confirmed (PV and PVH boot with none; reported only)."""
    err = read_id(d, sid, ".stderr", "") or ""
    m = KASLR_RE.search(err)
    r["kaslr_line"] = m.group(0).strip() if m else None
    if guest_type == "hvm" and (not m or "confirmed" not in m.group(0)):
        reasons.append("xen-uniprof did not say it found and confirmed the kernel's slide "
                       "(%s)" % (r["kaslr_line"] or "no 'KASLR:' line"))


def check_console(d, guest, r, reasons):
    console = read_id(d, guest, ".console.txt")
    if console is None:
        reasons.append("no console log of %s" % guest)
        return
    hits = [l.strip() for l in console.splitlines() if any(p in l for p in CRASH_PATTERNS)]
    if hits:
        r["guest_crash_lines"] = hits[:10]
        reasons.append("the guest kernel crashed: %s" % hits[0])
    ready = [l.strip() for l in console.splitlines() if "@@XU READY" in l]
    r["guest_ready"] = ready[0] if ready else None
    check_isolation(r["guest_ready"] or "", r, reasons)


READY_PTI_RE = re.compile(r" pti_active=(\S+)")


def check_isolation(ready, r, reasons):
    """A guest booted with pti=on (build-initramfs: PVH) must have isolated its page
    tables (its READY line's pti_active=, from the pti flag in /proc/cpuinfo), or its
    samples would not test the task read through the kernel's half of the pair."""
    m = READY_PTI_RE.search(ready)
    r["page_table_isolation"] = m.group(1) if m else None
    if " pti=on" in ready and not (m and m.group(1) == "yes"):
        reasons.append("the guest was booted with pti=on but did not isolate its page tables "
                       "(pti_active=%s)" % (m.group(1) if m else "not said"))


def samples_due(st, command):
    """The samples a run was due: its rate and vCPUs (its --stats, as tool_stats read them)
    over its -T; None when one of them is missing."""
    m = re.search(r"(?:^|\s)-T\s*(\d+(?:\.\d+)?)(?:\s|$)", command)
    if not m or not st.get("frequency_hz") or not st.get("vcpus"):
        return None
    return round(float(st["frequency_hz"]) * float(m.group(1)) * int(st["vcpus"]))


def judge_profile(d, sid, m):
    guest = "linux-" + m.group(1)
    r, reasons, rc = begin(d, sid, guest=guest, guest_type=m.group(1), tool="xen-uniprof")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    check_console(d, guest, r, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    check_symbols(d, sid, m.group(1), r, reasons)
    check_kaslr(d, sid, m.group(1), r, reasons)
    st = tool_stats(d, sid)
    r.update({k: st.get(k) for k in ("rate_hz", "missed_deadlines", "paused_us",
                                     "complete_stacks_pct", "walks", "stop_reason")})
    ready = r.get("guest_ready") or ""
    stacks, per_vcpu = by_vcpu(parse_folded(read_id(d, sid, ".folded", "")))
    work = per_vcpu[WORK_VCPU] if work_pinned(ready) and WORK_VCPU in per_vcpu else stacks
    r["compared_samples"] = "vCPU %d's" % WORK_VCPU if work is not stacks else "all vCPUs'"
    total = sum(n for _, n in stacks)
    r["samples"] = total
    due = samples_due(st, r["command"])
    r["samples_due"] = due
    if due is None:
        reasons.append("no samples due known (the run's --stats rate and vCPUs, its -T)")
    elif total < MIN_SAMPLES_SHARE * due:
        reasons.append("%d samples of %d due (need %.0f %%)"
                       % (total, due, 100 * MIN_SAMPLES_SHARE))
    by, _, unnamed = classify(stacks)
    r["leaves_by_state"] = by
    r["caller_frames"] = caller_frames(stacks)
    work_by, names, _ = classify(work)
    run = work_by.get("[running]", {})
    kernel = run.get("kernel_named", 0) + run.get("kernel_unnamed", 0)
    all_unnamed = sum(c["kernel_unnamed"] for c in by.values())
    r["kernel_unnamed_samples"] = all_unnamed
    if all_unnamed:
        top = sorted(unnamed.items(), key=lambda kv: -kv[1])[:5]
        reasons.append("%d kernel-mode samples have no name (e.g. %s)" % (
            all_unnamed, ", ".join("%s x%d" % kv for kv in top)))
    noncanon = sum(c["noncanonical"] for c in by.values())
    if noncanon:
        reasons.append("%d samples' pc is in neither half of the address space" % noncanon)
    user = run.get("user", 0)
    if not kernel and not user:
        reasons.append("no sample found the vCPU running")
    pv = m.group(1) == "pv"
    c_user, c_kernel, c_names = charged_shares(work, pv)
    truth = guest_truth(d, sid, guest, r, reasons)
    r["pending"] = list(PENDING)
    perf_report = guest_perf(d, sid, guest)
    perf = perf_report if perf_reference(perf_report, r, reasons) else None
    check_user_share(truth, perf, (user, kernel, c_user, c_kernel), r, reasons)
    r["top_kernel_self_pct"] = [
        {"function": k, "pct_of_running": round(pct(v, user + kernel), 2),
         "pct_of_kernel": round(pct(v, kernel), 2)}
        for k, v in sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_KERNEL]]
    check_modules(stacks, ready, r, reasons)
    chains = kernel_chains(stacks)
    chains["min_whole_pct"] = MIN_WHOLE_KERNEL_PCT
    r["kernel_chains"] = chains
    if chains["whole_pct"] is not None and chains["whole_pct"] < MIN_WHOLE_KERNEL_PCT:
        reasons.append("%.2f%% of the kernel chains end at a kernel entry (need %.0f%%; "
                       "others end at %s)" % (chains["whole_pct"], MIN_WHOLE_KERNEL_PCT,
                                             ", ".join("%s x%d" % kv for kv in
                                                       list(chains["other_roots"].items())[:4])))
    check_tasks(work, truth, perf_report, r, reasons, pv)
    if work is not stacks:
        unnamed_tasks = sum(n for f, n in stacks if task_of(f) is None)
        if unnamed_tasks:
            reasons.append("%d samples of the other vCPUs name no task" % unnamed_tasks)
    check_perf(perf, c_names, c_user + c_kernel, r, reasons)
    return finish(r, reasons)


# Kernel modules (tests/guests/linux/init's module work on CPU 0: writes to a zram disk): a
# pc in a module's text is named "module:function" from the guest's own module list
# (lib/symbols/linux_modules.c), "[module NAME]" where that module's symbols could not be
# read.
MODULE_FN_RE = re.compile(r"^([\w-]+):([\w.$]+)$")
MODULE_BARE_RE = re.compile(r"^\[module ([\w-]+)\]$")
# x86-64's module area: MODULES_VADDR to MODULES_END.  MODULES_VADDR is 0xffffffffc0000000
# in Debian's kernel (RANDOMIZE_BASE makes KERNEL_IMAGE_SIZE 1 GiB; 0xffffffffa0000000
# without it): below it lies the kernel's own image, which KASLR slides there on HVM.
MODULE_AREA = (0xFFFFFFFFC0000000, 0xFFFFFFFFFF000000)
READY_MODULES_RE = re.compile(r" modules=(\S+)")


def is_module_frame(f):
    return bool(MODULE_FN_RE.match(f) or MODULE_BARE_RE.match(f))


def module_chains(stacks):
    """The stacks with a frame in module code."""
    return [(f, n) for f, n in stacks if any(is_module_frame(x) for x in body_of(f))]


def check_modules(stacks, ready, r, reasons):
    """Samples in module text: named module:function (at least one where the guest ran
    its module work), none "[module NAME]", no frame in the module area left as hex."""
    c = {"named_leaf_samples": 0, "bare_leaf_samples": 0, "hex_in_module_area": 0,
         "chains_through_module": 0}
    fns, mods = {}, {}
    for frames, n in stacks:
        body = body_of(frames)
        if any(is_module_frame(f) for f in body):
            c["chains_through_module"] += n
        for f in body:
            h = HEX_RE.match(f)
            if h and MODULE_AREA[0] <= int(h.group(1), 16) < MODULE_AREA[1]:
                c["hex_in_module_area"] += n
        if not body:
            continue
        fm, bm = MODULE_FN_RE.match(body[-1]), MODULE_BARE_RE.match(body[-1])
        if fm:
            c["named_leaf_samples"] += n
            fns[body[-1]] = fns.get(body[-1], 0) + n
            mods[fm.group(1)] = mods.get(fm.group(1), 0) + n
        elif bm:
            c["bare_leaf_samples"] += n
            mods[bm.group(1)] = mods.get(bm.group(1), 0) + n
    m = READY_MODULES_RE.search(ready)
    c["guest_work"] = m.group(1) if m else None
    c["by_module"] = dict(sorted(mods.items(), key=lambda kv: -kv[1]))
    c["top_functions"] = dict(sorted(fns.items(), key=lambda kv: -kv[1])[:8])
    r["modules"] = c
    if not m or m.group(1) == "none":
        return                          # no module work in this guest: reported only
    if not c["named_leaf_samples"]:
        reasons.append("the guest ran module work (%s) but no sample's pc is named "
                       "module:function" % m.group(1))
    if c["bare_leaf_samples"]:
        reasons.append("%d samples in module text named only [module NAME] (its symbols "
                       "were not read)" % c["bare_leaf_samples"])
    if c["hex_in_module_area"]:
        reasons.append("%d frames in the module area left as hex" % c["hex_in_module_area"])
    through = kernel_chains(module_chains(stacks))
    c["chains_through_module_whole_pct"] = through["whole_pct"]
    c["chains_through_module_other_roots"] = through["other_roots"]
    if through["whole_pct"] is not None and through["whole_pct"] < MIN_WHOLE_KERNEL_PCT:
        reasons.append("%.2f%% of the chains through module code end at a kernel entry "
                       "(need %.0f%%; others end at %s)"
                       % (through["whole_pct"], MIN_WHOLE_KERNEL_PCT,
                          ", ".join("%s x%d" % kv for kv in
                                    list(through["other_roots"].items())[:4])))


def judge_stack(d, sid, m, from_memory=False):
    """`xen-uniprof stack GUEST --format json` of the running guest: every online vCPU's
    frames in the kernel half named from the image (at the slide the HVM guest's kernel
    runs, which stack must have found and confirmed itself: its document's "slide"),
    each kernel-mode walk complete (through module code too), the guest running
    afterwards.  from_memory: the kernel file was gone, so the names must come from the
    kernel in the guest's memory (its document's "elf"), read at the addresses it runs
    at (slide 0, wherever KASLR put it)."""
    gtype = m.group(1)
    guest = "linux-" + gtype
    r, reasons, rc = begin(d, sid, guest=guest, guest_type=gtype, tool="xen-uniprof")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    try:
        doc = json.loads(read_id(d, sid, ".stdout", "") or "")
    except ValueError as e:
        reasons.append("stack's output is not JSON: %s" % e)
        doc = {}
    # stack says the slide its ELF check confirmed in its document ("slide")
    r["slide"] = doc.get("slide")
    r["elf"] = doc.get("elf")
    if from_memory and ("'s memory" not in (r["elf"] or "") or r["slide"] != "0x0"):
        reasons.append("stack did not name the kernel from the guest's memory at the "
                       "addresses it runs at (elf %s, slide %s)" % (r["elf"], r["slide"]))
    elif not from_memory and gtype == "hvm" and r["slide"] in (None, "0x0"):
        reasons.append("stack found no slide of the HVM guest's kernel (slide %s)"
                       % r["slide"])
    snaps = doc.get("snapshots") or [{}]
    vcpus = [v for v in snaps[0].get("vcpus", []) if v.get("online")]
    r["vcpus"] = []
    if not vcpus:
        reasons.append("stack showed no online vCPU")
    for v in vcpus:
        frames = [f for f in v.get("frames", []) if f.get("pc")]
        unnamed = [f["pc"] for f in frames
                   if int(f["pc"], 16) >= KERNEL_BASE and not f.get("function")]
        e = {"vcpu": v.get("vcpu"), "mode": v.get("mode"), "complete": v.get("complete"),
             "end": v.get("end"), "frames": [f.get("function") or f["pc"] for f in frames]}
        r["vcpus"].append(e)
        if unnamed:
            reasons.append("vCPU %s: kernel frames without a name: %s"
                           % (v.get("vcpu"), ", ".join(unnamed[:4])))
        if v.get("mode") == "kernel" and not v.get("complete"):
            reasons.append("vCPU %s: the kernel-mode walk ended %s (%s)"
                           % (v.get("vcpu"), v.get("end"), ";".join(e["frames"][:6])))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


# top's last window: the two busy tasks' totals, each of the window's samples (the
# housekeeping vCPU's idle ones among them), within this factor of each other: the guest
# gives them equal CPU time (by its own accounting, 46-50 % each of the known tasks').
TOP_TASK_RATIO = 1.5
TOP_TASK_MIN_PCT = 5.0
READY_PIDS_RE = re.compile(r"busy=(\d+) dd=(\d+)")


def judge_top(d, sid, m):
    """`xen-uniprof top -b -n 2 -d 5 GUEST`: in its last window the busy loop and dd are
    rows of their own, "[task] comm/pid" (pids from the guest's READY line), each with at
    least TOP_TASK_MIN_PCT of the samples and within TOP_TASK_RATIO of each other."""
    gtype = m.group(1)
    guest = "linux-" + gtype
    r, reasons, rc = begin(d, sid, guest=guest, guest_type=gtype, tool="xen-uniprof")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    check_console(d, guest, r, reasons)
    snaps, bad = parse_snapshots(read_id(d, sid, ".stdout", ""))
    pids = READY_PIDS_RE.search(r.get("guest_ready") or "")
    if bad:
        reasons.append("top printed lines that fit no part of its format: %s" % bad[:3])
    if len(snaps) != 2 or not pids:
        reasons.append("%d snapshots (expected 2)%s" % (
            len(snaps), "" if pids else "; no task pids in the guest's READY line"))
        return finish(r, reasons)
    rows = snaps[-1]["rows"]
    tasks = {}
    for name, pid in (("busy", pids.group(1)), ("dd", pids.group(2))):
        row = [v for k, v in rows.items() if TASK_RE.match(k)
               and TASK_RE.match(k).group(2) == pid]
        tasks[name] = row[0][1] if row else None
        if not row or row[0][1] < TOP_TASK_MIN_PCT:
            reasons.append("task %s (pid %s): %s of the last window in top (need a row "
                           "with %.0f%%)" % (name, pid, "%.2f%%" % row[0][1] if row
                                             else "no row", TOP_TASK_MIN_PCT))
    r["task_totals_pct"] = tasks
    r["top_rows"] = dict(sorted(rows.items(), key=lambda kv: -kv[1][1])[:8])
    if all(tasks.values()):
        ratio = max(tasks.values()) / min(tasks.values())
        r["busy_dd_ratio"] = round(ratio, 2)
        if ratio > TOP_TASK_RATIO:
            reasons.append("busy and dd: %.2f%% and %.2f%% of top's last window (need "
                           "within %.1fx of each other)" % (tasks["busy"], tasks["dd"],
                                                            TOP_TASK_RATIO))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_stack_memory(d, sid, m):
    """judge_stack once the guest's kernel file is gone: named from its memory."""
    return judge_stack(d, sid, m, from_memory=True)


JUDGES = [
    (r"linux-(pv|pvh|hvm)-profile", judge_profile),
    (r"linux-(pv|pvh|hvm)-stack", judge_stack),
    (r"linux-(hvm)-stack-memory", judge_stack_memory),
    (r"linux-(pv|pvh)-top", judge_top),
]
