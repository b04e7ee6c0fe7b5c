#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pprof_go.sh - our pprof output as `go tool pprof` reads it: the numbers of
# -top, and the mapping's build-id in -raw.  The guest is a real ELF built
# here with the C compiler; the trace is written from its symbols.
# Needs Debian's golang-go (skipped without it).
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

command -v go >/dev/null 2>&1 || skip "go is not installed (Debian: apt-get install golang-go)"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler to build the guest ELF"

# A Go that never reaches for the network or the user's home.
export GOTOOLCHAIN=local GOFLAGS= HOME="$WORK" GOCACHE="$WORK/gocache" PPROF_TMPDIR="$WORK"

cat > "$WORK/guest.c" <<'C'
int function_1(void) { return 1; }
int function_2(void) { return 2; }
int function_3(void) { return 3; }
int main(void) { return function_1() + function_2() + function_3(); }
C
"$CC" -O0 -fno-inline -Wl,--build-id=sha1 -o "$WORK/guest" "$WORK/guest.c"

addr() {
    nm "$WORK/guest" | awk -v f="$1" '$3 == f { print $1 }'
}
hex() {
    printf '0x%x\n' $(( 0x$(addr "$1") + $2 ))
}

# Samples: function_N (IP 4 bytes in) called from main (return address
# 8 bytes in); 10/30/60, and 2 walks that failed, as the original uniprof
# wrote them.
{
    printf '#unikernel stack tracer using xencall hypercall interface\n'
    printf '#tracing domid 5 on 2026-01-01 00:00:00 UTC (+0000)\n\n'
    for spec in function_1:10 function_2:30 function_3:60; do
        f=${spec%%:*}
        n=${spec#*:}
        i=0
        while [ $i -lt "$n" ]; do
            printf '%s\n%s\n1\n\n' "$(hex "$f" 4)" "$(hex main 8)"
            i=$((i + 1))
        done
    done
    printf '%s\n0\n\n%s\n0\n\n' "$(hex function_3 4)" "$(hex function_3 4)"
} > "$WORK/trace.raw"

"$XU" convert -e "$WORK/guest" -o "$WORK/guest.pb.gz" "$WORK/trace.raw"
gzip -t "$WORK/guest.pb.gz" || fail "not gzip"

go tool pprof -top "$WORK/guest.pb.gz" > "$WORK/top.txt" 2>"$WORK/pprof.err" || {
    cat "$WORK/pprof.err" >&2
    fail "go tool pprof -top failed"
}
cat "$WORK/top.txt"
# flat, flat%, sum%, cum, cum%, name
row() {
    awk -v f="$1" '$6 == f { print $1, $2, $4, $5 }' "$WORK/top.txt"
}
grep -q 'Type: samples' "$WORK/top.txt" || fail "sample type is not samples"
grep -q 'of 102 total' "$WORK/top.txt" || fail "total is not 102 samples"
[ "$(row function_3)" = "62 60.78% 62 60.78%" ] || fail "function_3: $(row function_3)"
[ "$(row function_2)" = "30 29.41% 30 29.41%" ] || fail "function_2: $(row function_2)"
[ "$(row function_1)" = "10 9.80% 10 9.80%" ] || fail "function_1: $(row function_1)"
[ "$(row main)" = "0 0% 100 98.04%" ] || fail "main: $(row main)"
[ "$(row '[incomplete]')" = "0 0% 2 1.96%" ] || fail "[incomplete]: $(row '[incomplete]')"

# The mapping names the ELF and carries its build-id; locations have addresses.
go tool pprof -raw "$WORK/guest.pb.gz" > "$WORK/raw.txt" 2>>"$WORK/pprof.err" ||
    fail "go tool pprof -raw failed"
build_id=$(readelf -n "$WORK/guest" | awk '/Build ID/ { print $3 }')
[ -n "$build_id" ] || fail "the guest has no build-id"
grep -q "$build_id" "$WORK/raw.txt" || { cat "$WORK/raw.txt" >&2; fail "build-id $build_id not in the mapping"; }
grep -q "$WORK/guest" "$WORK/raw.txt" || fail "mapping does not name the ELF"
grep -qi "$(hex function_3 4 | sed 's/^0x//')" "$WORK/raw.txt" ||
    fail "location addresses missing"
# The period follows the frequency when it is known (a live run); the
# vCPU is a label.
grep -q 'vcpu:\[0\]' "$WORK/raw.txt" || fail "no vcpu label"
echo "PASS: go tool pprof reads our profile with the expected numbers"
