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
#                        memory), at the default rate for 120 s (init.sh says why),
#                        split by vCPU and its state, --stats; the guest runs its known
#                        work on its CPU 1; at the sampling's start and end
#                        (linux_window: as xen-uniprof says it starts, and 119.9 s
#                        later) the guest prints its /proc/stat cpu line and each
#                        task's /proc/PID/stat to its console when asked, and the self
#                        shares of perf record -e cpu-clock -a -g inside it over that
#                        window (when its initramfs has perf: started before the
#                        profile, its events turned on and off at those two moments,
#                        linux_perf_arm)
#   linux-TYPE-stack     then `xen-uniprof stack` of the running guest by name, as JSON:
#                        every vCPU's frames named from the image, each kernel-mode walk
#                        complete (judges/linux.py)
#   linux-TYPE-top       then `xen-uniprof top -b -n 2 -d 5` of it: the busy loop's and
#                        dd's tasks rows of their own, with about equal totals
# The guest's console is asked through its pty in dom0 (xenstore's console/tty): a line
# "S TAG" makes the guest print its accounting tagged TAG (tests/guests/linux/init), which
# lands in its console log (ID.console.txt by guest_down); "P TAG" arms its perf.  The
# helpers (linux_ready, linux_window, linux_window_end and those they call) are init.sh's:
# the linux-hvm set uses them too.
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
    # at the Linux sets' rate and window, with their limit (init.sh's LINUX_PROFILE_SECS)
    lx_max=$LAB_MAX_SECONDS
    LAB_MAX_SECONDS=$LINUX_MAX_SECONDS
    linux_window
    run $id xen-uniprof $g -T $LINUX_PROFILE_SECS --state=split --per-vcpu \
        -o /out/$id.folded --stats /out/$id.stats.json
    linux_window_end $g $id
    # the guest is not the commands' second word (run's default)
    RUN_GUEST=$g
    run $g-stack xen-uniprof stack $g --format json
    run $g-top xen-uniprof top -b -n 2 -d 5 $g
    RUN_GUEST=
    LAB_MAX_SECONDS=$lx_max
    guest_down $g
done
