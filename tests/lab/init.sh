#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dom0's /init in the lab (busybox sh): bring up the Xen toolstack, mount the host's output
# directory, run /lab-scenarios, and power off.
#
# Kernel command line knobs (set by tests/lab/run):
#   xu_lab_seconds=N   the most time a xen-uniprof run may take to collect its samples
#                      (default 100)
#   xu_lab_freq=HZ     sampling frequency
#   xu_lab_only=RE     run only the scenarios whose id matches the extended regexp RE
#   xu_lab_out=9p|console   how outputs go back to the host (default 9p, console as fallback)
#   xu_lab_demo=SECS   instead of the scenarios: the demo (scripts/demo)
# The per-architecture part of dom0 is here and in xenctx_samples; the rest is shared.
# An arm64 dom0's busybox could not make its applet links on the (x86) host: it makes them
# now.
[ -e /bin/mount ] || /bin/busybox --install -s /bin
XENVER=$(cat /etc/xu-lab-xen-version)
LAB_ARCH=$(cat /etc/xu-lab-arch 2>/dev/null || echo x86_64)
MA=x86_64-linux-gnu LAB_GUEST_TYPES="pv pvh"
[ "$LAB_ARCH" = arm64 ] && MA=aarch64-linux-gnu LAB_GUEST_TYPES=arm
export PATH=/usr/local/bin:/usr/local/sbin:/bin:/sbin:/usr/bin:/usr/sbin:/usr/lib/xen-$XENVER/bin
export LD_LIBRARY_PATH=/usr/local/lib:/usr/lib/$MA:/lib/$MA
export HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mkdir -p /run/xen /run/xenstored /var/lib/xen /var/log/xen/console /var/lib/xenstored /tmp /root

uptime_s() { cut -d' ' -f1 /proc/uptime; }
mark() { echo "@@LAB $* t=$(uptime_s)"; }

LAB_SECONDS= LAB_MAX_SECONDS=100 LAB_FREQ=997 LAB_ONLY= LAB_OUTMODE=9p LAB_DEMO=
# The rate of the runs judged against the guests' own split (profiles, nofp, matrix): at
# 997 Hz the sampler falls 10-30 % behind here and the guest executes a quarter to a half
# as long between samples, whose shares then scattered about twice as far (nested, 20,000
# samples: up to 1.6 points from the guest's split against 0.8 at 499 Hz).
LAB_SHARE_FREQ=499
for a in $(cat /proc/cmdline); do
    case $a in
        xu_lab_seconds=*) LAB_SECONDS=${a#*=} ;;
        xu_lab_freq=*) LAB_FREQ=${a#*=} ;;
        xu_lab_only=*) LAB_ONLY=${a#*=} ;;
        xu_lab_out=*) LAB_OUTMODE=${a#*=} ;;
        xu_lab_demo=*) LAB_DEMO=${a#*=} ;;
    esac
done
mark DOM0_INIT arch=$LAB_ARCH

KVER=$(uname -r)
while read -r m; do
    insmod "/lib/modules/$KVER/$m.ko" 2>/dev/null || echo "@@LAB insmod $m failed"
done < /lib/modules/order
mount -t xenfs xenfs /proc/xen

# Outputs: the host's $LAB_OUT/dom0 over 9p; if that cannot be mounted, a tmpfs whose
# contents are printed base64 between markers at the end (tests/lab/run decodes either).
OUTMODE=console
if [ "$LAB_OUTMODE" = 9p ] &&
   mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 xu_lab_out /out; then
    OUTMODE=9p
fi
mark OUTPUT_MODE "$OUTMODE"
rm -rf /out/* 2>/dev/null

xenstored --pid-file /run/xenstored.pid
i=0
while ! xenstore-read -s / >/dev/null 2>&1 && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
xen-init-dom0 >/dev/null
xenconsoled --pid-file /run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console
mark TOOLSTACK_UP
# dom0 gets the top scheduling weight, as a profiling dom0 should: the guests and dom0
# share the one emulated CPU, and at the default (equal) weight dom0 ran only when Xen's
# scheduler took the CPU from the busy guest, about every 5 ms, so xen-uniprof reached
# some 200 of its 997 samples/s and a lab took 3 times as long.  With it, ~980/s, and
# the guest keeps 30-65 % of the CPU.  (This once made the shares worse, when the sampler
# spun up to 2 ms before each tick and starved the guest; it spins 50 us at most now.)
xl sched-credit2 -d 0 -w 65535 > /dev/null 2>&1 || xl sched-credit -d 0 -w 65535 > /dev/null 2>&1
xl sched-credit2 > /out/xl-sched.txt 2>&1 || xl sched-credit > /out/xl-sched.txt 2>&1
xl info > /out/xl-info.txt 2>&1
# With more than one physical CPU, dom0 (one vCPU, dom0_vcpus_pin: on CPU 0) and the
# guests (guest_up: every vCPU on CPUs 1..n-1) never share one, so a profiled vCPU can be
# seen running, and the sampler takes no CPU from the guest.
NR_CPUS=$(awk '$1 == "nr_cpus" { print $3 }' /out/xl-info.txt)
GUEST_CPUS=
[ "${NR_CPUS:-1}" -gt 1 ] && GUEST_CPUS="1-$((NR_CPUS - 1))"
mark CPUS "${NR_CPUS:-1}" "guests=${GUEST_CPUS:-shared}"
# which xen-uniprof dom0 runs: a `make install` (/usr/local) or the package (/usr/sbin)
command -v xen-uniprof > /out/xen-uniprof-path.txt 2>&1
command -v xen-uniprof >/dev/null && xen-uniprof --version > /out/xen-uniprof-version.txt 2>&1
command -v xen-uniprof >/dev/null && xen-uniprof --help > /out/xen-uniprof-help.txt 2>&1

# ---- helpers the scenario file uses -----------------------------------------------------
# Every scenario leaves /out/<id>.{cmd,rc,stderr,xllist,xllist-before,secs} next to its
# output; the host
# side (tests/lab/analyze) reads them.

# selected ID: is scenario ID in this run (xu_lab_only)?
selected() {
    [ -z "$LAB_ONLY" ] || echo "$1" | grep -Eq -e "$LAB_ONLY"
}

# guest_up NAME [ID...]: xl create NAME's config, unless none of the scenarios IDs that
# need it (default: NAME's xenctx, xencall and xc ones) is in this run.  GUEST_XL_ARGS:
# key=value overrides for xl create (scenarios/stack.sh: less memory to dump).
guest_up() {
    name=$1; shift
    [ $# -gt 0 ] || set -- "$name-xenctx" "$name-xencall" "$name-xc"
    wanted=
    for i in "$@"; do selected "$i" && wanted=1; done
    [ -n "$wanted" ] || return 0
    echo "@@LAB xl create $name"
    case $name in *-hvm) free -k > "/out/$name.free-before" 2>&1 ;; esac
    created_at=$(uptime_s)
    # shellcheck disable=SC2086  # GUEST_XL_ARGS: key=value overrides of the config, split
    if xl create "/etc/xen/$name.cfg" ${GUEST_XL_ARGS:-} > "/out/$name.create.txt" 2>&1; then
        [ -n "$GUEST_CPUS" ] && xl vcpu-pin "$name" all "$GUEST_CPUS" >> "/out/$name.create.txt" 2>&1
        case $name in
            # Linux says nothing on Xen's debug port: linux_ready waits for its console
            linux-hvm) sleep 2 ;;
            *-hvm) hvm_wait_running "$name" ;;
            *) sleep 2 ;;
        esac
        xl list "$name" > "/out/$name.create-xllist.txt" 2>&1
    else
        echo "@@LAB xl create $name FAILED"; cat "/out/$name.create.txt"
    fi
}

# hvm_wait_running NAME: an HVM guest runs hvmloader, SeaBIOS and the device model's
# option ROM before its kernel: wait (60 s at most) until the kernel says GUEST_RUNNING on
# Xen's debug port, which `xl dmesg` shows as "(dDOMID) ...".  Records the seconds from
# `xl create` to that line (NAME.boot-secs) and what the device model costs dom0: its
# resident memory (NAME.dm-rss, kB) and dom0's memory in use before `xl create` and with
# the guest running (NAME.free-before, NAME.free).
hvm_wait_running() {
    domid=$(xl domid "$1" 2>/dev/null)
    t0=${created_at:-$(uptime_s)}
    i=0
    while ! xl dmesg 2>/dev/null | grep -q "(d$domid) .*GUEST_RUNNING" && [ $i -lt 600 ]; do
        usleep 100000
        i=$((i + 1))
    done
    t1=$(uptime_s)
    echo "$t0 $t1" > "/out/$1.boot-secs"
    for p in $(pidof xen-qemu-system-i386); do
        awk '$1 == "VmRSS:" { print $2 }' "/proc/$p/status"
    done > "/out/$1.dm-rss" 2>&1
    free -k > "/out/$1.free" 2>&1
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    if [ $i -lt 600 ]; then
        echo "@@LAB $1 running after $secs s"
    else
        echo "@@LAB $1 NOT running after $secs s"
    fi
    sleep 1
}

guest_down() {
    xl domid "$1" >/dev/null 2>&1 || return 0
    [ -f "/var/log/xen/console/guest-$1.log" ] &&
        cp "/var/log/xen/console/guest-$1.log" "/out/$1.console.txt"
    # An arm guest prints on its emulated SBSA UART.
    [ -f "/var/log/xen/console/guest-$1-vuart0.log" ] &&
        cp "/var/log/xen/console/guest-$1-vuart0.log" "/out/$1.console.txt"
    xl destroy "$1" > /dev/null 2>&1
}

# ---- Linux guests (scenarios/linux.sh, linux-hvm.sh): asked on their console

# Their profile, one policy for both sets: the default rate (99 Hz), as an admin would run
# it, not the lab's $LAB_SHARE_FREQ: each pause takes 400-830 us under this emulation, and
# at 499 Hz the pauses and the guest's catching up on its timers after each tripled the
# busy loop's kernel time and took the work's CPU's user share, by perf's own count, from
# 55.1 % to 50.5 %; xen-uniprof's and perf's views of so disturbed a guest differed by
# 0.3-4.9 points.  At 99 Hz both were within 0.6 of perf's with no profiler at all
# (tests/lab/README.md, "The profiler's own weight").  LINUX_PROFILE_SECS for about 10,000
# samples of the work's vCPU running (a standard error of half a point); the guest's own
# accounting and perf over the same window (linux_window).  LINUX_MAX_SECONDS for the
# sets' runs: run() interrupts a command 60 s after it, and reading the bzImage before
# sampling took 15-37 s on a quiet host and 140 s at load 12.
LINUX_PROFILE_SECS=120
LINUX_MAX_SECONDS=360

# linux_window: the next run's TRUTH_WINDOW, from xen-uniprof's start to just before its
# end, with the guest's accounting and perf's report (linux_truth, linux_perf_arm); the
# run after it must end with linux_window_end GUEST ID.
linux_window() {
    TRUTH_FN=linux_truth TRUTH_ARM_FN=linux_perf_arm
    TRUTH_WINDOW="0 $(awk -v s="$LINUX_PROFILE_SECS" 'BEGIN { print s - 0.1 }')"
}

# linux_window_end GUEST ID: back to run()'s defaults, and wait for the guest's answers.
linux_window_end() {
    unset TRUTH_FN TRUTH_ARM_FN TRUTH_WINDOW
    selected "$2" && linux_answered "$1" "$2"
}

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

# linux_ready NAME [SECONDS]: wait (240 s, or SECONDS, at most) for the guest's "@@XU READY" on its console: the
# kernel has booted and the work has started.  Records the seconds from `xl create`.
linux_ready() {
    lx_wait_for '@@XU READY' "$1" "${2:-240}"
    ok=$?
    echo "$created_at $(uptime_s)" > "/out/$1.boot-secs"
    if [ $ok = 0 ]; then
        echo "@@LAB $1 ready"
        # the work settles before anything is measured
        sleep 3
    else
        echo "@@LAB $1 NOT ready after ${2:-240} s"
    fi
}

# linux_said_ready NAME: has the guest said "@@XU READY" on its console?
linux_said_ready() {
    grep -qF '@@XU READY' "/var/log/xen/console/guest-$1.log" 2>/dev/null
}

# linux_ask GUEST LINE: write LINE on the guest's console (its tests/guests/linux/init
# reads it); 0 once written, else 1 with why on stdout.
linux_ask() {
    domid=$(xl domid "$1" 2>/dev/null)
    # an HVM guest's console is the device model's serial port (linux_hvm_console)
    tty=$(xenstore-read "/local/domain/$domid/serial/0/tty" 2>/dev/null ||
          xenstore-read "/local/domain/$domid/console/tty" 2>/dev/null)
    if [ -n "$tty" ] && printf '%s\n' "$2" > "$tty"; then
        echo "asked at $(uptime_s) through $tty"
        return 0
    fi
    echo "could not ask the guest: no console pty ($tty) for domain $domid"
    return 1
}

# linux_truth GUEST FILE: run()'s snapshot of the guest's own accounting (TRUTH_FN): ask
# the guest on its console, tagged with FILE's name (ID.truth-before, ID.truth-after).
# FILE records when and through which pty it was asked; the answer is in the console log.
linux_truth() {
    tag=${2##*/}
    linux_ask "$1" "S $tag" | sed "s/^asked/asked $tag/" > "$2"
}

# linux_perf_arm GUEST ID: run()'s preparation (TRUTH_ARM_FN): the guest starts perf with
# its events off, so that perf's own start is over before the profiler's window opens;
# waits (120 s at most) for the guest's answer, recorded in /out/ID.perf-armed; a guest
# that never said it was ready is not asked.
linux_perf_arm() {
    linux_said_ready "$1" || { echo "not asked: the guest never said it was ready" \
                                    > "/out/$2.perf-armed"; return 0; }
    linux_ask "$1" "P $2" > "/out/$2.perf-armed" &&
        lx_wait_for "@@XU $2 perf-armed" "$1" 120
    grep -aF "@@XU $2 perf-armed" "/var/log/xen/console/guest-$1.log" 2>/dev/null |
        tail -n 1 >> "/out/$2.perf-armed"
}

# linux_answered NAME ID: wait (600 s at most) for the guest's last answer of ID's run, its
# perf report included (perf report inside the guest takes a while under emulation: 59 s
# (PV) and 178 s (PVH) for 24,000 samples on a quiet host).  A guest that never said it
# was ready will not answer: no wait.
linux_answered() {
    if ! linux_said_ready "$1"; then
        echo "@@LAB $1 never ready: no answer awaited"
        return 0
    fi
    t0=$(uptime_s)
    lx_wait_for "@@XU $2.truth-after perf-end" "$1" 600
    ok=$?
    echo "@@LAB $1 answered (wait status $ok) after" \
         "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }') s"
}

# linux_hvm_console NAME: an HVM guest's console is the device model's serial port, a pty
# in dom0 (xenstore's serial/0/tty) that xenconsoled does not log: copy what the guest
# writes on it into the log the other helpers read, as xenconsoled does for a PV console.
linux_hvm_console() {
    domid=$(xl domid "$1" 2>/dev/null) || return 0
    tty=$(xenstore-read "/local/domain/$domid/serial/0/tty" 2>/dev/null) || {
        echo "@@LAB $1 has no serial pty in xenstore"; return 0; }
    # raw, no echo: an echo would send the guest's output back to it as input
    stty -F "$tty" raw -echo 2>/dev/null
    cat "$tty" >> "/var/log/xen/console/guest-$1.log" 2>/dev/null &
}

# truth_snapshot GUEST FILE: the guest's self-timing totals (tests/guests/truth.h), read
# from its memory at the address its map gives, into FILE for the judges; nothing for a
# guest without them, or without the reader (a lab on an --installed build).  512 bytes:
# the structure and what follows it on its page (it starts the guest's data pages); the
# judge checks its version.
truth_snapshot() {
    addr=$(awk '$3 == "guest_truth" { print $1 }' "/guests/$1.map" 2>/dev/null)
    [ -n "$addr" ] && command -v read_guest > /dev/null || return 0
    read_guest --dump "$(xl domid "$1" 2>/dev/null)" "$addr" 512 > "$2" 2>&1
}

# run ID COMMAND...: run a user's command as is, and what the host needs to judge it.
# The guest is the command's second word (or $RUN_GUEST): its `xl list` line before and
# after goes to ID.xllist-before and ID.xllist.  The guest's own measurement before and
# after is taken by $TRUTH_FN GUEST FILE (default truth_snapshot; a guest that reports
# its accounting itself, as the Linux guest does on its console, brings its own).  With a
# TRUTH_WINDOW, $TRUTH_ARM_FN GUEST ID (if set) prepares the guest before the command
# starts.
run() {
    id=$1; shift
    selected "$id" || return 0
    guest=${RUN_GUEST:-$2}
    echo "$*" > "/out/$id.cmd"
    echo "@@LAB run $id: $*"
    xl list "$guest" > "/out/$id.xllist-before" 2>&1     # the guest's CPU time so far
    [ -n "$TRUTH_WINDOW" ] || ${TRUTH_FN:-truth_snapshot} "$guest" "/out/$id.truth-before"
    [ -n "$TRUTH_WINDOW" ] && [ -n "$TRUTH_ARM_FN" ] && $TRUTH_ARM_FN "$guest" "$id"
    t0=$(uptime_s)
    # A hung run must not hang the lab: Ctrl-C (SIGINT) it well after its -T; xen-uniprof
    # then writes what it has and the guest must still be running.
    limit=$((${LAB_SECONDS:-$LAB_MAX_SECONDS} + 60))
    if [ -n "$TRUTH_WINDOW" ]; then
        # TRUTH_WINDOW="A B": the guest's own measurement over the sampling itself, from
        # A seconds after xen-uniprof says it starts ("profiling domain ...") for B
        # seconds, for numbers that depend on the window (the sampler's duty cycle is
        # not the same throughout a run).
        timeout -s INT -k 30 $limit "$@" > "/out/$id.stdout" 2> "/out/$id.stderr" &
        pid=$!
        i=0
        while ! grep -q "profiling domain" "/out/$id.stderr" 2>/dev/null &&
              kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
            sleep 0.1; i=$((i + 1))
        done
        set -- $TRUTH_WINDOW
        sleep "$1"; ${TRUTH_FN:-truth_snapshot} "$guest" "/out/$id.truth-before"
        sleep "$2"; ${TRUTH_FN:-truth_snapshot} "$guest" "/out/$id.truth-after"
        wait $pid
    else
        timeout -s INT -k 30 $limit "$@" > "/out/$id.stdout" 2> "/out/$id.stderr"
    fi
    rc=$?
    t1=$(uptime_s)
    [ -n "$TRUTH_WINDOW" ] || ${TRUTH_FN:-truth_snapshot} "$guest" "/out/$id.truth-after"
    echo "$rc" > "/out/$id.rc"
    echo "$t0 $t1" > "/out/$id.secs"
    xl list "$guest" > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id rc=$rc $(tail -n 3 "/out/$id.stderr" | tr '\n' ' ')"
}

# state_of NAME: the state column of `xl list NAME` (empty if there is no such domain).
state_of() {
    xl list "$1" 2>/dev/null | awk 'NR == 2 { print $5 }'
}

# sigkill_runs ID NAME N: N runs of xen-uniprof on NAME at 1 kHz killed with SIGKILL at
# random moments (0.1-1.6 s); one line per run in ID.runs: delay_ms, sampling (it had
# said "profiling domain" before the kill), the state right after the kill, the state
# once settled (2 s at most): the guardian unpauses as soon as it sees its parent gone.
sigkill_runs() {
    id=$1 name=$2 n=$3
    selected "$id" || return 0
    echo "$n x: xen-uniprof $name -F 1000 -T 30 -o /tmp/sigkill.folded" \
         "--elf /guests/$name.elf, SIGKILL after 0.1-1.6 s" > "/out/$id.cmd"
    echo "@@LAB run $id"
    : > "/out/$id.runs"
    i=0
    while [ $i -lt "$n" ]; do
        delay_ms=$((100 + RANDOM % 1500))
        xen-uniprof "$name" -F 1000 -T 30 -o /tmp/sigkill.folded \
            --elf "/guests/$name.elf" 2> /tmp/sigkill.stderr &
        pid=$!
        usleep $((delay_ms * 1000))
        kill -KILL $pid
        wait $pid 2>/dev/null
        now=$(state_of "$name")
        sampling=0
        grep -q "profiling domain" /tmp/sigkill.stderr && sampling=1
        j=0
        settled=$now
        while case $settled in *p*) true ;; *) false ;; esac && [ $j -lt 20 ]; do
            usleep 100000
            settled=$(state_of "$name")
            j=$((j + 1))
        done
        echo "$delay_ms $sampling ${now:--} ${settled:--}" >> "/out/$id.runs"
        i=$((i + 1))
    done
    echo 0 > "/out/$id.rc"
    xl list "$name" > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id"
}

# xenctx_linked0_samples ID NAME MAP N: N call traces with Xen's xenctx of a unikernel
# linked at 0 (Mini-OS, Unikraft: -k 0, as for the PVH guests of xenctx_samples), its
# symbols from the System.map-style MAP.
xenctx_linked0_samples() {
    id=$1 name=$2 map=$3 n=$4
    selected "$id" || return 0
    echo "xenctx -f -C -k 0 -s $map $name" > "/out/$id.cmd"
    domid=$(xl domid "$name" 2>/dev/null)
    i=0
    : > "/out/$id.xenctx"
    while [ $i -lt "$n" ]; do
        echo "@@SAMPLE $i" >> "/out/$id.xenctx"
        xenctx -f -C -k 0 -s "$map" "$domid" >> "/out/$id.xenctx" 2>&1
        i=$((i + 1))
    done
    echo 0 > "/out/$id.rc"
    xl list "$name" > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id"
}

# xenctx_samples ID NAME N: N call traces of every vCPU with Xen's own xenctx, an
# independent check of the guest's frame chains (about 0.2 s each).
xenctx_samples() {
    id=$1 name=$2 n=$3
    selected "$id" || return 0
    if [ "$LAB_ARCH" = arm64 ]; then
        xenctx_arm_samples "$id" "$name" "$n"
        return 0
    fi
    # xenctx symbolizes only above its user/kernel split: a PVH guest lives at 1 MiB, and
    # the 32-bit guests (tests/guests/x86_32, x86_32pv) at 0xc0000000 and up, under the
    # split of a 64-bit xenctx.
    k=
    case $name in *-pvh|*-hvm|*-x86_32-pv) k="-k 0 " ;; esac
    echo "xenctx -f -C $k-s /guests/$name.map $name" > "/out/$id.cmd"
    domid=$(xl domid "$name" 2>/dev/null)
    i=0
    : > "/out/$id.xenctx"
    while [ $i -lt "$n" ]; do
        echo "@@SAMPLE $i" >> "/out/$id.xenctx"
        # shellcheck disable=SC2086
        xenctx -f -C $k-s "/guests/$name.map" "$domid" >> "/out/$id.xenctx" 2>&1
        i=$((i + 1))
    done
    echo 0 > "/out/$id.rc"
    xl list "$name" > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id"
}

# xenctx_arm_samples ID NAME N: Debian's arm64 xenctx prints registers only (no stack,
# no symbols): N dumps of every vCPU with the control registers (-a: SCTLR_EL1, TTBR0/1),
# for the host to check PC, LR and x29 against the map, the MMU on and the high mapping.
xenctx_arm_samples() {
    id=$1 name=$2 n=$3
    domid=$(xl domid "$name" 2>/dev/null)
    vcpus=$(xl vcpu-list "$name" 2>/dev/null | awk 'NR > 1 { n++ } END { print n + 0 }')
    echo "xenctx -a $domid VCPU (vCPUs: $vcpus)" > "/out/$id.cmd"
    xl vcpu-list "$name" > "/out/$id.vcpus" 2>&1
    i=0
    : > "/out/$id.xenctx"
    while [ $i -lt "$n" ]; do
        v=0
        while [ $v -lt "${vcpus:-1}" ] && [ $v -lt 8 ]; do
            echo "@@SAMPLE $i vcpu$v" >> "/out/$id.xenctx"
            xenctx -a "$domid" "$v" >> "/out/$id.xenctx" 2>&1
            v=$((v + 1))
        done
        i=$((i + 1))
    done
    # The frame-record chains, walked through the guest's page tables (tests/guests/
    # arm64/tools/xu-arm-frames.c).
    command -v xu-arm-frames > /dev/null &&
        xu-arm-frames "$domid" "$((n * 10))" > "/out/$id.frames" 2>&1
    echo 0 > "/out/$id.rc"
    xl list "$name" > "/out/$id.xllist" 2>&1
    echo "@@LAB done $id"
}

if [ -n "$LAB_DEMO" ]; then
    # The demo: a guest created with xl, profiled by name as a user would; a flame graph if
    # this xen-uniprof writes SVG, else folded stacks.
    ext=folded
    grep -q '\.svg' /out/xen-uniprof-help.txt 2>/dev/null && ext=svg
    guest_up nested-pv
    run demo xen-uniprof nested-pv -F 997 -T "$LAB_DEMO" -o /out/demo.$ext
    guest_down nested-pv
else
    . /lab-scenarios
fi

mark SCENARIOS_DONE
xl list > /out/xl-list-final.txt 2>&1
dmesg > /out/dom0-dmesg.txt 2>&1
echo done > /out/lab-complete
if [ "$OUTMODE" = 9p ]; then
    sync
    umount /out
else
    echo "@@OUT-BEGIN"
    (cd /out && tar cf - . | gzip -c | base64)
    echo "@@OUT-END"
fi
mark POWEROFF
echo o > /proc/sysrq-trigger
sleep 5
poweroff -f
