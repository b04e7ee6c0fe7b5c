# SPDX-License-Identifier: GPL-2.0-only
"""Xen's own xenctx on the guests: an independent check of their frame chains.

Scenario ids: <program>-<type>-xenctx; dom0 leaves N call traces in <id>.xenctx.
"""
import re

from .common import check_guest_after, did_not_run, finish, new_result, pct, read_id

HOT = {"ratio": {"function_1", "function_2", "function_3"},
       "nested": {"function_1", "function_2", "function_3", "function_4", "function_5"},
       "smp": {"function_1"},
       # hcall: also blocked in the hypercall page, or in the event upcall
       "hcall": {"function_1", "function_2", "function_3", "hypercall_page",
                 "hypervisor_callback", "do_hypervisor_callback", "block_for", "now_ns",
                 "HYPERVISOR_sched_op", "HYPERVISOR_set_timer_op"}}
# hcall: what the traces must show at least once between them to prove the guest blocks
# in the hypercall page and takes upcalls is only reported (a dozen traces catch the
# vCPU blocked with good odds, in the upcall with poor ones).
HCALL_SEEN = ("hypercall_page", "hypervisor_callback", "do_hypervisor_callback")


def traces(text):
    """Per sample, per vCPU: the function names of xenctx's call trace, leaf first."""
    samples = []
    for chunk in re.split(r"^@@SAMPLE \d+\s*$", text or "", flags=re.M)[1:]:
        vcpus = {}
        cur = "vcpu0"
        for line in chunk.splitlines():
            m = re.match(r"\s*vcpu\s*(\d+)", line, re.I)
            if m:
                cur = "vcpu" + m.group(1)
                continue
            m = re.search(r"\[<[0-9a-f]+>\] ([A-Za-z_][\w.]*)\+0x", line)
            if m and "Call Trace" not in line:
                vcpus.setdefault(cur, []).append(m.group(1))
        samples.append(vcpus)
    return samples


def judge(d, sid, m):
    prog, gtype = m.groups()
    guest = "%s-%s" % (prog, gtype)
    r = new_result(d, sid, guest=guest, program=prog, guest_type=gtype, backend=None,
                   tool="xenctx")
    text = read_id(d, sid, ".xenctx")
    if text is None:
        return did_not_run(r)
    reasons = []
    samples = traces(text)
    r["samples"] = len(samples)
    good = 0
    for s in samples:
        t0 = s.get("vcpu0", [])
        ok = bool(t0) and t0[0] in HOT[prog] and "main" in t0 and "start_kernel" in t0
        if prog == "smp":
            t1 = s.get("vcpu1", [])
            ok = ok and bool(t1) and t1[0] == "function_2" and "secondary_main" in t1
        good += ok
    r["complete_chains"] = round(pct(good, len(samples)), 2)
    if prog == "hcall":
        leaves = {}
        for s in samples:
            t0 = s.get("vcpu0", [])
            leaf = t0[0] if t0 else "(none)"
            leaves[leaf] = leaves.get(leaf, 0) + 1
        r["leaves"] = leaves
        r["traces_in"] = {fn: sum(1 for s in samples if fn in s.get("vcpu0", []))
                          for fn in HCALL_SEEN}
        r["blocked_traces"] = [s.get("vcpu0") for s in samples
                               if s.get("vcpu0", [None])[0] == "hypercall_page"][:3]
    if not samples:
        reasons.append("xenctx printed no samples")
    elif good != len(samples):
        reasons.append("%d of %d xenctx traces lack the expected chain"
                       % (len(samples) - good, len(samples)))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


JUDGES = [(r"(ratio|nested|smp|hcall)-(pv|pvh)-xenctx", judge)]
