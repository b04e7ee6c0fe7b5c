# SPDX-License-Identifier: GPL-2.0-only
# A build of xen-uniprof for another Xen than the one running (tests/lab/run
# --mismatch-build, installed at /opt/xu-mismatch), judged by tests/lab/judges/mismatch.py:
# the hypervisor rejects its domctl interface version, and it must say so in one line
# naming both versions, exit 7, and leave the guest running.
guest_up ratio-pv mismatch-pv
RUN_GUEST=ratio-pv
run mismatch-pv \
    /opt/xu-mismatch/xen-uniprof ratio-pv -T 2 -o /out/mismatch-pv.folded \
        --elf /guests/ratio-pv.elf
RUN_GUEST=
guest_down ratio-pv
