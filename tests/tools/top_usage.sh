#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# top_usage.sh - `xen-uniprof top`'s command line, which needs no Xen: its
# help (exit 0, on stdout), each usage error (exit 2, one line naming the
# option and the pointer to --help, on stderr), and top listed in the
# main --help.  What top shows is tested on the simulated guest
# (tests/unit/top/).
. "$(dirname "$0")/common.sh"

"$XU" top --help > "$WORK/help" || fail "top --help exited $?"
grep -q '^Usage: xen-uniprof top \[OPTIONS\] DOMAIN$' "$WORK/help" || fail "top --help: no usage line"
"$XU" --help | grep -q '^ *xen-uniprof top \[OPTIONS\] DOMAIN$' || fail "--help does not list top"

checks=0
# usage_error EXPECTED-TEXT ARGS...: exit 2, the text on stderr, nothing on stdout
usage_error() {
    want=$1
    shift
    rc=0
    "$XU" top "$@" > "$WORK/out" 2> "$WORK/err" || rc=$?
    [ "$rc" = 2 ] || fail "top $*: exit $rc (expected 2)"
    grep -qF -- "$want" "$WORK/err" || fail "top $*: stderr lacks '$want': $(cat "$WORK/err")"
    grep -qF "Try 'xen-uniprof top --help'" "$WORK/err" || fail "top $*: no pointer to --help"
    [ ! -s "$WORK/out" ] || fail "top $*: wrote to stdout"
    checks=$((checks + 1))
}
usage_error "no DOMAIN given" -b
usage_error "unexpected argument 'b' after DOMAIN 'a'" a b
usage_error "empty DOMAIN" ""
usage_error "-n/--iterations: '0'" -n 0 web1
usage_error "-n/--iterations: 'x'" -n x web1
usage_error "-d/--delay: '0.01'" -d 0.01 web1
usage_error "-d/--delay: 'nan'" --delay=nan web1
usage_error "-F/--frequency: '0'" -F 0 web1
usage_error "-s/--sort: 'name'" --sort name web1
usage_error "-r/--rows: '0'" -r 0 web1
usage_error "--max-depth: '2000'" --max-depth 2000 web1
usage_error "--unwind: 'dwarf'" --unwind dwarf web1
usage_error "--roots: give one or more" --roots= web1
usage_error "-e/--elf: empty file name" -e "" web1
usage_error "-q/--quiet and -v/--verbose contradict" -q -v web1
usage_error "unknown option '--output'" --output x web1
usage_error "unknown option '-T'" -T 1 web1
usage_error "needs an argument" web1 -n
echo "top usage: $checks usage errors as expected"
