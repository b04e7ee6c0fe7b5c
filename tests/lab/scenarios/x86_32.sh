# SPDX-License-Identifier: GPL-2.0-only
# 32-bit x86 guests (tests/guests/x86_32): ratio, nested and smp built -m32, in protected
# mode with 2-level paging (type x86_32-TYPE) or PAE (x86_32pae-TYPE), as PVH guests and
# as HVM guests booted by the device model (so this is an HVM set: tests/lab/run's
# HVM_SETS).  Judged by the 64-bit twins' judges (profiles.py, xenctx.py) by ID:
#   <prog>[-nofp]-<x86_32|x86_32pae>-<pvh|hvm>-<backend>   shares of the guest's own split,
#                                     >= 99 % full chains from _start (smp: per vCPU)
#   <prog>-nofp-<...>-fp-control     the -nofp guest really has no frame pointers
#   <prog>-<...>-xenctx              Xen's xenctx reads the 32-bit vCPU and its EBP chain
# Not in any default set: scripts/test's hvm part adds it under XU_TEST_ALL=1
# (--add-scenarios x86_32).
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# x86_32_profile GUEST UNWIND BACKEND...: 20,000 samples for each backend, --elf as in
# profiles.sh; smp per vCPU.
x86_32_profile() {
    guest=$1 unwind=$2
    shift 2
    per_vcpu=
    case $guest in smp-*) per_vcpu=--per-vcpu ;; esac
    for backend in "$@"; do
        run "$guest-$backend" \
            xen-uniprof "$guest" -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
                --unwind="$unwind" $per_vcpu -o "/out/$guest-$backend.folded" \
                --stats "/out/$guest-$backend.stats.json" --elf "/guests/$guest.elf" \
                --backend "$backend"
    done
}

# x86_32_guest PROG TYPE BACKEND...: the frame-pointer build with xenctx's traces, then
# the -nofp build with --unwind=cfi and its control (ratio only).
x86_32_guest() {
    prog=$1 type=$2
    shift 2
    guest=$prog-$type
    ids=$guest-xenctx
    for backend in "$@"; do ids="$ids $guest-$backend"; done
    # shellcheck disable=SC2086
    guest_up $guest $ids
    xenctx_samples $guest-xenctx $guest 3
    x86_32_profile $guest fp "$@"
    guest_down $guest
    [ "$prog" = ratio ] || return 0
    guest=$prog-nofp-$type
    guest_up $guest $guest-xencall $guest-fp-control
    x86_32_profile $guest cfi xencall
    run $guest-fp-control \
        xen-uniprof $guest -F "$LAB_FREQ" -T "$T" --samples 500 --unwind=fp -q \
            -o /out/$guest-fp-control.folded --elf /guests/$guest.elf
    guest_down $guest
}

# both backends on one guest of each entry; each paging mode with both entries
x86_32_guest ratio x86_32-pvh xencall xc
x86_32_guest ratio x86_32pae-pvh xencall
x86_32_guest ratio x86_32-hvm xencall xc
x86_32_guest ratio x86_32pae-hvm xencall
x86_32_guest nested x86_32pae-pvh xencall
x86_32_guest smp x86_32-pvh xencall
x86_32_guest smp x86_32-hvm xencall

# x86_32_pv_create: xl create of the 32-bit PV guest (PAE).  Debian's Xen 4.14, 4.17 and
# 4.20 are built without PV32 and must refuse it (judges/x86_32.py reads xl info's
# xen_caps to know which answer to want); where the hypervisor has it (the source-built
# 4.8: scenarios/x86_32-pv.sh) the guest must boot.
x86_32_pv_create() {
    selected create-x86_32-pv || return 0
    echo "xl create /etc/xen/ratio-x86_32-pv.cfg" > /out/create-x86_32-pv.cmd
    echo "@@LAB run create-x86_32-pv"
    xl create /etc/xen/ratio-x86_32-pv.cfg > /out/create-x86_32-pv.stderr 2>&1
    echo $? > /out/create-x86_32-pv.rc
    sleep 3
    xl list ratio-x86_32-pv > /out/create-x86_32-pv.xllist 2>&1
    cp /var/log/xen/console/guest-ratio-x86_32-pv.log /out/create-x86_32-pv.console \
        2>/dev/null
    echo "@@LAB done create-x86_32-pv rc=$(cat /out/create-x86_32-pv.rc)"
    guest_down ratio-x86_32-pv
}
x86_32_pv_create
