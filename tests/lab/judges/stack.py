# SPDX-License-Identifier: GPL-2.0-only
"""`xen-uniprof stack` (scenarios/stack.sh).

stack-GUEST: on the guest held paused by `xl pause`, `stack GUEST` (the run's stdout, JSON)
and `stack --core` of `xl dump-core` of it (ID.core.json) must give the same vCPUs with the
same frames (address and function); every online vCPU must show the guest's chain down
from its root; and xenctx -f -C -s (ID.xenctx) must agree with us on the function of every
frame it prints: all of them for the frame-pointer builds, the innermost one for the CFI
builds (-nofp), whose RBP is no frame pointer for xenctx to follow.

stack-minios-VARIANT: the same on Xen's Mini-OS (scenarios/minios.sh), idle: vCPU 0 blocked
in the hypercall page under block_domain, its chain from a thread's root (thread_starter,
or _start on the boot path); xenctx on every frame for the -O0 build as shipped, on the
innermost for -O3 -g (o3g), which keeps no frame pointer for xenctx to follow.

stack-crash-TYPE: the core that on_crash = "coredump-destroy" left of tests/guests/crash.c
must show vCPU 0 in crash_inner, under crash_middle, crash_outer and main.

stack-PROG-arm (scenarios/stack-arm64.sh): the same as stack-GUEST with the lab's own walk
of the frame records (xu-arm-frames, ID.frames) in xenctx's place, Debian's arm64 xenctx
walking no stack: for the frame-pointer builds our frames' addresses must be its pc and
return addresses (with one more, our caller from x30, when the vCPU stopped in a prologue
before its record was made), for the CFI builds (-nofp, no records to follow) our
innermost pc its pc.  A core xl dump-core did not write is a failure that names the
command, its exit status and its output.

stack-running-PROG-arm: `stack -n 3 -d 1` on the running guest, which xen-uniprof pauses
itself: three snapshots, each with the guest's chain from its root, the guest running
afterwards.
"""
import json
import re

from .common import begin, check_guest_after, expect_rc, finish, limitation, read_id
from .xenctx import frames as xenctx_frames

# Root first, per vCPU: what the guests' chains are (tests/guests/README.md).
CHAINS = {"nested": {0: ["_start", "start_kernel", "main"]},
          "smp": {0: ["_start", "start_kernel", "main"],
                  1: ["_start_ap", "secondary_main"]}}
CRASH_CHAIN = ["crash_inner", "crash_middle", "crash_outer", "main", "start_kernel",
               "_start"]
# Where every chain of a running Mini-OS starts (judges/minios.py's THREAD_ROOTS).
MINIOS_ROOTS = {"thread_starter", "_start"}
# xenctx walks RBP alone: stopped in a function's first instructions, before its push
# %rbp; mov %rsp,%rbp, it skips the caller (judges/xenctx.py).
PROLOGUE_BYTES = 4
# Code that makes no frame record: stopped there, RBP is still the caller's frame, and
# xenctx skips the caller the same way (Mini-OS idles in a hypercall page entry under
# HYPERVISOR_sched_op; the profiles judge requires that frame of our walk).
FRAMELESS_LEAVES = {"hypercall_page"}


def load(text, what, reasons):
    try:
        return json.loads(text or "")
    except ValueError as e:
        reasons.append("%s is not JSON: %s" % (what, e))
        return None


def physical(frames):
    """The frames' physical functions, innermost first (inlined lines and upcall marks
    left out)."""
    return [f.get("function") for f in frames
            if not f.get("inlined") and f.get("kind") != "upcall"]


def vcpu_frames(doc):
    """{vcpu: [(pc, function, inlined)]} of the first snapshot's online vCPUs."""
    out = {}
    snaps = (doc or {}).get("snapshots") or [{}]
    for v in snaps[0].get("vcpus", []):
        if v.get("online"):
            out[v["vcpu"]] = v
    return out


def check_chain(prog, vcpus, r, reasons):
    for v, root_first in CHAINS[prog].items():
        names = physical(vcpus.get(v, {}).get("frames", []))
        if list(reversed(names))[:len(root_first)] != root_first:
            reasons.append("vCPU %d: the stack does not start %s (root first: %s)" % (
                v, ";".join(root_first), ";".join(reversed([str(n) for n in names]))))
        r.setdefault("chains", {})[v] = ";".join(reversed([str(n) for n in names]))
        r.setdefault("ends", {})[v] = vcpus.get(v, {}).get("end")


def check_xenctx(d, sid, nofp, live, r, reasons):
    text = read_id(d, sid, ".xenctx")
    if text is None:
        reasons.append("xenctx did not run")
        return
    traced = xenctx_frames("@@SAMPLE 0\n" + text)
    xen = traced[0] if traced else {}
    r["xenctx"] = {v: ";".join(n for n, _ in t) for v, t in xen.items()}
    for v, info in live.items():
        ours = physical(info.get("frames", []))
        theirs = [n for n, _ in xen.get("vcpu%d" % v, [])]
        if not theirs:
            reasons.append("xenctx printed no frame for vCPU %d" % v)
            continue
        if nofp:
            if theirs[0] != ours[0]:
                reasons.append("vCPU %d: xenctx is in %s, stack in %s" % (v, theirs[0], ours[0]))
            continue
        skip_caller = len(ours) > 1 and (xen["vcpu%d" % v][0][1] < PROLOGUE_BYTES or
                                         ours[0] in FRAMELESS_LEAVES)
        want = ours if not skip_caller else ours[:1] + ours[2:]
        if theirs != want[:len(theirs)] and theirs != ours[:len(theirs)]:
            reasons.append("vCPU %d: xenctx's frames %s differ from stack's %s" % (
                v, ";".join(theirs), ";".join(str(n) for n in ours)))


def paused_live(d, sid, prog, nofp, gtype):
    """What every judge of a paused guest starts with: the result, the reasons, and
    stack's live frames per vCPU (None when the run is not there to judge)."""
    guest = "%s%s-%s" % (prog, "-nofp" if nofp else "", gtype)
    r, reasons, rc = begin(d, sid, guest=guest, program=prog, guest_type=gtype,
                           build="cfi" if nofp else "fp")
    if reasons is None:
        return r, None, None, guest
    expect_rc(d, sid, rc, 0, reasons)
    live = vcpu_frames(load(read_id(d, sid, ".stdout"), "stack's output", reasons))
    want_vcpus = sorted(CHAINS[prog])
    if sorted(live) != want_vcpus:
        reasons.append("live: online vCPUs %s (expected %s)" % (sorted(live), want_vcpus))
    return r, reasons, live, guest


def judge_paused(d, sid, m):
    prog, nofp, gtype = m.group(1), bool(m.group(2)), m.group(3)
    r, reasons, live, guest = paused_live(d, sid, prog, nofp, gtype)
    if reasons is None:
        return r
    skipped = read_id(d, sid, ".core.skipped")
    if skipped:
        r["core"] = skipped.strip()
    else:
        check_core(d, sid, live, r, reasons)
    check_chain(prog, live, r, reasons)
    check_xenctx(d, sid, nofp, live, r, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def check_core(d, sid, live, r, reasons):
    """stack --core of the dump gives the vCPUs and frames the live stack gave."""
    core_rc = (read_id(d, sid, ".core.rc", "") or "").strip()
    r["dump_core"] = (read_id(d, sid, ".dump.txt", "") or "").strip()
    if core_rc != "0":
        reasons.append("stack --core exited %s: %s" % (core_rc or "(did not run)", (
            read_id(d, sid, ".core.stderr", "") or "").strip()[-300:]))
    core = vcpu_frames(load(read_id(d, sid, ".core.json"), "stack --core's output", reasons))
    if sorted(core) != sorted(live):
        reasons.append("core: vCPUs %s, live %s" % (sorted(core), sorted(live)))
    for v in live:
        a = [(f.get("pc"), f.get("function")) for f in live[v].get("frames", [])]
        b = [(f.get("pc"), f.get("function")) for f in core.get(v, {}).get("frames", [])]
        if a != b:
            reasons.append("vCPU %d: live and core frames differ: %s | %s" % (v, a, b))
    r["core_frames_equal"] = not any("differ:" in x for x in reasons)


def judge_minios(d, sid, m):
    variant = m.group(1)
    guest = "minios-" + variant
    r, reasons, rc = begin(d, sid, guest=guest, variant=variant,
                           build="fp" if variant == "shipped" else "cfi")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    live = vcpu_frames(load(read_id(d, sid, ".stdout"), "stack's output", reasons))
    if sorted(live) != [0]:
        reasons.append("live: online vCPUs %s (expected [0])" % sorted(live))
    check_core(d, sid, live, r, reasons)
    names = physical(live.get(0, {}).get("frames", []))
    r["chains"] = {0: ";".join(reversed([str(n) for n in names]))}
    r["ends"] = {0: live.get(0, {}).get("end")}
    if not names or names[-1] not in MINIOS_ROOTS:
        reasons.append("vCPU 0: the stack does not start at %s (root first: %s)" % (
            " or ".join(sorted(MINIOS_ROOTS)), r["chains"][0]))
    if names[:1] != ["hypercall_page"] or "block_domain" not in names[:3]:
        reasons.append("vCPU 0: not idle in hypercall_page under block_domain: %s" % (
            ";".join(str(n) for n in names)))
    check_xenctx(d, sid, variant != "shipped", live, r, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_crash(d, sid, m):
    gtype = m.group(1)
    r, reasons, rc = begin(d, sid, guest="crash-" + gtype, guest_type=gtype)
    if reasons is None:
        return r
    r["dump_dir"] = (read_id(d, sid, ".dumpdir", "") or "").strip()
    expect_rc(d, sid, rc, 0, reasons)
    vcpus = vcpu_frames(load(read_id(d, sid, ".stdout"), "stack --core's output", reasons))
    names = physical(vcpus.get(0, {}).get("frames", []))
    r["chain"] = ";".join(reversed([str(n) for n in names]))
    r["end"] = vcpus.get(0, {}).get("end")
    if names[:len(CRASH_CHAIN)] != CRASH_CHAIN:
        reasons.append("vCPU 0 of the core: %s, not %s (innermost first)" % (
            ";".join(str(n) for n in names), ";".join(CRASH_CHAIN)))
    return finish(r, reasons)


def arm_walk(text):
    """{vcpu: (pc, lr, [pc and return addresses, innermost first], ended at fp=0)} of
    xu-arm-frames' one sample."""
    out = {}
    cur = None
    for line in (text or "").splitlines():
        m = re.match(r"sample \d+ vcpu(\d+) pc=([0-9a-f]+) lr=([0-9a-f]+)", line)
        if m:
            cur = [int(m.group(2), 16), int(m.group(3), 16), [int(m.group(2), 16)], False]
            out[int(m.group(1))] = cur
            continue
        m = re.match(r"\s+frame fp=\S+ next=\S+ ret=([0-9a-f]+)", line)
        if cur and m:
            cur[2].append(int(m.group(1), 16))
        elif cur and re.match(r"\s+end fp=0", line):
            cur[3] = True
    return {v: tuple(c) for v, c in out.items()}


def addresses(frames):
    """The physical frames' addresses (inlined lines and upcall marks left out)."""
    return [int(f["pc"], 16) for f in frames
            if not f.get("inlined") and f.get("kind") != "upcall" and f.get("pc")]


def check_arm_walk(d, sid, nofp, live, r, reasons):
    """Our frames against xu-arm-frames' walk of the same paused vCPUs."""
    text = read_id(d, sid, ".frames")
    walk = arm_walk(text)
    r["frame_walk"] = {v: ";".join("%x" % a for a in w[2]) + ("" if w[3] else ";[cut]")
                       for v, w in walk.items()}
    if not walk:
        reasons.append("xu-arm-frames walked nothing: %s" % (text or "").strip()[-200:])
        return
    for v, info in live.items():
        ours = addresses(info.get("frames", []))
        if v not in walk:
            reasons.append("xu-arm-frames saw no online vCPU %d" % v)
            continue
        pc, lr, theirs, ended = walk[v]
        if not ours or ours[0] != pc:
            reasons.append("vCPU %d: stack's pc %s, xu-arm-frames' %x" % (
                v, "%x" % ours[0] if ours else "none", pc))
            continue
        if nofp:
            continue
        if not ended:
            reasons.append("vCPU %d: xu-arm-frames' walk did not reach fp 0" % v)
        from_x30 = len(ours) > 1 and ours[1] == lr and ours[:1] + ours[2:] == theirs
        if ours != theirs and not from_x30:
            reasons.append("vCPU %d: frames %s, xu-arm-frames %s" % (
                v, ";".join("%x" % a for a in ours), ";".join("%x" % a for a in theirs)))
        r.setdefault("caller_from_x30", {})[v] = from_x30


def check_dump_arm(d, sid, r, reasons):
    """xl dump-core must have written a core: else its command, status and output."""
    rc = (read_id(d, sid, ".dump.rc", "") or "").strip()
    r["dump"] = {"command": (read_id(d, sid, ".dump.cmd", "") or "").strip(),
                      "exit_code": rc, "output": (read_id(d, sid, ".dump.txt", "") or "").strip(),
                      "seconds": (read_id(d, sid, ".dump.secs", "") or "").strip()}
    if rc != "0":
        reasons.append("`%s` exited %s: %s" % (r["dump"]["command"], rc or "(did not run)",
                                               r["dump"]["output"][-300:]))
        return False
    return True


# What stack --core says of a core whose every page is marked not dumped.
NO_PAGES = "holds none of the guest's memory"
NO_PAGES_WHY = ("xl dump-core wrote none of the guest's pages (Xen's arm dump-core, "
                "libxenguest's xg_core_arm.c, takes guest frames 0x80000-0x87fff only; "
                "Xen 4.17 puts an arm guest's RAM at 1 GiB, frame 0x40000): stack --core "
                "shows the registers and the frames they give alone")


def check_core_arm(d, sid, live, r, reasons):
    """stack --core of the dump: the live frames when the core holds the guest's memory;
    when it holds none of it, the live vCPUs with the same registers, the live frames'
    first ones and a walk ended at unreadable memory, the limitation recorded."""
    if not check_dump_arm(d, sid, r, reasons):
        return
    if NO_PAGES not in (read_id(d, sid, ".core.stderr", "") or ""):
        check_core(d, sid, live, r, reasons)
        return
    limitation(r, NO_PAGES_WHY)
    core_rc = (read_id(d, sid, ".core.rc", "") or "").strip()
    if core_rc != "0":
        reasons.append("stack --core exited %s" % (core_rc or "(did not run)"))
    core = vcpu_frames(load(read_id(d, sid, ".core.json"), "stack --core's output", reasons))
    if sorted(core) != sorted(live):
        reasons.append("core: vCPUs %s, live %s" % (sorted(core), sorted(live)))
    r["core_frames"] = {}
    for v in live:
        c = core.get(v, {})
        if c.get("registers") != live[v].get("registers"):
            reasons.append("vCPU %d: core registers %s, live %s" % (
                v, c.get("registers"), live[v].get("registers")))
        a = [(f.get("pc"), f.get("function")) for f in live[v].get("frames", [])]
        b = [(f.get("pc"), f.get("function")) for f in c.get("frames", [])]
        r["core_frames"][v] = ";".join(str(fn) for _, fn in b)
        if not b or a[:len(b)] != b:
            reasons.append("vCPU %d: core frames %s are not the live frames' first ones %s"
                           % (v, b, a))
        if c.get("end") != "unmapped":
            reasons.append("vCPU %d: the core's walk ended %s, not at unreadable memory"
                           % (v, c.get("end")))


def judge_paused_arm(d, sid, m):
    prog, nofp = m.group(1), bool(m.group(2))
    r, reasons, live, guest = paused_live(d, sid, prog, nofp, "arm")
    if reasons is None:
        return r
    check_core_arm(d, sid, live, r, reasons)
    check_chain(prog, live, r, reasons)
    check_arm_walk(d, sid, nofp, live, r, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


def judge_running(d, sid, m):
    prog, gtype = m.group(1), m.group(2)
    guest = "%s-%s" % (prog, gtype)
    r, reasons, rc = begin(d, sid, guest=guest, program=prog, guest_type=gtype)
    if reasons is None:
        return r
    expect_rc(d, sid, rc, 0, reasons)
    doc = load(read_id(d, sid, ".stdout"), "stack's output", reasons) or {}
    snaps = doc.get("snapshots") or []
    r["snapshots"] = len(snaps)
    if len(snaps) != 3:
        reasons.append("%d snapshots (expected 3)" % len(snaps))
    for i, snap in enumerate(snaps):
        vcpus = vcpu_frames({"snapshots": [snap]})
        sr, sreasons = {}, []
        check_chain(prog, vcpus, sr, sreasons)
        r.setdefault("chains", []).append(sr.get("chains"))
        reasons.extend("snapshot %d: %s" % (i, x) for x in sreasons)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


JUDGES = [
    (r"stack-(nested|smp)(-nofp)?-(pv|pvh)", judge_paused),
    (r"stack-(nested|smp)(-nofp)?-arm", judge_paused_arm),
    (r"stack-running-(nested|smp)-(arm|pv|pvh)", judge_running),
    (r"stack-crash-(pv|pvh)", judge_crash),
    (r"stack-minios-(shipped|o3g)", judge_minios),
]
