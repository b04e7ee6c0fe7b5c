# SPDX-License-Identifier: GPL-2.0-only
# Linux guests: Debian's own kernel (the bzImage tests/lab/fetch downloaded for dom0) booted
# as a PV and a PVH domU with our busybox initramfs (tests/guests/linux/: a user-space
# loop, dd from /dev/urandom, a task that sleeps), judged by tests/lab/judges/linux.py
# against the guest's own accounting.  Not in the default sets: tests/lab/run
# --add-scenarios linux (scripts/test adds it under XU_TEST_ALL=1).
#   linux-TYPE-profile   the guest by name with no --elf, as an admin would run it (its
#                        config's kernel = the bzImage: xen-uniprof must find the symbols
#                        in the image by itself), 20,000 samples at $LAB_SHARE_FREQ split
#                        by vCPU state, --stats; over the sampling (TRUTH_WINDOW, as in
#                        the states set) the guest prints its /proc/stat cpu line and
#                        each task's /proc/PID/stat to its console when asked, and
#                        the self shares of perf record -e cpu-clock -a -g inside it over
#                        that window (when its initramfs has perf)
# The guest's console is asked through its pty in dom0 (xenstore's console/tty): a line
# "S TAG" makes the guest print its accounting tagged TAG (tests/guests/linux/init), which
# lands in its console log (ID.console.txt by guest_down).
LX_FREQ=$LAB_SHARE_FREQ
LX_SAMPLES=20000
LX_SECS=40
LX_LIMIT=300

# lx_wait_for TEXT NAME SECONDS: wait until guest NAME's console log holds TEXT, at most
# SECONDS of dom0's clock (a count of polls would stretch on a loaded host, where each
# takes longer); 0 if it came.
lx_wait_for() {
    end=$(awk -v t="$(uptime_s)" -v s="$3" 'BEGIN { print t + s }')
    while ! grep -qF "$1" "/var/log/xen/console/guest-$2.log" 2>/dev/null; do
        awk -v t="$(uptime_s)" -v e="$end" 'BEGIN { exit !(t >= e) }' && return 1
        usleep 100000
    done
    return 0
}

# linux_ready NAME: wait (240 s at most) for the guest's "@@XU READY" on its console: the
# kernel has booted and the work has started.  Records the seconds from `xl create`.
linux_ready() {
    lx_wait_for '@@XU READY' "$1" 240
    ok=$?
    echo "$created_at $(uptime_s)" > "/out/$1.boot-secs"
    if [ $ok = 0 ]; then
        echo "@@LAB $1 ready"
        # the work settles before anything is measured
        sleep 3
    else
        echo "@@LAB $1 NOT ready after 240 s"
    fi
}

# linux_truth GUEST FILE: run()'s snapshot of the guest's own accounting (TRUTH_FN): ask
# the guest on its console, tagged with FILE's name (ID.truth-before, ID.truth-after).
# FILE records when and through which pty it was asked; the answer is in the console log.
linux_truth() {
    domid=$(xl domid "$1" 2>/dev/null)
    tty=$(xenstore-read "/local/domain/$domid/console/tty" 2>/dev/null)
    tag=${2##*/}
    if [ -n "$tty" ] && printf 'S %s\n' "$tag" > "$tty"; then
        echo "asked $tag at $(uptime_s) through $tty" > "$2"
    else
        echo "could not ask the guest: no console pty ($tty) for domain $domid" > "$2"
    fi
}

# linux_answered NAME ID: wait (300 s at most) for the guest's last answer of ID's run, its
# perf report included (perf report inside the guest takes a while under emulation).
linux_answered() {
    t0=$(uptime_s)
    lx_wait_for "@@XU $2.truth-after perf-end" "$1" 300
    ok=$?
    echo "@@LAB $1 answered (wait status $ok) after" \
         "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }') s"
}

for type in pv pvh; do
    g=linux-$type
    id=$g-profile
    guest_up $g $id
    selected $id && linux_ready $g
    TRUTH_FN=linux_truth
    TRUTH_WINDOW="0.3 39.2"
    # run() interrupts a command 60 s after $LAB_MAX_SECONDS: reading the bzImage before
    # sampling took 15-37 s on a quiet host and 140 s at load 12, where a 40 s run was
    # interrupted after 30 s of sampling
    lx_max=$LAB_MAX_SECONDS
    LAB_MAX_SECONDS=$LX_LIMIT
    run $id xen-uniprof $g -F $LX_FREQ -T $LX_SECS --samples $LX_SAMPLES --state=split \
        -o /out/$id.folded --stats /out/$id.stats.json
    unset TRUTH_FN TRUTH_WINDOW
    LAB_MAX_SECONDS=$lx_max
    selected $id && linux_answered $g $id
    guest_down $g
done
