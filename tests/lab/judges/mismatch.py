# SPDX-License-Identifier: GPL-2.0-only
"""A build for another Xen than the one running: scenarios/mismatch.sh (a copied binary)
and scenarios/mismatch-deb.sh (the Debian package, through /usr/sbin/xen-uniprof).

It must refuse in one line that names the running Xen (XENVER_version) and the Xen it was
built for and says what to do, exit 7, and leave the guest as it was.
"""
import re

from .common import begin, check_guest_after, expect_rc, finish, read, read_id

EXIT_XEN_MISMATCH = 7
LINE_RE = re.compile(r"Xen version mismatch: the running hypervisor is Xen (\d+\.\d+)\S*, "
                     r"this xen-uniprof was built for Xen (\d+\.\d+)")


def judge(d, sid, m):
    guest = "ratio-pv"
    r, reasons, rc = begin(d, sid, guest=guest, tool="xen-uniprof (another Xen's build)")
    if reasons is None:
        return r
    expect_rc(d, sid, rc, EXIT_XEN_MISMATCH, reasons)
    err = (read_id(d, sid, ".stderr", "") or "").splitlines()
    lines = [l for l in err if LINE_RE.search(l)]
    r["message"] = lines[0] if lines else None
    if len(lines) != 1:
        reasons.append("%d 'Xen version mismatch' lines (expected 1): %s"
                       % (len(lines), " | ".join(err[-3:])))
    else:
        running, built = LINE_RE.search(lines[0]).groups()
        r["running_xen"], r["built_for_xen"] = running, built
        xl_info = read(d + "/xl-info.txt", "") or ""
        booted = re.search(r"^xen_major\s*:\s*(\d+)\s*$.*?^xen_minor\s*:\s*(\d+)\s*$", xl_info,
                           re.M | re.S)
        if booted and running != "%s.%s" % booted.groups():
            reasons.append("the line names Xen %s running, xl info says %s.%s"
                           % ((running,) + booted.groups()))
        if running == built:
            reasons.append("the line names the same version twice (%s)" % running)
        if "rebuild" not in lines[0]:
            reasons.append("the line does not say what to do")
    check_guest_after(d, sid, guest, r, reasons)
    return finish(r, reasons)


JUDGES = [(r"mismatch-pv", judge), (r"mismatch-deb-pv", judge)]
