# SPDX-License-Identifier: GPL-2.0-only
# Xen's own Mini-OS built for x86_32 (MINIOS_TARGET_ARCH=x86_32: a 32-bit PAE PV guest), on
# a Xen with PV32: of the lab's, only the source-built 4.8 (scripts/test's xen48 part adds
# this set beside x86_32-pv).  Built from ../shared like the minios set
# (tests/guests/minios/build --variants x86_32,busy-x86_32); without the snapshot the set is
# not selected, and tests/lab/run says so.  Judged by judges/minios.py as their x86_64
# twins:
#   minios-x86_32-idle        as shipped (-O0, frame pointers), idle, by name (no --elf):
#                             every stack complete, block_domain;HYPERVISOR_sched_op;
#                             hypercall_page
#   minios-busy-x86_32-fp     busy.c (tests/guests/minios) as shipped: the busy thread's
#                             10/30/60 shares, complete stacks, upcall frames
#   tests/lab/run --xen 4.8 --build-dir BUILD_4_8 --scenarios minios-x86_32
MO_SAMPLES=24000        # as scenarios/minios.sh
MO_IDLE_SAMPLES=5000
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

guest_up minios-x86_32 minios-x86_32-idle
run minios-x86_32-idle \
    xen-uniprof minios-x86_32 -F "$LAB_FREQ" -T "$T" --samples $MO_IDLE_SAMPLES \
        -o /out/minios-x86_32-idle.folded --stats /out/minios-x86_32-idle.stats.json
guest_down minios-x86_32

guest_up minios-busy-x86_32 minios-busy-x86_32-fp
run minios-busy-x86_32-fp \
    xen-uniprof minios-busy-x86_32 -F "$LAB_FREQ" -T "$T" --samples $MO_SAMPLES \
        --unwind=fp --elf /guests/minios/busy-x86_32/mini-os \
        -o /out/minios-busy-x86_32-fp.folded --stats /out/minios-busy-x86_32-fp.stats.json
guest_down minios-busy-x86_32
