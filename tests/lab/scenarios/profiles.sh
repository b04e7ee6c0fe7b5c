# SPDX-License-Identifier: GPL-2.0-only
# Profiles of the ground-truth guests, judged by tests/lab/judges/profiles.py (and
# xenctx.py) by ID, which names <program>-<guest type>-<backend>:
#   ratio   10/30/60 % self shares, >= 99 % complete chains down to _start
#   nested  self and total shares at two levels (see tests/guests/nested.c), one backend
#   smp     per-vCPU attribution: vcpu0 runs function_1, vcpu1 function_2
#   hcall   ratio's 10/30/60 % among the busy samples, plus a vCPU blocked in Xen's
#           hypercall page (main;block_for;HYPERVISOR_sched_op;hypercall_page) and
#           event upcalls below which the interrupted function must appear; one
#           backend (the unwinding under test does not depend on it), and more xenctx
#           traces, to catch the vCPU blocked in the hypercall page and in the upcall;
#           with --spin (dom0 has CPU 0 to itself here, init.sh): sleeping, the sampler
#           wakes in the same late batch of the emulator's timers as the guest's timer
#           events and pauses it before their upcall runs, which then shows in a
#           quarter to a half of its share (see the man page's --spin)
# Each run asks for the samples its checks need (--samples) and stops there; $T only
# caps a run whose guest or host is too slow (xu_lab_seconds= overrides it).
# One guest at a time: other busy guests would only steal CPU from dom0's profiler.
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# Guest types: pv pvh on x86_64, arm on arm64 (init.sh's LAB_GUEST_TYPES).
for type in ${LAB_GUEST_TYPES:-pv pvh}; do
    guest_up ratio-$type
    xenctx_samples ratio-$type-xenctx ratio-$type 3
    for backend in xencall xc; do
        run ratio-$type-$backend \
            xen-uniprof ratio-$type -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
                -o /out/ratio-$type-$backend.folded --stats /out/ratio-$type-$backend.stats.json \
                --elf /guests/ratio-$type.elf --backend $backend
    done
    guest_down ratio-$type

    guest_up nested-$type
    xenctx_samples nested-$type-xenctx nested-$type 3
    # one backend: nested's checks are of the unwinding, and ratio and smp run both
    run nested-$type-xencall \
        xen-uniprof nested-$type -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
            -o /out/nested-$type-xencall.folded --stats /out/nested-$type-xencall.stats.json \
            --elf /guests/nested-$type.elf --backend xencall
    guest_down nested-$type

    guest_up smp-$type
    xenctx_samples smp-$type-xenctx smp-$type 3
    for backend in xencall xc; do
        run smp-$type-$backend \
            xen-uniprof smp-$type -F "$LAB_FREQ" -T "$T" --samples $SAMPLES --per-vcpu \
                -o /out/smp-$type-$backend.folded --stats /out/smp-$type-$backend.stats.json \
                --elf /guests/smp-$type.elf --backend $backend
    done
    guest_down smp-$type

    # hcall (the hypercall page and event upcalls) is x86 PV and PVH only
    case $type in pv|pvh)
        guest_up hcall-$type hcall-$type-xenctx hcall-$type-xencall
        xenctx_samples hcall-$type-xenctx hcall-$type 12
        run hcall-$type-xencall \
            xen-uniprof hcall-$type -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES --spin \
                -o /out/hcall-$type-xencall.folded --stats /out/hcall-$type-xencall.stats.json \
                --elf /guests/hcall-$type.elf --backend xencall
        guest_down hcall-$type ;;
    esac
done
