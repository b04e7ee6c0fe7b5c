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

# state_of NAME: the state column of `xl list NAME` (empty if there is no such domain).
state_of() {
    xl list "$1" 2>/dev/null | awk 'NR == 2 { print $5 }'
}

if selected sigkill-arm; then
    echo "100 x: xen-uniprof ratio-arm -F 1000 -T 30 -o /tmp/sigkill.folded" \
         "--elf /guests/ratio-arm.elf, SIGKILL after 0.1-1.6 s" > /out/sigkill-arm.cmd
    echo "@@LAB run sigkill-arm"
    # One line per run: delay_ms, sampling (it had said "profiling domain" before the
    # kill), the state right after the kill, the state once settled (2 s at most).
    : > /out/sigkill-arm.runs
    i=0
    while [ $i -lt 100 ]; do
        delay_ms=$((100 + RANDOM % 1500))
        xen-uniprof ratio-arm -F 1000 -T 30 -o /tmp/sigkill.folded \
            --elf /guests/ratio-arm.elf 2> /tmp/sigkill.stderr &
        pid=$!
        usleep $((delay_ms * 1000))
        kill -KILL $pid
        wait $pid 2>/dev/null
        now=$(state_of ratio-arm)
        sampling=0
        grep -q "profiling domain" /tmp/sigkill.stderr && sampling=1
        j=0
        settled=$now
        while case $settled in *p*) true ;; *) false ;; esac && [ $j -lt 20 ]; do
            usleep 100000
            settled=$(state_of ratio-arm)
            j=$((j + 1))
        done
        echo "$delay_ms $sampling ${now:--} ${settled:--}" >> /out/sigkill-arm.runs
        i=$((i + 1))
    done
    echo 0 > /out/sigkill-arm.rc
    xl list ratio-arm > /out/sigkill-arm.xllist 2>&1
    echo "@@LAB done sigkill-arm"
fi
# Never leave it paused: a kill that outran the guardian must not outlive the lab.
xl unpause ratio-arm > /dev/null 2>&1
guest_down ratio-arm

guest_up ratio-bare-arm stripped-only-arm
run stripped-only-arm \
    xen-uniprof ratio-bare-arm -F "$LAB_FREQ" -T 5 -o /out/stripped-only-arm.folded
guest_down ratio-bare-arm
