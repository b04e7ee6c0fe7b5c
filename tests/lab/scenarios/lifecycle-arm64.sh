# SPDX-License-Identifier: GPL-2.0-only
# The lifecycle set on arm64 (tests/lab/run --arch arm64 picks this file for "lifecycle"):
# the subset that applies to an arm guest, judged by tests/lab/judges/lifecycle.py.
#   find-elf-arm       `xen-uniprof ratio-arm` with no --elf: xl booted a raw Image (no
#                      symbols), the ELF beside it is its .dbg sibling
#   stripped-only-arm  a raw Image with nothing beside it: exit 4, says --elf
#   wrong-elf-arm      --elf of another guest: the loud mismatch warning
#   sigkill-arm        100 runs at 1 kHz killed with SIGKILL at random moments: the guest
#                      runs on every time (the guardian)
# What stays x86-only: the xenstore fallback (xenstore knows PV kernels only), --create
# (its judge is the PV ratio profile), and the SIGTERM / admin-pause / destroy cases,
# whose code paths do not depend on the guest's architecture.
LC_SAMPLES=3000
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

guest_up ratio-arm find-elf-arm wrong-elf-arm sigkill-arm
run find-elf-arm \
    xen-uniprof ratio-arm -F "$LAB_FREQ" -T "$T" --samples $LC_SAMPLES \
        -o /out/find-elf-arm.folded --stats /out/find-elf-arm.stats.json
run wrong-elf-arm \
    xen-uniprof ratio-arm -F "$LAB_FREQ" -T "$T" --samples 500 \
        -o /out/wrong-elf-arm.folded --elf /guests/nested-arm.elf

sigkill_runs sigkill-arm ratio-arm 100
# Never leave it paused: a kill that outran the guardian must not outlive the lab.
xl unpause ratio-arm > /dev/null 2>&1
guest_down ratio-arm

guest_up ratio-bare-arm stripped-only-arm
run stripped-only-arm \
    xen-uniprof ratio-bare-arm -F "$LAB_FREQ" -T 5 -o /out/stripped-only-arm.folded
guest_down ratio-bare-arm
