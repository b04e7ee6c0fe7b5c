# SPDX-License-Identifier: GPL-2.0-only
# Unwinding without frame pointers (DWARF CFI): the ratio, nested and hcall guests built with
# -fomit-frame-pointer -fasynchronous-unwind-tables (tests/guests: <prog>-nofp-<type>),
# profiled with --unwind=cfi, judged like their frame-pointer twins in profiles.sh: the
# same shares within 2 points, >= 99 % of samples with the full chain down to _start.
# The unwinder is the same for both backends, so one backend (xencall) is enough here.
# Control: the frame-pointer walk on the same guest must lose the chains, or these guests
# were not built the way the CFI runs need.
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# Guest types: pv pvh on x86_64, arm on arm64 (init.sh's LAB_GUEST_TYPES); hcall (the
# hypercall page and event upcalls) is x86 only.
# hcall is recorded with --spin, as in profiles.sh.
for type in ${LAB_GUEST_TYPES:-pv pvh}; do
    progs="ratio nested"
    case $type in pv|pvh) progs="$progs hcall" ;; esac
    for prog in $progs; do
        guest=$prog-nofp-$type
        guest_up $guest
        spin=
        [ $prog = hcall ] && spin=--spin
        run $guest-xencall \
            xen-uniprof $guest -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES --unwind=cfi $spin \
                -o /out/$guest-xencall.folded --stats /out/$guest-xencall.stats.json \
                --elf /guests/$guest.elf --backend xencall
        run $guest-fp-control \
            xen-uniprof $guest -F "$LAB_FREQ" -T "$T" --samples 500 --unwind=fp -q \
                -o /out/$guest-fp-control.folded --elf /guests/$guest.elf
        guest_down $guest
    done
done
