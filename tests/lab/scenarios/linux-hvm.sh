# SPDX-License-Identifier: GPL-2.0-only
# A Linux HVM guest: Debian's own kernel (the bzImage the linux set boots as PV and PVH)
# booted by the device model (xl's HVM direct kernel boot: QEMU loads kernel=, ramdisk=
# and extra= through its linuxboot option ROM after hvmloader and SeaBIOS), so the
# kernel's decompressor runs and randomises its virtual base (KASLR on: no nokaslr).
# Judged by judges/linux.py as the PV and PVH guests are, and xen-uniprof must have found
# and confirmed the slide before naming anything.  Not in the default sets:
# tests/lab/run --add-scenarios linux-hvm (scripts/test's hvm part adds it under
# XU_TEST_ALL=1); an HVM set, so the device model is in dom0.
#   linux-hvm-profile   the guest by name with no --elf, at the default rate for 120 s
#                       (init.sh says why), split by vCPU state, --stats
#                       (its "KASLR:" line says the slide); the guest's own accounting
#                       over the window as in scenarios/linux.sh
#   linux-hvm-stack     then `xen-uniprof stack` of it, as in scenarios/linux.sh: its
#                       "KASLR:" line too
#   linux-hvm-stack-memory  the same with the kernel file moved away: named from the
#                       kernel in the guest's memory
# The helpers are init.sh's; the guest's console is QEMU's serial pty (linux_hvm_console).
# firmware, the option ROM's port-I/O load of the kernel and its 35 MB initramfs, and the
# kernel's own decompression, all under nested emulation
LXH_READY_SECS=${LAB_LINUX_HVM_READY_SECS:-480}

g=linux-hvm
id=$g-profile
guest_up $g $id $g-stack $g-stack-memory
if selected $id || selected $g-stack || selected $g-stack-memory; then
    linux_hvm_console $g
    linux_ready $g "$LXH_READY_SECS"
fi
lxh_max=$LAB_MAX_SECONDS
LAB_MAX_SECONDS=$LINUX_MAX_SECONDS
linux_window
run $id xen-uniprof $g -T $LINUX_PROFILE_SECS --state=split --per-vcpu \
    -o /out/$id.folded --stats /out/$id.stats.json
linux_window_end $g $id
# where every vCPU is now, its kernel named at the slide stack found and confirmed itself
RUN_GUEST=$g
run $g-stack xen-uniprof stack $g --format json
# and once its kernel file is gone (upgraded in dom0, or a bootloader's copy): named from
# the kernel in its memory, at the addresses KASLR put it
if selected $g-stack-memory; then
    mv /guests/linux/vmlinuz /guests/linux/vmlinuz.away
    run $g-stack-memory xen-uniprof stack $g --format json
    mv /guests/linux/vmlinuz.away /guests/linux/vmlinuz
fi
RUN_GUEST=
LAB_MAX_SECONDS=$lxh_max
guest_down $g
