#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# debuginfod.sh - a stripped guest ELF symbolised through a real debuginfod
# server (Debian's debuginfod) on a loopback port, by its build-id:
#   - with DEBUGINFOD_URLS naming the server, `convert --elf STRIPPED` names
#     every frame from the debug file the server has;
#   - with the server stopped, the file comes from debuginfod's cache;
#   - with the server stopped and the cache empty: exit 4 and one line that
#     says what was asked and why it failed;
#   - with DEBUGINFOD_URLS unset, nothing is asked, though the server runs.
# Skipped without the debuginfod package or a build without libdebuginfod.
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

command -v debuginfod >/dev/null 2>&1 ||
    skip "debuginfod is not installed (Debian: apt-get install debuginfod)"
"$XU" --version | grep -q 'debuginfod' || skip "this build has no libdebuginfod"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler to build the guest ELF"
command -v objcopy >/dev/null 2>&1 || skip "no objcopy to strip the guest ELF"

# Nothing of the user's: the cache, the home, the servers.
export HOME="$WORK" DEBUGINFOD_CACHE_PATH="$WORK/cache" DEBUGINFOD_TIMEOUT=5
unset DEBUGINFOD_URLS DEBUGINFOD_PROGRESS

mkdir "$WORK/srv"
cat > "$WORK/guest.c" <<'C'
int function_1(void) { return 1; }
int function_2(void) { return 2; }
int function_3(void) { return 3; }
int main(void) { return function_1() + function_2() + function_3(); }
C
# The server indexes the unstripped file; the user holds only the stripped one.
"$CC" -O0 -g -fno-inline -Wl,--build-id=sha1 -o "$WORK/srv/guest" "$WORK/guest.c"
objcopy --strip-all "$WORK/srv/guest" "$WORK/guest.stripped"

hex() {
    a=$(nm "$WORK/srv/guest" | awk -v f="$1" '$3 == f { print $1 }')
    printf '0x%x\n' $(( 0x$a + $2 ))
}
{
    printf '#unikernel stack tracer using xencall hypercall interface\n'
    printf '#tracing domid 5 on 2026-01-01 00:00:00 UTC (+0000)\n\n'
    for spec in function_1:10 function_2:30 function_3:60; do
        f=${spec%%:*}
        i=0
        while [ $i -lt "${spec#*:}" ]; do
            hex "$f" 4
            hex main 8
            printf '1\n\n'
            i=$((i + 1))
        done
    done
} > "$WORK/trace.raw"

# convert ARGS...: the stripped ELF's trace to folded; out, err, rc kept
convert() {
    set +e
    "$XU" convert --elf "$WORK/guest.stripped" -o "$WORK/out.folded" "$@" \
        "$WORK/trace.raw" 2> "$WORK/err"
    rc=$?
    set -e
}
want_names() {
    for want in "main;function_1 10" "main;function_2 30" "main;function_3 60"; do
        grep -qx "$want" "$WORK/out.folded" ||
            fail "$1: no '$want' in: $(cat "$WORK/out.folded") / $(cat "$WORK/err")"
    done
}

# Unset: not asked, whatever runs.
convert
[ "$rc" = 4 ] || fail "stripped ELF, DEBUGINFOD_URLS unset: exit $rc, want 4: $(cat "$WORK/err")"
grep -q debuginfod "$WORK/err" && fail "DEBUGINFOD_URLS unset, yet: $(cat "$WORK/err")"

# A server on a free loopback port.
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$WORK"' EXIT
for port in $(($$ % 20000 + 20000)) $(($$ % 20000 + 40000)) 45678; do
    debuginfod -p "$port" -d "$WORK/index.sqlite" -F "$WORK/srv" -t 1 \
        > "$WORK/server.log" 2>&1 &
    pid=$!
    sleep 1
    kill -0 "$pid" 2>/dev/null && break
    pid=
done
[ -n "$pid" ] || fail "debuginfod did not start: $(tail -5 "$WORK/server.log")"
export DEBUGINFOD_URLS="http://127.0.0.1:$port"

# Until the server has indexed the file (a few seconds at most).
i=0
while :; do
    rm -rf "$DEBUGINFOD_CACHE_PATH"
    convert
    [ "$rc" = 0 ] && break
    i=$((i + 1))
    [ $i -lt 30 ] || fail "never symbolised from the server (exit $rc): $(cat "$WORK/err")"
    sleep 1
done
want_names "from the server"

# The server gone: the cache still has it.
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=
convert
[ "$rc" = 0 ] || fail "from the cache, server stopped: exit $rc: $(cat "$WORK/err")"
want_names "from the cache"

# The server gone and the cache empty: exit 4, one line naming debuginfod and why.
rm -rf "$DEBUGINFOD_CACHE_PATH"
convert
[ "$rc" = 4 ] || fail "server stopped, empty cache: exit $rc, want 4: $(cat "$WORK/err")"
[ "$(wc -l < "$WORK/err")" = 1 ] || fail "server stopped: more than one line: $(cat "$WORK/err")"
grep -q "debuginfod $DEBUGINFOD_URLS: " "$WORK/err" ||
    fail "server stopped: the line does not say what was asked: $(cat "$WORK/err")"
echo "ok: $(cat "$WORK/err")"
