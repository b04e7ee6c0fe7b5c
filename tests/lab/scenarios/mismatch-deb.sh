# SPDX-License-Identifier: GPL-2.0-only
# The Debian package built for another Xen (tests/lab/run --mismatch-deb), installed in this
# dom0, run as its user would, through /usr/sbin/xen-uniprof, judged by
# tests/lab/judges/mismatch.py: with no build of the running release installed it runs the
# package's own, which must refuse in one line naming both releases, exit 7, and leave the
# guest running.
guest_up ratio-pv mismatch-deb-pv
RUN_GUEST=ratio-pv
run mismatch-deb-pv \
    /usr/sbin/xen-uniprof ratio-pv -T 2 -o /out/mismatch-deb-pv.folded
RUN_GUEST=
guest_down ratio-pv
