#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# manpage_options.sh - the man page documents exactly the options the code
# accepts: every long option in `xen-uniprof --help` (and in convert's,
# diff's, top's and stack's help) appears in docs/xen-uniprof.1, and every option the man page
# names is one some --help lists.
. "$(dirname "$0")/common.sh"

man="$srcdir/docs/xen-uniprof.1"
[ -f "$man" ] || fail "no man page at $man"

{ "$XU" --help; "$XU" convert --help; "$XU" diff --help; "$XU" top --help;
  "$XU" stack --help; } |
    grep -o -- '--[a-z][a-z-]*' | sort -u > "$WORK/help"
# roff spells -- as \-\-
sed 's/\\-/-/g' "$man" | grep -o -- '--[a-z][a-z-]*' | sort -u > "$WORK/man"

missing=$(comm -23 "$WORK/help" "$WORK/man")
extra=$(comm -13 "$WORK/help" "$WORK/man")
[ -z "$missing" ] || fail "options in --help but not in the man page: $(echo $missing)"
[ -z "$extra" ] || fail "options in the man page that no --help lists: $(echo $extra)"

# and the exit codes: every code in exit_codes.h is documented
for code in $(sed -n 's/.*XU_EXIT_[A-Z_]* = \([0-9]*\),.*/\1/p' "$srcdir/tools/exit_codes.h"); do
    grep -q "^\.B $code\$" "$man" || fail "exit code $code is not in EXIT STATUS"
done
echo "man page and --help agree on $(wc -l < "$WORK/help") options"
