# SPDX-License-Identifier: GPL-2.0-only
# HVM guests: the ratio, nested and smp guests booted by Xen's device model (qemu-xen in
# dom0, hvmloader, SeaBIOS, QEMU's direct kernel boot of tests/guests/hvm's multiboot
# entry), profiled by name with no --elf (the xl plugin finds kernel=), judged by
# judges/hvm.py with profiles.py's share checks.  IDs:
#   <prog>[-nofp]-hvm-<backend>   profiles.py's checks, and the ELF found by name
#   create-ratio-hvm              --create --destroy from the firmware's first instruction:
#                                 no ELF-mismatch warning, ratio's shares among main's samples
#   destroyed-hvm                 the guest destroyed mid-run: exit 6, the kept samples'
#                                 shares within 3 points of the guest's own split
# Only a run that selects this set puts the device model and firmware into dom0
# (tests/lab/run: HVM_SETS).
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# From boot: no ratio-hvm exists yet; xen-uniprof creates it paused and profiles
# hvmloader, SeaBIOS and the option ROM before the kernel.
run create-ratio-hvm \
    xen-uniprof --create /etc/xen/ratio-hvm.cfg --destroy -F "$LAB_SHARE_FREQ" -T "$T" \
        --samples $SAMPLES -o /out/create-ratio-hvm.folded --stats /out/create-ratio-hvm.stats.json

# hvm_profiles GUEST UNWIND BACKEND...: 20,000 samples by name for each backend.
hvm_profiles() {
    guest=$1 unwind=$2
    shift 2
    ids=
    for backend in "$@"; do ids="$ids $guest-$backend"; done
    # shellcheck disable=SC2086
    guest_up "$guest" $ids
    per_vcpu=
    case $guest in smp-*) per_vcpu=--per-vcpu ;; esac
    for backend in "$@"; do
        run "$guest-$backend" \
            xen-uniprof "$guest" -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
                --unwind="$unwind" $per_vcpu -o "/out/$guest-$backend.folded" \
                --stats "/out/$guest-$backend.stats.json" --backend "$backend"
    done
    guest_down "$guest"
}
# both backends where they differ in what is read (ratio, and smp's two vCPUs); one for
# the checks of the unwinding (the CFI build, nested)
hvm_profiles ratio-hvm fp xencall xc
hvm_profiles ratio-nofp-hvm cfi xencall
hvm_profiles nested-hvm fp xencall
hvm_profiles smp-hvm fp xencall xc

# Destroyed mid-run: the guest's own split over the window the samples cover (a truth
# snapshot as the run starts and just before the destroy), then exit 6 and the samples
# taken until then.
if selected destroyed-hvm; then
    guest_up ratio-hvm destroyed-hvm
    echo "xen-uniprof ratio-hvm -F $LAB_SHARE_FREQ -T 60 (by name); after 12 s: xl destroy" \
        > /out/destroyed-hvm.cmd
    echo "@@LAB run destroyed-hvm"
    xl list ratio-hvm > /out/destroyed-hvm.xllist-before 2>&1
    xen-uniprof ratio-hvm -F "$LAB_SHARE_FREQ" -T 60 -o /out/destroyed-hvm.folded \
        --stats /out/destroyed-hvm.stats.json \
        > /out/destroyed-hvm.stdout 2> /out/destroyed-hvm.stderr &
    pid=$!
    i=0
    while ! grep -q "profiling domain" /out/destroyed-hvm.stderr 2>/dev/null &&
          kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
        sleep 0.1; i=$((i + 1))
    done
    truth_snapshot ratio-hvm /out/destroyed-hvm.truth-before
    sleep 12
    truth_snapshot ratio-hvm /out/destroyed-hvm.truth-after
    xl destroy ratio-hvm
    wait $pid
    echo $? > /out/destroyed-hvm.rc
    xl list ratio-hvm > /out/destroyed-hvm.xllist 2>&1
    echo "@@LAB done destroyed-hvm rc=$(cat /out/destroyed-hvm.rc)"
fi
guest_down ratio-hvm
