# SPDX-License-Identifier: GPL-2.0-only
# The guest's life around the profiler, judged by tests/lab/judges/lifecycle.py:
#   find-elf-TYPE        `xen-uniprof ratio-TYPE` with no --elf: the kernel has symbols
#   find-elf-xenstore-pv the same without the xl plugin: names and kernel from xenstore
#   dbg-sibling-TYPE     the kernel is stripped; its .dbg sibling has the symbols
#   stripped-only-TYPE   the kernel is stripped, nothing beside it: exit 4, says --elf
#   wrong-elf-TYPE       --elf of another guest: the loud mismatch warning
#   create-ratio-pv      --create CONFIG --destroy: profiled from its first instruction
#   sigkill-pv           100 runs at 1 kHz killed with SIGKILL at random moments: the
#                        guest runs on every time (the guardian)
#   sigterm-pv           SIGTERM mid-run: the samples are written, exit 0
#   admin-paused-pv      a domain its admin paused for the whole run stays paused, and
#                        the run says it took nothing (exit 1)
#   admin-paused-mid-pv  paused by its admin for 2 s of a 5 s run: those ticks are
#                        skipped, not counted as a frozen stack; the guest runs after
#   destroyed-pv         the guest destroyed mid-run: exit 6, the samples written
# Short runs: the shares are judged in profiles.sh; here only what each case is about
# (create-ratio-pv, a whole profile from boot, takes the full 20,000 samples).
LC_SAMPLES=3000
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

for type in pv pvh; do
    guest_up ratio-$type find-elf-$type find-elf-xenstore-$type wrong-elf-$type
    run find-elf-$type \
        xen-uniprof ratio-$type -F "$LAB_FREQ" -T "$T" --samples $LC_SAMPLES \
            -o /out/find-elf-$type.folded --stats /out/find-elf-$type.stats.json
    if [ $type = pv ]; then
        # xenstore knows the kernel of PV domains only.
        RUN_GUEST=ratio-pv
        run find-elf-xenstore-pv \
            env XEN_UNIPROF_PLUGIN_DIR=/nonexistent \
            xen-uniprof ratio-pv -F "$LAB_FREQ" -T "$T" --samples $LC_SAMPLES \
                -o /out/find-elf-xenstore-pv.folded
        RUN_GUEST=
    fi
    run wrong-elf-$type \
        xen-uniprof ratio-$type -F "$LAB_FREQ" -T "$T" --samples 500 \
            -o /out/wrong-elf-$type.folded --elf /guests/nested-$type.elf
    guest_down ratio-$type

    guest_up ratio-stripped-$type dbg-sibling-$type
    run dbg-sibling-$type \
        xen-uniprof ratio-stripped-$type -F "$LAB_FREQ" -T "$T" --samples $LC_SAMPLES \
            -o /out/dbg-sibling-$type.folded --stats /out/dbg-sibling-$type.stats.json
    guest_down ratio-stripped-$type

    guest_up ratio-bare-$type stripped-only-$type
    run stripped-only-$type \
        xen-uniprof ratio-bare-$type -F "$LAB_FREQ" -T 5 -o /out/stripped-only-$type.folded
    guest_down ratio-bare-$type
done

# --create: no ratio-pv exists before; xen-uniprof creates it paused, unpauses it at the
# first tick and destroys it at the end.
RUN_GUEST=ratio-pv
run create-ratio-pv \
    xen-uniprof --create /etc/xen/ratio-pv.cfg --destroy -F "$LAB_FREQ" -T "$T" \
        --samples 20000 -o /out/create-ratio-pv.folded --stats /out/create-ratio-pv.stats.json
RUN_GUEST=

guest_up ratio-pv sigkill-pv sigterm-pv admin-paused-pv admin-paused-mid-pv destroyed-pv

sigkill_runs sigkill-pv ratio-pv 100

# bg_then ID DELAY_S ACTION COMMAND...: start COMMAND in the background, after DELAY_S
# run ACTION (a shell command), wait for COMMAND; records what `run` records.
bg_then() {
    id=$1 delay=$2 action=$3
    shift 3
    echo "$* ; after ${delay}s: $action" > "/out/$id.cmd"
    echo "@@LAB run $id: $*; after ${delay}s: $action"
    "$@" > "/out/$id.stdout" 2> "/out/$id.stderr" &
    pid=$!
    sleep "$delay"
    eval "$action"
    wait $pid
    echo $? > "/out/$id.rc"
    xl list ratio-pv > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id rc=$(cat "/out/$id.rc")"
}

if selected sigterm-pv; then
    bg_then sigterm-pv 4 'kill -TERM $pid' \
        xen-uniprof ratio-pv -F "$LAB_FREQ" -T 60 -o /out/sigterm-pv.folded \
            --stats /out/sigterm-pv.stats.json --elf /guests/ratio-pv.elf
fi

if selected admin-paused-pv; then
    xl pause ratio-pv
    run admin-paused-pv \
        xen-uniprof ratio-pv -F "$LAB_FREQ" -T 2 -o /out/admin-paused-pv.folded \
            --elf /guests/ratio-pv.elf
    xl unpause ratio-pv
fi

if selected admin-paused-mid-pv; then
    bg_then admin-paused-mid-pv 1.5 'xl pause ratio-pv; sleep 2; xl unpause ratio-pv' \
        xen-uniprof ratio-pv -F "$LAB_FREQ" -T 5 -o /out/admin-paused-mid-pv.folded \
            --stats /out/admin-paused-mid-pv.stats.json --elf /guests/ratio-pv.elf
fi

if selected destroyed-pv; then
    bg_then destroyed-pv 5 'xl destroy ratio-pv' \
        xen-uniprof ratio-pv -F "$LAB_FREQ" -T 60 -o /out/destroyed-pv.folded \
            --stats /out/destroyed-pv.stats.json --elf /guests/ratio-pv.elf
fi
guest_down ratio-pv
