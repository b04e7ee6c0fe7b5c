# SPDX-License-Identifier: GPL-2.0-only
# Linux guests: Debian's own kernel (the bzImage tests/lab/fetch downloaded for dom0) booted
# as a PV and a PVH domU with our busybox initramfs (tests/guests/linux/: a user-space
# loop, dd from /dev/urandom, a task that sleeps), judged by tests/lab/judges/linux.py
# against the guest's own accounting.  Not in the default sets: tests/lab/run
# --add-scenarios linux (scripts/test adds it under XU_TEST_ALL=1).
#   linux-TYPE-profile   the guest by name with no --elf, as an admin would run it (PV:
#                        its config's kernel = the bzImage, xen-uniprof must find the
#                        symbols in the image by itself; PVH: built, as pygrub builds a
#                        domain, from a copy of the bzImage deleted once it was built, so
#                        xen-uniprof must read the kernel's image from the guest's
#                        memory), at the default rate for 120 s, split by vCPU and its
#                        state, --stats; the guest runs its known work on its CPU 1;
#                        at the sampling's start and end (TRUTH_WINDOW: as xen-uniprof
#                        says it starts, and 119.9 s later) the guest prints its
#                        /proc/stat cpu line and each task's /proc/PID/stat to its
#                        console when asked, and the self shares of perf record -e
#                        cpu-clock -a -g inside it over that window (when
#                        its initramfs has perf: started before the profile, its events
#                        turned on and off at those two moments, linux_perf_arm)
#   linux-TYPE-stack     then `xen-uniprof stack` of the running guest by name, as JSON:
#                        every vCPU's frames named from the image, each kernel-mode walk
#                        complete (judges/linux.py)
#   linux-TYPE-top       then `xen-uniprof top -b -n 2 -d 5` of it: the busy loop's and
#                        dd's tasks rows of their own, with about equal totals
# The guest's console is asked through its pty in dom0 (xenstore's console/tty): a line
# "S TAG" makes the guest print its accounting tagged TAG (tests/guests/linux/init), which
# lands in its console log (ID.console.txt by guest_down); "P TAG" arms its perf.  The
# helpers (lx_wait_for, linux_ready, linux_ask, linux_truth, linux_perf_arm,
# linux_answered) are init.sh's: the linux-hvm set uses them too.
# The default rate (99 Hz), as an admin would run it, not the lab's $LAB_SHARE_FREQ: each
# pause takes 400-830 us under this emulation, and at 499 Hz the pauses and the guest's
# catching up on its timers after each tripled the busy loop's kernel time and took the
# work's CPU's user share, by perf's own count, from 55.1 % to 50.5 %; xen-uniprof's and
# perf's views of so disturbed a guest differed by 0.3-4.9 points.  At 99 Hz both were
# within 0.6 of perf's with no profiler at all (tests/lab/README.md, "The profiler's own
# weight").  120 s for about 10,000 samples of the work's vCPU running (a standard error
# of half a point).
LX_SECS=120
LX_LIMIT=360

for type in pv pvh; do
    g=linux-$type
    id=$g-profile
    # PVH as a bootloader leaves a domain: built from a copy of the kernel, deleted after
    if [ $type = pvh ]; then
        mkdir -p /var/run/xen/boot-copy/$g
        cp /guests/linux/vmlinuz /var/run/xen/boot-copy/$g/vmlinuz
    fi
    guest_up $g $id $g-stack $g-top
    rm -rf /var/run/xen/boot-copy/$g
    { selected $id || selected $g-stack || selected $g-top; } && linux_ready $g
    TRUTH_FN=linux_truth TRUTH_ARM_FN=linux_perf_arm
    TRUTH_WINDOW="0 119.9"
    # run() interrupts a command 60 s after $LAB_MAX_SECONDS: reading the bzImage before
    # sampling took 15-37 s on a quiet host and 140 s at load 12, where a 40 s run was
    # interrupted after 30 s of sampling
    lx_max=$LAB_MAX_SECONDS
    LAB_MAX_SECONDS=$LX_LIMIT
    run $id xen-uniprof $g -T $LX_SECS --state=split --per-vcpu \
        -o /out/$id.folded --stats /out/$id.stats.json
    unset TRUTH_FN TRUTH_ARM_FN TRUTH_WINDOW
    selected $id && linux_answered $g $id
    # the guest is not the commands' second word (run's default)
    RUN_GUEST=$g
    run $g-stack xen-uniprof stack $g --format json
    run $g-top xen-uniprof top -b -n 2 -d 5 $g
    RUN_GUEST=
    LAB_MAX_SECONDS=$lx_max
    guest_down $g
done
