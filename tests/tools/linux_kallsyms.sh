#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# linux_kallsyms.sh - Debian's own Linux kernel read with no debug package:
#   - the bzImage's xz payload decompressed and its kallsyms tables decoded
#     (tests/tools/kallsyms_dump, xen-uniprof's own readers): every function
#     symbol (t, T, w, W) must equal, address, type and name, the one in the
#     System.map of the same build;
#   - `xen-uniprof convert -e vmlinuz` names a trace's kernel addresses.
# The kernel package comes from the lab's download cache when it is there
# (~/.cache/xen-uniprof-lab/*/debs), else from Debian's archive into
# $XU_LINUX_CACHE (default ~/.cache/xen-uniprof-linux).  Debian ships the real
# System.map only in the -dbg package (858 MB for 6.1.0-56): it is downloaded
# once, its System.map kept in the cache and the package deleted.  Skipped
# with one line when neither is at hand and the archive cannot be reached.
# It costs 15-30 s and a download on a fresh machine, so it runs where
# XU_TEST_LINUX_KERNEL=1 asks for it (scripts/test's unit part), not in every
# `make check` (the sanitized build's, distcheck's, the packages' builds).
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

[ "${XU_TEST_LINUX_KERNEL:-0}" = 1 ] ||
    skip "Debian's kernel against its System.map runs with XU_TEST_LINUX_KERNEL=1"

DUMP=${DUMP:-./tests/tools/kallsyms_dump}
[ -x "$DUMP" ] || { echo "error: $DUMP not built" >&2; exit 99; }
[ "$(uname -m)" = x86_64 ] || skip "Debian's amd64 kernel is read on x86_64 hosts only"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb to open Debian's kernel package"
# The user's own home, not $HOME: package builds point $HOME at a scratch
# directory, and the caches would be downloaded again there.
home=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f6)
home=${home:-${HOME:-/root}}
CACHE=${XU_LINUX_CACHE:-$home/.cache/xen-uniprof-linux}
LABCACHE=${XU_LAB_CACHE:-$home/.cache/xen-uniprof-lab}

# The kernel package: the lab's, ours, or downloaded.
deb=$(ls "$LABCACHE"/*/debs/linux-image-*-amd64_*_amd64.deb "$CACHE"/linux-image-*-amd64_*_amd64.deb \
      2>/dev/null | grep -v -e '-dbg_' -e unsigned | head -1 || true)
if [ -z "$deb" ]; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
          awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    [ -n "$pkg" ] || skip "no Linux kernel package cached and apt knows none (offline?)"
    mkdir -p "$CACHE"
    (cd "$CACHE" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
        skip "no Linux kernel package cached and $pkg cannot be downloaded (offline?)"
    deb=$(ls "$CACHE"/"$pkg"_*_amd64.deb | head -1)
fi
base=$(basename "$deb" .deb)                    # linux-image-6.1.0-56-amd64_6.1.192-2_amd64
pkg=${base%%_*}
ver=${base#*_}
ver=${ver%_amd64}
kver=${pkg#linux-image-}
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/vmlinuz-$kver" > "$WORK/vmlinuz" ||
    fail "$deb has no /boot/vmlinuz-$kver"

# The System.map of the same build, from its -dbg package.
map=$CACHE/System.map-$kver-$ver
if [ ! -s "$map" ]; then
    mkdir -p "$CACHE" "$WORK/dbg"
    (cd "$WORK/dbg" && apt-get download -q "$pkg-dbg=$ver" >/dev/null 2>&1) ||
        skip "the System.map of $kver is in $pkg-dbg=$ver, which cannot be downloaded (offline?)"
    dpkg-deb --fsys-tarfile "$WORK"/dbg/*.deb |
        tar -xO "./usr/lib/debug/boot/System.map-$kver" > "$map.tmp" && mv "$map.tmp" "$map"
    rm -rf "$WORK/dbg"
fi
[ -s "$map" ] || fail "no System.map in $pkg-dbg=$ver"

set +e
"$DUMP" "$WORK/vmlinuz" > "$WORK/kallsyms" 2> "$WORK/dump.err"
rc=$?
set -e
cat "$WORK/dump.err" >&2
if [ $rc -ne 0 ]; then
    grep -q 'does not read' "$WORK/dump.err" && skip "this build cannot decompress $kver's kernel"
    fail "kallsyms_dump could not read $kver's vmlinuz"
fi

funcs() { awk '$2 ~ /^[tTwW]$/' "$1" | LC_ALL=C sort; }
funcs "$map" > "$WORK/map.f"
funcs "$WORK/kallsyms" > "$WORK/ours.f"
total_map=$(wc -l < "$map")
total_ours=$(wc -l < "$WORK/kallsyms")
nmap=$(wc -l < "$WORK/map.f")
nours=$(wc -l < "$WORK/ours.f")
equal=$(LC_ALL=C comm -12 "$WORK/map.f" "$WORK/ours.f" | wc -l)
echo "$kver ($ver): kallsyms $total_ours symbols, System.map $total_map lines;" \
     "function symbols: System.map $nmap, kallsyms $nours, equal $equal"
[ "$nmap" -gt 1000 ] || fail "System.map has only $nmap function symbols"
if [ "$equal" -ne "$nmap" ] || [ "$nours" -ne "$nmap" ]; then
    LC_ALL=C comm -3 "$WORK/map.f" "$WORK/ours.f" | head -5 >&2
    fail "kallsyms and System.map differ"
fi

# The user's path: convert names kernel addresses through the bzImage.
# a byte inside the function at hex address $1 (a shell's arithmetic is
# signed 64-bit: kernel addresses overflow it), its last digit plus one
inside() { printf '%s%s' "${1%?}" "$(printf '%s' "${1#"${1%?}"}" | tr '0-9a-e' '1-9a-f')"; }
addr() { awk -v f="$1" '$3 == f && $2 ~ /^[tT]$/ { print $1; exit }' "$map"; }
a1=$(addr schedule) a2=$(addr do_syscall_64)
[ -n "$a1" ] && [ -n "$a2" ] || fail "schedule or do_syscall_64 missing from System.map"
{
    printf '#unikernel stack tracer using xencall hypercall interface\n'
    printf '#tracing domid 5 on 2026-01-01 00:00:00 UTC (+0000)\n\n'
    printf '0x%s\n0x%s\n1\n\n' "$(inside "$a1")" "$(inside "$a2")"
} > "$WORK/trace.raw"
"$XU" convert -e "$WORK/vmlinuz" -o "$WORK/out.folded" "$WORK/trace.raw" 2> "$WORK/convert.err" ||
    { cat "$WORK/convert.err" >&2; fail "convert -e vmlinuz failed"; }
grep -qx 'do_syscall_64;schedule 1' "$WORK/out.folded" ||
    { cat "$WORK/out.folded" >&2; fail "convert did not name the kernel's functions"; }
echo "convert -e vmlinuz-$kver: do_syscall_64;schedule named"
