#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Rebuilds ehabi_fixture.elf from ehabi_fixture.S (the checked-in ELF is
# what the test reads, so the build needs no ARM toolchain): clang's
# integrated assembler for armv7-a and ld.lld, text at 0x10000.
set -e
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang --target=armv7a-none-eabi -mfpu=vfpv3 -mfloat-abi=hard -c "$here/ehabi_fixture.S" \
    -o "$tmp/f.o"
ld.lld -static -N -e _start -Ttext=0x10000 --build-id=none -o "$here/ehabi_fixture.elf" "$tmp/f.o"
