#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /usr/sbin/xen-uniprof: run the xen-uniprof built for the running hypervisor,
# /usr/lib/xen-<major.minor>/bin/xen-uniprof, as xen-utils-common's
# xen-utils-wrapper does for xl.  Where no build for that release is
# installed, or there is no hypervisor (convert and diff work anywhere), run
# the build of this package: it names both Xen releases and exits with status
# 7, where the generic wrapper could only say that it found nothing to run.
read -r major 2>/dev/null </sys/hypervisor/version/major
read -r minor 2>/dev/null </sys/hypervisor/version/minor
bin=/usr/lib/xen-$major.$minor/bin/xen-uniprof
[ -x "$bin" ] || bin=@XEN_DIR@/bin/xen-uniprof
exec "$bin" "$@"
