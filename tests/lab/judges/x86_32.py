# SPDX-License-Identifier: GPL-2.0-only
"""What each Xen allows a 32-bit x86 PV guest (tests/guests/x86_32pv, PAE).

Scenario id: create-x86_32-pv, `xl create` of ratio-x86_32-pv (scenarios/x86_32.sh on
Debian's 4.17, scenarios/x86_32-pv.sh on the source-built 4.8).  A hypervisor built with
PV32 lists "xen-3.0-x86_32p" among its capabilities (xl info's xen_caps): there the guest
must boot and say GUEST_RUNNING on its console.  One without must refuse it at
`xl create`, with a message that says the guest type is not supported, and leave no
domain behind.  The 32-bit PVH and HVM guests' profiles are profiles.py's and xenctx.py's.
"""
import os
import re

from .common import begin, finish, read, read_id, xl_state

PV32_CAP = "xen-3.0-x86_32p"


def xen_caps(d):
    m = re.search(r"^xen_caps\s*:\s*(.*)$", read(os.path.join(d, "xl-info.txt"), "") or "",
                  re.M)
    return m.group(1).split() if m else None


def judge_create(d, sid, m):
    guest = "ratio-x86_32-pv"
    r, reasons, rc = begin(d, sid, guest=guest, guest_type="x86_32-pv", tool="xl")
    if reasons is None:
        return r
    caps = xen_caps(d)
    r["xen_caps"] = caps
    out = (read_id(d, sid, ".stderr", "") or "").strip()
    r["xl_create_output"] = out.splitlines()[-6:]
    if caps is None:
        reasons.append("no xen_caps in xl-info.txt: cannot tell whether this Xen has PV32")
        return finish(r, reasons)
    r["pv32"] = PV32_CAP in caps
    state = xl_state(read_id(d, sid, ".xllist"), guest)
    r["xl_state_after"] = state
    if r["pv32"]:
        console = read_id(d, sid, ".console", "") or ""
        r["console_tail"] = console.strip().splitlines()[-3:]
        if rc != 0:
            reasons.append("xl create exited %d on a Xen with %s: %s"
                           % (rc, PV32_CAP, " | ".join(r["xl_create_output"])))
        elif "GUEST_RUNNING" not in console:
            reasons.append("the 32-bit PV guest did not say GUEST_RUNNING on its console")
    else:
        refusal = [line for line in out.splitlines() if "not supported" in line]
        r["refusal"] = refusal[0] if refusal else None
        if rc == 0:
            reasons.append("xl create of a 32-bit PV guest exited 0 on a Xen without %s"
                           % PV32_CAP)
        elif not refusal:
            reasons.append("xl create refused the 32-bit PV guest without saying its type "
                           "is not supported: %s" % " | ".join(r["xl_create_output"]))
        if state is not None:
            reasons.append("a refused guest left a domain behind (xl list state %s)" % state)
    return finish(r, reasons)


JUDGES = [(r"create-x86_32-pv", judge_create)]
