# SPDX-License-Identifier: GPL-2.0-only
# common.sh - sourced by the tests in tests/tools: where things are, a
# scratch directory removed on exit, and the skip/fail conventions of
# automake's test driver (77 = skipped, 99 = hard error).

set -eu

: "${srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
XU=${XU:-./tools/xen-uniprof}
if [ ! -x "$XU" ]; then
    echo "error: $XU not built" >&2
    exit 99
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/xu-tools-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

skip() {
    echo "SKIP: $*" >&2
    exit 77
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The thesis's test program as folded stacks: function_1/2/3 take 10/30/60 %.
thesis_folded() {
    cat <<'FOLDED'
main;function_1;printf;hypercall_page 10
main;function_2;printf;hypercall_page 30
main;function_3;printf;hypercall_page 55
main;function_3;compute 5
FOLDED
}
