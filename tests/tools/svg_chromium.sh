#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# svg_chromium.sh - the flame graph's script, run by a real browser: headless
# Chromium opens the SVG from disk with ?s=REGEX and ?x=&y= and we read the
# DOM it ends with.  Needs Debian's chromium (skipped without it).
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (Debian: apt-get install chromium)"

thesis_folded > "$WORK/thesis.folded"
"$XU" convert -o "$WORK/thesis.svg" "$WORK/thesis.folded"

# dump URL-QUERY: the DOM after the page's onload script ran.
dump() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --disable-component-update --no-first-run \
        --user-data-dir="$WORK/profile" --dump-dom "file://$WORK/thesis.svg$1" \
        2>"$WORK/chromium.log" > "$WORK/dom.svg" || {
        cat "$WORK/chromium.log" >&2
        fail "chromium failed on $1"
    }
    [ -s "$WORK/dom.svg" ] || fail "chromium dumped nothing for $1"
}

matches() {
    grep -o '<g class="f match"[^>]*><title>[^<(]*' "$WORK/dom.svg" | sed 's/.*<title>//; s/ *$//' \
        | sort | tr '\n' ' '
}

matched_text() {
    sed -n 's/.*<text id="matched"[^>]*>\([^<]*\)<.*/\1/p' "$WORK/dom.svg"
}

dump "?s=function_3"
[ "$(matches)" = "function_3 " ] || fail "?s=function_3 marked: $(matches)"
[ "$(matched_text)" = "Matched: 60.00% (60 of 100 samples)" ] ||
    fail "?s=function_3 reported: $(matched_text)"

# Nested matches are not counted twice; several frames of one name are.
dump "?s=printf%7Cmain"
[ "$(matches)" = "main printf printf printf " ] || fail "?s=printf|main marked: $(matches)"
[ "$(matched_text)" = "Matched: 100.00% (100 of 100 samples)" ] ||
    fail "?s=printf|main reported: $(matched_text)"

dump "?s=%5Efunction_%5B12%5D%24"
[ "$(matches)" = "function_1 function_2 " ] || fail "?s=^function_[12]\$ marked: $(matches)"
[ "$(matched_text)" = "Matched: 40.00% (40 of 100 samples)" ] ||
    fail "?s=^function_[12]\$ reported: $(matched_text)"

# ?x=&y= zooms to the frame drawn there: function_2 fills the width, its
# ancestors are dimmed, other branches hidden.
xy=$(grep -o '<title>function_2 ([^<]*</title><rect x="[0-9.]*" y="[0-9.]*"' "$WORK/thesis.svg" |
     sed 's/.*x="\([0-9.]*\)" y="\([0-9.]*\)"/x=\1\&y=\2/')
[ -n "$xy" ] || fail "function_2 not found in the SVG"
dump "?$xy"
grep -q '<g class="f[^"]*" data-s="[0-9]*" data-n="30" data-d="2"[^>]*><title>function_2 ([^<]*</title><rect x="10.00" y="[0-9.]*" width="1180.00"' "$WORK/dom.svg" ||
    fail "?$xy did not zoom to function_2"
grep -q '<g class="f parent"[^>]*><title>main (' "$WORK/dom.svg" || fail "main is not shown as a parent"
grep -q 'style="display: none;"[^>]*><title>function_3 (' "$WORK/dom.svg" ||
    fail "function_3 is still shown when zoomed to function_2"
grep -q '<text id="unzoom" class="button"' "$WORK/dom.svg" || fail "no Reset Zoom button when zoomed"
echo "PASS: search marks and percentages, zoom from the URL"
