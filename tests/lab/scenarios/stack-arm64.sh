# SPDX-License-Identifier: GPL-2.0-only
# The stack set on arm64 (tests/lab/run --arch arm64 picks this file for "stack"), judged
# by tests/lab/judges/stack.py:
#   stack-PROG-arm       PROG (nested: 1 vCPU, smp: 2; -nofp: the CFI builds) held paused
#                        by `xl pause`; while it stays paused: xu-arm-frames (the lab's own
#                        walk of the frame records up x29 through the guest's page tables,
#                        tests/guests/arm64/tools), `xen-uniprof stack GUEST --format json`
#                        (the run), the same as text, `xl dump-core` of it and `xen-uniprof
#                        stack --core` of that core (JSON and text); then unpaused.  Live
#                        and core must give the same frames for every vCPU, the chain from
#                        the guest's root; the FP builds' frames must be xu-arm-frames'
#                        addresses (Debian's arm64 xenctx walks no stack).
#   stack-running-PROG-arm  `xen-uniprof stack -n 3 -d 1` on the running guest, paused
#                        and unpaused by xen-uniprof itself: every snapshot's chain from
#                        the root, the guest running afterwards.
# Not in the default sets (scripts/test-arm64 adds it under XU_TEST_ALL=1).
STACK_DUMP_SECONDS=900
read -r STACK_CMDLINE < /proc/cmdline 2>/dev/null
for a in $STACK_CMDLINE; do
    case $a in xu_lab_stack_dump_seconds=*) STACK_DUMP_SECONDS=${a#*=} ;; esac
done

# stack_paused_arm GUEST [UNWIND]: scenario stack-GUEST.
stack_paused_arm() {
    g=$1 id=stack-$1 unwind=${2:+--unwind=$2}
    selected "$id" || return 0
    guest_up "$g" "$id"
    xl pause "$g"
    # one walk of every vCPU; an admin's pause is kept (the guest stays paused for us)
    xu-arm-frames "$(xl domid "$g")" 1 > "/out/$id.frames" 2>&1
    # shellcheck disable=SC2086  # unwind: one option or none
    xen-uniprof stack "$g" --elf "/guests/$g.elf" $unwind > "/out/$id.text" 2>&1
    # shellcheck disable=SC2086
    RUN_GUEST=$g run "$id" xen-uniprof stack "$g" --elf "/guests/$g.elf" $unwind --format json
    stack_core_arm "$g" "$id" "$unwind"
    xl list "$g" > "/out/$id.xllist-paused" 2>&1
    xl unpause "$g"
    xl list "$g" > "/out/$id.xllist" 2>&1
    guest_down "$g"
}

# stack_core_arm GUEST ID UNWIND: xl dump-core of GUEST (its command, output, exit status
# and seconds kept for the judge, which reports a dump that failed with them) and stack
# --core of the file (JSON and text).
stack_core_arm() {
    g=$1 id=$2 unwind=$3
    rm -f /tmp/stack.core
    echo "xl dump-core $g /tmp/stack.core" > "/out/$id.dump.cmd"
    t0=$(uptime_s)
    # bounded: a dump that does not end must not hold the lab
    timeout -s KILL "$STACK_DUMP_SECONDS" xl dump-core "$g" /tmp/stack.core \
        > "/out/$id.dump.txt" 2>&1
    echo $? > "/out/$id.dump.rc"
    awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }' > "/out/$id.dump.secs"
    ls -l /tmp/stack.core >> "/out/$id.dump.txt" 2>&1
    # shellcheck disable=SC2086
    xen-uniprof stack --core /tmp/stack.core --elf "/guests/$g.elf" $unwind --format json \
        > "/out/$id.core.json" 2> "/out/$id.core.stderr"
    echo $? > "/out/$id.core.rc"
    # shellcheck disable=SC2086
    xen-uniprof stack --core /tmp/stack.core --elf "/guests/$g.elf" $unwind \
        > "/out/$id.core.text" 2>&1
    rm -f /tmp/stack.core
}

# stack_running_arm GUEST: scenario stack-running-GUEST.
stack_running_arm() {
    g=$1 id=stack-running-$1
    selected "$id" || return 0
    guest_up "$g" "$id"
    RUN_GUEST=$g run "$id" xen-uniprof stack "$g" --elf "/guests/$g.elf" -n 3 -d 1 \
        --format json
    guest_down "$g"
}

stack_paused_arm nested-arm
stack_paused_arm smp-arm
stack_paused_arm nested-nofp-arm cfi
stack_paused_arm smp-nofp-arm cfi
stack_running_arm nested-arm
