#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# speedscope_schema.sh - our speedscope JSON against speedscope's own
# file-format schema (from its npm package), validated with ajv.  The two
# npm packages are installed into a cache directory on first use.
# Needs node and npm (Debian: nodejs, npm; skipped without them).
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

command -v node >/dev/null 2>&1 || skip "node is not installed (Debian: apt-get install nodejs)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed (Debian: apt-get install npm)"

NPM_DIR=${XU_NPM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/xen-uniprof/npm}
if [ ! -f "$NPM_DIR/node_modules/ajv/package.json" ] ||
   [ ! -f "$NPM_DIR/node_modules/speedscope/package.json" ]; then
    mkdir -p "$NPM_DIR"
    npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error \
        ajv@8 speedscope@1 >&2 || fail "npm install ajv speedscope into $NPM_DIR failed"
fi
SCHEMA=$(find "$NPM_DIR/node_modules/speedscope" -name file-format-schema.json | head -n 1)
[ -n "$SCHEMA" ] || fail "the speedscope package ships no file-format-schema.json"

check() {
    NODE_PATH="$NPM_DIR/node_modules" node "$srcdir/tests/tools/validate_speedscope.js" "$@" ||
        fail "$1 does not validate"
}

thesis_folded > "$WORK/thesis.folded"
# Hostile names must still give valid JSON.
printf 'vcpu1;[incomplete];bad"name\\with\377byte 2\n' >> "$WORK/thesis.folded"
printf 'vcpu1;main;function_3 1\n' >> "$WORK/thesis.folded"

"$XU" convert -o "$WORK/all.speedscope.json" "$WORK/thesis.folded"
check "$WORK/all.speedscope.json" "$SCHEMA" 103
"$XU" convert --per-vcpu -f speedscope -o "$WORK/per-vcpu.json" "$WORK/thesis.folded"
check "$WORK/per-vcpu.json" "$SCHEMA" 103
grep -q '"name":"vCPU 1"' "$WORK/per-vcpu.json" || fail "no profile for vCPU 1"
echo "PASS: speedscope output validates against its schema"
