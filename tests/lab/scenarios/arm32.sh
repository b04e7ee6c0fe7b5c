# SPDX-License-Identifier: GPL-2.0-only
# ARMv7 guests (tests/guests/arm32): ratio, nested and smp built for AArch32, booted as
# 32-bit domains of the arm64 Xen from their zImage, profiled by name like their arm64
# twins.  Types: arm32 (ARM code, short-descriptor tables), arm32thumb (Thumb-2 code,
# GCC's r7 frame pointer) and arm32lpae (ARM code, LPAE tables).  Judged by the 64-bit
# twins' judges (profiles.py, xenctx.py) by ID:
#   <prog>-<type>-<backend>             frame pointers: shares of the guest's own split,
#                                       >= 99 % full chains from _start (smp: per vCPU)
#   <prog>-nofp-<type>-ehabi-xencall    no frame pointers, --unwind=ehabi (.ARM.exidx)
#   <prog>-nofp-<type>-xencall          the same guest, --unwind=cfi (.debug_frame)
#   <prog>-nofp-<type>-fp-control       the -nofp guest really has no frame pointers
#   <prog>-<type>-xenctx                Xen's xenctx reads the AArch32 vCPU's registers
# Not in any default set: scripts/test's arm64 part adds it under XU_TEST_ALL=1
# (--add-scenarios arm32).
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# arm32_profile GUEST UNWIND ID: 20,000 samples, --elf as in profiles.sh; smp per vCPU.
arm32_profile() {
    guest=$1 unwind=$2 id=$3 backend=${4:-xencall}
    per_vcpu=
    case $guest in smp-*) per_vcpu=--per-vcpu ;; esac
    run "$id" \
        xen-uniprof "$guest" -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
            --unwind="$unwind" $per_vcpu -o "/out/$id.folded" --stats "/out/$id.stats.json" \
            --elf "/guests/$guest.elf" --backend "$backend"
}

# arm32_guest PROG TYPE [BACKEND...]: the frame-pointer build with xenctx's dumps, then for
# ratio the -nofp build with EHABI, with CFI, and the control.
arm32_guest() {
    prog=$1 type=$2
    shift 2
    guest=$prog-$type
    ids=$guest-xenctx
    for backend in "$@"; do ids="$ids $guest-$backend"; done
    # shellcheck disable=SC2086
    guest_up $guest $ids
    xenctx_samples $guest-xenctx $guest 3
    for backend in "$@"; do arm32_profile $guest fp $guest-$backend $backend; done
    guest_down $guest
    [ "$prog" = ratio ] || return 0
    guest=$prog-nofp-$type
    guest_up $guest $guest-ehabi-xencall $guest-xencall $guest-fp-control
    arm32_profile $guest ehabi $guest-ehabi-xencall
    arm32_profile $guest cfi $guest-xencall
    run $guest-fp-control \
        xen-uniprof $guest -F "$LAB_FREQ" -T "$T" --samples 500 --unwind=fp -q \
            -o /out/$guest-fp-control.folded --elf /guests/$guest.elf
    guest_down $guest
}

# both backends on the ARM build; Thumb-2 and LPAE with one each
arm32_guest ratio arm32 xencall xc
arm32_guest ratio arm32thumb xencall
arm32_guest ratio arm32lpae xencall
arm32_guest nested arm32 xencall
arm32_guest nested arm32thumb xencall
arm32_guest smp arm32 xencall
