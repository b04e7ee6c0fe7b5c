# SPDX-License-Identifier: GPL-2.0-only
"""Xen's own xenctx on the guests: an independent check of their frame chains.

Scenario ids: <program>-<type>-xenctx; dom0 leaves N call traces in <id>.xenctx.
"""
import os
import re

from .common import check_guest_after, did_not_run, finish, new_result, pct, read, read_id

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


def frames(text):
    """Per sample, per vCPU: xenctx's call trace, leaf first, as (function, offset)."""
    samples = []
    for chunk in re.split(r"^@@SAMPLE \d+\s*$", text or "", flags=re.M)[1:]:
        vcpus = {}
        cur = "vcpu0"
        for line in chunk.splitlines():
            m = re.match(r"\s*vcpu\s*(\d+)", line, re.I)
            if m:
                cur = "vcpu" + m.group(1)
                continue
            # name+0xOFFSET, or the bare name at a symbol's first byte (an upcall
            # entry taken at its first instruction: "hypervisor_callback <--")
            m = re.search(r"\[<[0-9a-f]+>\] ([A-Za-z_][\w.]*)(?:\+0x([0-9a-f]+)|\s|$)", line)
            if m and "Call Trace" not in line:
                vcpus.setdefault(cur, []).append((m.group(1), int(m.group(2) or "0", 16)))
        samples.append(vcpus)
    return samples


def traces(text):
    """Per sample, per vCPU: the function names of xenctx's call trace, leaf first."""
    return [{v: [name for name, _ in t] for v, t in s.items()} for s in frames(text)]


# xenctx follows RBP and nothing else.  Before a function's `push %rbp; mov %rsp,%rbp`
# (its first 4 bytes) RBP is still the caller's frame, so the trace skips that caller;
# an upcall taken there hides the same frame behind the interrupt frame, which xenctx
# does not know either.  Under QEMU TCG a function's first instruction starts a
# translation block, where interrupts are delivered and pauses land more often than
# elsewhere, so a dozen traces of the upcalling guest catch this now and then.
PROLOGUE_BYTES = 4
UPCALL_ENTRY = "hypervisor_callback"
# What else xenctx may print for the upcalling guest is not known in full (it reads a
# vCPU that an upcall can interrupt at any instruction): one trace of the dozen may
# differ, and is reported with the result.  Every other program gets none.
TOLERATED = {"hcall": 1}


def trace_ok(prog, t):
    """Does one vCPU 0 trace (leaf first, (function, offset)) show the guest's chain?"""
    names = [name for name, _ in t]
    if not names or "start_kernel" not in names:
        return False
    if names[0] == "main":
        return True     # main's own loop, about 1 % of the time
    if names[0] not in HOT[prog]:
        return False
    if "main" in names:
        return True
    in_prologue = t[0][1] < PROLOGUE_BYTES
    return in_prologue or UPCALL_ENTRY in names


def judge(d, sid, m):
    prog, gtype = m.groups()
    guest = "%s-%s" % (prog, gtype)
    r = new_result(d, sid, guest=guest, program=prog, guest_type=gtype, backend=None,
                   tool="xenctx")
    text = read_id(d, sid, ".xenctx")
    if text is None:
        return did_not_run(r)
    reasons = []
    traced = frames(text)
    samples = traces(text)
    r["samples"] = len(samples)
    good = 0
    bad = []
    for f, s in zip(traced, samples):
        ok = trace_ok(prog, f.get("vcpu0", []))
        if prog == "smp":
            # vCPU 1 in function_2 under secondary_main, or in secondary_main's own loop
            # (like main's for vCPU 0; seen once in a CI run: secondary_main+0x9)
            t1 = s.get("vcpu1", [])
            ok = ok and bool(t1) and (t1[0] == "function_2" and "secondary_main" in t1
                                      or t1[0] == "secondary_main")
        good += ok
        if not ok:
            bad.append(";".join("%s+%#x" % fr for fr in reversed(f.get("vcpu0", []))))
    r["complete_chains"] = round(pct(good, len(samples)), 2)
    r["without_main"] = sum(1 for s in samples if "main" not in s.get("vcpu0", []))
    r["bad_traces"] = bad
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
    elif len(samples) - good > TOLERATED.get(prog, 0):
        reasons.append("%d of %d xenctx traces lack the expected chain (vCPU 0, root "
                       "first: %s)" % (len(samples) - good, len(samples), bad[0] or "none"))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


# ---- arm guests ---------------------------------------------------------------------------
# Debian's arm64 xenctx prints registers only: no call trace and no symbols (-s and -f are
# ignored).  What its dumps can still show of the guest (tests/guests/arm64):
#   the MMU is on (SCTLR_EL1.M) with the kernel map in TTBR1,
#   PC is a high (TTBR1) address inside one of the program's hot functions,
#   LR (x30) returns into a caller of the call graph, x29 is a high stack address,
#   and for smp vCPU 1 is online, running function_2 under secondary_main.
# The frame records are followed by the lab's dom0 checker xu-arm-frames (<id>.frames): per
# sample and vCPU, PC then the return address of every record up x29, through the guest's
# own page tables, to the record whose saved x29 is 0.  Root first, the chain must read
#     vCPU 0: _start;start_kernel;main;...      vCPU 1 (smp): _start_ap;secondary_main;...
# A sample taken in a prologue, before the function's own record exists, lacks its
# caller; under TCG a function's first instruction is a translation block start, where
# samples cluster, so a few of those are expected and allowed.
MIN_ARM_CHAINS = 90.0
KERNEL_VA_MIN = 0xffff000000000000
ARM_CALLERS = {"ratio": {"main"}, "nested": {"main", "function_1", "function_2"},
               "smp": {"main"}}
ARM_VCPU1 = ({"function_2", "secondary_main"}, {"secondary_main", "_start_ap"})


def arm_dumps(text):
    """[{vcpuN: {register: value}}] from dom0's xenctx -a dumps."""
    samples = []
    parts = re.split(r"^@@SAMPLE (\d+) (vcpu\d+)\s*$", text or "", flags=re.M)
    by_sample = {}
    for i in range(1, len(parts) - 2, 3):
        regs = {}
        for name, val in re.findall(r"\b(PC|LR|SP_EL1|x29|SCTLR_EL1|TTBR0|TTBR1|TTBCR):\s*"
                                    r"([0-9a-fA-F]+)", parts[i + 2]):
            regs[name] = int(val, 16)
        by_sample.setdefault(int(parts[i]), {})[parts[i + 1]] = regs
    for k in sorted(by_sample):
        samples.append(by_sample[k])
    return samples


def read_map(path):
    """[(address, name)] of the text symbols of an nm -n map, sorted."""
    syms = []
    for line in (read(path, "") or "").splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "Tt":
            syms.append((int(f[0], 16), f[2]))
    return syms


def symbolize(syms, addr):
    best = None
    for a, n in syms:
        if a <= addr:
            best = n
        else:
            break
    return best


def arm_chains(text, syms):
    """[(sample, vcpu, frames root-first, ended at fp=0)] from xu-arm-frames output."""
    out = []
    cur = None
    for line in (text or "").splitlines():
        m = re.match(r"sample (\d+) (vcpu\d+) pc=([0-9a-f]+)", line)
        if m:
            cur = [int(m.group(1)), m.group(2), [symbolize(syms, int(m.group(3), 16))], False]
            out.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"\s+frame fp=\S+ next=\S+ ret=([0-9a-f]+)", line)
        if m:
            cur[2].append(symbolize(syms, int(m.group(1), 16)))
        elif re.match(r"\s+end fp=0", line):
            cur[3] = True
    return [(s, v, list(reversed(f)), ok) for s, v, f, ok in out]


def check_arm_chains(d, sid, prog, syms, r, reasons):
    text = read_id(d, sid, ".frames")
    if text is None:
        reasons.append("no frame walk (%s.frames from xu-arm-frames)" % sid)
        return
    chains = arm_chains(text, syms)
    want = {"vcpu0": ["_start", "start_kernel", "main"],
            "vcpu1": ["_start_ap", "secondary_main"]}
    good = 0
    folded = {}
    for _, vcpu, frames, ended in chains:
        key = "%s;%s%s" % (vcpu, ";".join(str(f) for f in frames), "" if ended else ";[cut]")
        folded[key] = folded.get(key, 0) + 1
        good += ended and frames[:len(want.get(vcpu, []))] == want.get(vcpu) and \
            len(frames) > len(want.get(vcpu, []))
    r["frame_walks"] = len(chains)
    r["frame_chains_complete_pct"] = round(pct(good, len(chains)), 2)
    r["frame_chains"] = dict(sorted(folded.items(), key=lambda kv: -kv[1]))
    vcpus = {v for _, v, _, _ in chains}
    if not chains:
        reasons.append("xu-arm-frames walked no chain: %s" % (text.strip()[-200:]))
    elif r["frame_chains_complete_pct"] < MIN_ARM_CHAINS:
        reasons.append("%.2f%% of the frame walks are complete chains (need >= %.0f%%)"
                       % (r["frame_chains_complete_pct"], MIN_ARM_CHAINS))
    if prog == "smp" and "vcpu1" not in vcpus:
        reasons.append("xu-arm-frames saw no online vCPU 1")


def judge_arm(d, sid, m):
    prog = m.group(1)
    guest = "%s-arm" % prog
    r = new_result(d, sid, guest=guest, program=prog, guest_type="arm", backend=None,
                   tool="xenctx")
    text = read_id(d, sid, ".xenctx")
    if text is None:
        return did_not_run(r)
    reasons = []
    syms = read_map(os.path.join(d, "..", "guests", "%s-arm64.map" % prog))
    if not syms:
        reasons.append("no map of %s-arm64 in the lab's guests/" % prog)
    samples = arm_dumps(text)
    r["samples"] = len(samples)
    good = 0
    seen = []
    for s in samples:
        ok = True
        row = {}
        for vcpu, regs in sorted(s.items()):
            pc, lr = regs.get("PC", 0), regs.get("LR", 0)
            row[vcpu] = {"pc": "%x" % pc, "pc_sym": symbolize(syms, pc),
                         "lr_sym": symbolize(syms, lr), "x29": "%x" % regs.get("x29", 0),
                         "sctlr_el1": "%x" % regs.get("SCTLR_EL1", 0),
                         "ttbr1": "%x" % regs.get("TTBR1", 0)}
            if vcpu == "vcpu0":
                hot, callers = HOT[prog], ARM_CALLERS[prog]
            else:
                hot, callers = ARM_VCPU1
            ok = ok and (regs.get("SCTLR_EL1", 0) & 1) == 1 and regs.get("TTBR1", 0) != 0
            ok = ok and pc >= KERNEL_VA_MIN and regs.get("x29", 0) >= KERNEL_VA_MIN
            # main's own loop (about 1 % of the time) is a legitimate place too; LR is
            # then a stale return address, so only a hot function's LR is checked.
            if vcpu == "vcpu0" and row[vcpu]["pc_sym"] == "main":
                continue
            ok = ok and row[vcpu]["pc_sym"] in hot and row[vcpu]["lr_sym"] in callers
        if prog == "smp" and "vcpu1" not in s:
            ok = False
        good += ok
        seen.append(row)
    r["dumps"] = seen
    r["complete_chains"] = round(pct(good, len(samples)), 2)
    if not samples:
        reasons.append("xenctx printed no register dumps")
    elif good != len(samples):
        reasons.append("%d of %d xenctx dumps are not as expected (MMU on, TTBR1 set, "
                       "high PC in a hot function, LR in its caller, high x29%s)"
                       % (len(samples) - good, len(samples),
                          ", vCPU 1 online" if prog == "smp" else ""))
    check_arm_chains(d, sid, prog, syms, r, reasons)
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


# ---- ARMv7 guests ------------------------------------------------------------------------
# The same xenctx prints an AArch32 vCPU's registers (its print_ctx_32, chosen by the CPSR's
# mode bit): PC, the banked SP and LR of each mode, r0-r12 of user/system mode (SVC shares
# them), SCTLR, TTBCR, TTBR0/1.  What the dumps show of tests/guests/arm32, independent of
# xen-uniprof's reading of the same context:
#   the MMU is on (SCTLR.M) with the paging the build set up (TTBCR.EAE: LPAE or not),
#   PC is a high (0xc0000000 up) address inside one of the program's hot functions or main,
#   SVC's SP and the frame pointer (r11 in ARM code, r7 in Thumb-2) are high stack
#   addresses, and for smp vCPU 1 is online under secondary_main.
ARM32_VA_MIN = 0xc0000000
ARM32_TTBCR_EAE = 1 << 31


def arm32_dumps(text):
    """[{vcpuN: {register: value}}] from xenctx -a dumps of AArch32 vCPUs."""
    parts = re.split(r"^@@SAMPLE (\d+) (vcpu\d+)\s*$", text or "", flags=re.M)
    by_sample = {}
    for i in range(1, len(parts) - 2, 3):
        body = parts[i + 2]
        regs = {n: int(v, 16) for n, v in re.findall(
            r"\b(PC|CPSR|r7_usr|r11_usr|SCTLR|TTBCR|TTBR0|TTBR1):\s*([0-9a-fA-F]+)", body)}
        svc = re.search(r"^SVC: SPSR:[0-9a-fA-F]+ SP:([0-9a-fA-F]+) LR:([0-9a-fA-F]+)", body,
                        flags=re.M)
        if svc:
            regs["SP_svc"], regs["LR_svc"] = int(svc.group(1), 16), int(svc.group(2), 16)
        by_sample.setdefault(int(parts[i]), {})[parts[i + 1]] = regs
    return [by_sample[k] for k in sorted(by_sample)]


def judge_arm32(d, sid, m):
    prog, gtype = m.groups()
    guest = "%s-%s" % (prog, gtype)
    r = new_result(d, sid, guest=guest, program=prog, guest_type=gtype, backend=None,
                   tool="xenctx")
    text = read_id(d, sid, ".xenctx")
    if text is None:
        return did_not_run(r)
    reasons = []
    syms = read_map(os.path.join(d, "..", "guests", "%s.map" % guest))
    if not syms:
        reasons.append("no map of %s in the lab's guests/" % guest)
    fp_reg = "r7_usr" if gtype == "arm32thumb" else "r11_usr"
    want_eae = gtype == "arm32lpae"
    samples = arm32_dumps(text)
    r["samples"] = len(samples)
    good = 0
    seen = []
    for s in samples:
        ok = bool(s)
        row = {}
        for vcpu, regs in sorted(s.items()):
            pc = regs.get("PC", 0)
            row[vcpu] = {"pc": "%x" % pc, "pc_sym": symbolize(syms, pc),
                         "fp": "%x" % regs.get(fp_reg, 0), "sp": "%x" % regs.get("SP_svc", 0),
                         "sctlr": "%x" % regs.get("SCTLR", 0),
                         "ttbcr": "%x" % regs.get("TTBCR", 0)}
            hot = (HOT[prog] | {"main"}) if vcpu == "vcpu0" else ARM_VCPU1[0]
            ok = ok and (regs.get("SCTLR", 0) & 1) == 1
            ok = ok and bool(regs.get("TTBCR", 0) & ARM32_TTBCR_EAE) == want_eae
            ok = ok and pc >= ARM32_VA_MIN and row[vcpu]["pc_sym"] in hot
            ok = ok and regs.get("SP_svc", 0) >= ARM32_VA_MIN
            ok = ok and regs.get(fp_reg, 0) >= ARM32_VA_MIN
        if prog == "smp" and "vcpu1" not in s:
            ok = False
        good += ok
        seen.append(row)
    r["dumps"] = seen
    r["as_expected_pct"] = round(pct(good, len(samples)), 2)
    if not samples:
        reasons.append("xenctx printed no register dumps")
    elif good != len(samples):
        reasons.append("%d of %d xenctx dumps are not as expected (MMU on, %s tables, high PC "
                       "in a hot function or main, high SP and %s%s)"
                       % (len(samples) - good, len(samples), "LPAE" if want_eae else
                          "short-descriptor", fp_reg.split("_")[0],
                          ", vCPU 1 online" if prog == "smp" else ""))
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


# (the 32-bit x86 guests too: scenarios/x86_32.sh; xenctx reads a 32-bit HVM/PVH vCPU)
JUDGES = [(r"(ratio|nested|smp|hcall)-(pv|pvh|x86_32(?:pae)?-(?:pvh|hvm)|x86_32-pv)-xenctx", judge),
          (r"(ratio|nested|smp)-arm-xenctx", judge_arm),
          (r"(ratio|nested|smp)-(arm32|arm32thumb|arm32lpae)-xenctx", judge_arm32)]
