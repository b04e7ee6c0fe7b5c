# SPDX-License-Identifier: GPL-2.0-only
# `xen-uniprof stack` (judged by tests/lab/judges/stack.py):
#   stack-GUEST        GUEST paused with `xl pause`; while it stays paused: `xen-uniprof
#                      stack GUEST --format json` (the run), the same as text, `xl
#                      dump-core` of it and `xen-uniprof stack --core` of that core (JSON
#                      and text), and xenctx -f -C -s of it; then unpaused.  The three must
#                      give the same frames for every vCPU, and agree with xenctx on every
#                      frame's function.  PV and PVH, frame-pointer and CFI (-nofp)
#                      builds, 1 (nested) and 2 (smp) vCPUs (PVH guests: the core only
#                      for those in LAB_STACK_PVH_CORES, below).
#   stack-crash-TYPE   tests/guests/crash.c faults in crash_inner; its config's on_crash =
#                      "coredump-destroy" makes xl write /var/lib/xen/dump/crash-TYPE:
#                      `xen-uniprof stack --core` of it must name crash_inner and its
#                      callers (PVH: only with crash-pvh in LAB_STACK_PVH_CORES).

# xl dump-core maps the guest's pages one by one: under TCG a 32 MiB guest takes minutes
# (seen: more than 5 for one PVH guest on a loaded host), so these guests get 16 MiB.
GUEST_XL_ARGS="memory=16"
# A PVH guest's dump tries every frame up to its highest (the special pages below 4 GiB),
# about a million failed mappings: 10 minutes under TCG (seen: 600 s for nested-pvh).
# Only the PVH guests named here are dumped (the others' live stacks are still checked
# against xenctx): LAB_STACK_PVH_CORES on the host, comma-separated, becomes
# xu_lab_stack_pvh_cores on dom0's command line; "crash-pvh" adds the stack-crash-pvh
# scenario, left out otherwise.  LAB_STACK_DUMP_SECONDS bounds each dump (default 900).
STACK_PVH_CORES=nested-pvh
STACK_DUMP_SECONDS=900
read -r STACK_CMDLINE < /proc/cmdline 2>/dev/null
for a in $STACK_CMDLINE; do
    case $a in
        xu_lab_stack_pvh_cores=*) STACK_PVH_CORES=$(echo "${a#*=}" | tr ',' ' ') ;;
        xu_lab_stack_dump_seconds=*) STACK_DUMP_SECONDS=${a#*=} ;;
    esac
done

# dumped GUEST: is GUEST's core taken in this run?
dumped() {
    case $1 in *-pvh) ;; *) return 0 ;; esac
    case " $STACK_PVH_CORES " in *" $1 "*) return 0 ;; esac
    return 1
}

# stack_paused GUEST: scenario stack-GUEST.
stack_paused() {
    g=$1 id=stack-$1
    selected "$id" || return 0
    guest_up "$g" "$id"
    xl pause "$g"
    k=
    case $g in *-pvh) k="-k 0 " ;; esac
    # shellcheck disable=SC2086
    xenctx -f -C $k-s "/guests/$g.map" "$(xl domid "$g")" > "/out/$id.xenctx" 2>&1
    xen-uniprof stack "$g" --elf "/guests/$g.elf" > "/out/$id.text" 2>&1
    if dumped "$g"; then
        stack_core "$g" "$id"
    else
        echo "not dumped: a PVH guest's xl dump-core takes about 10 minutes under TCG (600 s seen)" \
            > "/out/$id.core.skipped"
    fi
    RUN_GUEST=$g run "$id" xen-uniprof stack "$g" --elf "/guests/$g.elf" --format json
    xl list "$g" > "/out/$id.xllist-paused" 2>&1
    xl unpause "$g"
    xl list "$g" > "/out/$id.xllist" 2>&1
    guest_down "$g"
}

# stack_core GUEST ID: xl dump-core of GUEST and stack --core of it (JSON and text).
stack_core() {
    g=$1 id=$2
    rm -f /tmp/stack.core
    # bounded: a dump that does not end must not hold the lab
    timeout -s KILL "$STACK_DUMP_SECONDS" xl dump-core "$g" /tmp/stack.core \
        > "/out/$id.dump.txt" 2>&1
    echo $? > "/out/$id.dump.rc"
    xen-uniprof stack --core /tmp/stack.core --elf "/guests/$g.elf" --format json \
        > "/out/$id.core.json" 2> "/out/$id.core.stderr"
    echo $? > "/out/$id.core.rc"
    xen-uniprof stack --core /tmp/stack.core --elf "/guests/$g.elf" \
        > "/out/$id.core.text" 2>&1
    ls -l /tmp/stack.core >> "/out/$id.dump.txt" 2>&1
    rm -f /tmp/stack.core
}

# stack_crash TYPE: scenario stack-crash-TYPE.
stack_crash() {
    g=crash-$1 id=stack-crash-$1
    selected "$id" || return 0
    mkdir -p /var/lib/xen/dump
    rm -f /var/lib/xen/dump/*
    guest_up "$g" "$id"
    # the guest works about a second of its time, crashes, and xl dumps it (a PVH
    # guest's dump takes minutes: as long as a dump may take)
    i=0
    while xl domid "$g" > /dev/null 2>&1 && [ $i -lt $((STACK_DUMP_SECONDS * 10)) ]; do
        usleep 100000
        i=$((i + 1))
    done
    sleep 1
    ls -l /var/lib/xen/dump > "/out/$id.dumpdir" 2>&1
    xl dmesg 2>/dev/null | tail -n 30 > "/out/$id.dmesg"
    [ -f "/var/log/xen/console/guest-$g.log" ] && cp "/var/log/xen/console/guest-$g.log" "/out/$id.console.txt"
    core=$(ls /var/lib/xen/dump/* 2>/dev/null | head -n 1)
    RUN_GUEST=$g run "$id" xen-uniprof stack --core "${core:-/var/lib/xen/dump/none}" \
        --elf "/guests/$g.elf" --format json
    xen-uniprof stack --core "${core:-/var/lib/xen/dump/none}" --elf "/guests/$g.elf" \
        > "/out/$id.text" 2>&1
    rm -f /var/lib/xen/dump/*
}

for type in ${LAB_GUEST_TYPES:-pv pvh}; do
    case $type in pv|pvh) ;; *) continue ;; esac
    for prog in nested nested-nofp smp smp-nofp; do
        stack_paused "$prog-$type"
    done
    if dumped "crash-$type"; then
        stack_crash "$type"
    fi
done
GUEST_XL_ARGS=
