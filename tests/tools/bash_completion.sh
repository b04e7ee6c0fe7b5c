#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bash_completion.sh - tools/completion/xen-uniprof.bash as bash-completion
# runs it: every option of each --help is offered (a new option the
# completion misses fails here), option values, the formats and backends the
# binary lists, domain names from xl or else xenstore (both faked here), and
# files.  Needs bash-completion (skipped without it).
. "${srcdir:-$(dirname "$0")/../..}/tests/tools/common.sh"

bash_completion=/usr/share/bash-completion/bash_completion
[ -f "$bash_completion" ] || skip "bash-completion is not installed (Debian: apt-get install bash-completion)"
command -v bash >/dev/null 2>&1 || skip "bash is not installed"
[ -f "$srcdir/tools/completion/xen-uniprof.bash" ] ||
    fail "no completion at $srcdir/tools/completion/xen-uniprof.bash"
script=$(cd "$srcdir/tools/completion" && pwd)/xen-uniprof.bash
xu=$(cd "$(dirname "$XU")" && pwd)/$(basename "$XU")
export LC_ALL=C

# Completes LINE (the cursor at its end) as bash would: the words split on
# blanks and "=" (a word of its own, as in bash's COMP_WORDBREAKS), then
# _xen_uniprof called with the COMP_* variables set; prints COMPREPLY.
cat > "$WORK/drive.bash" <<'BASH'
. "$XU_BASH_COMPLETION"
. "$XU_COMPLETION"
if [[ $1 == --spec ]]; then
    complete -p xen-uniprof
    exit
fi
line=$1
words=()
read -r -a toks <<<"$line"
for t in "${toks[@]}"; do
    if [[ $t == *=* ]]; then
        words+=("${t%%=*}" "=")
        [[ ${t#*=} ]] && words+=("${t#*=}")
    else
        words+=("$t")
    fi
done
[[ $line == *' ' ]] && words+=("")
COMP_WORDS=("${words[@]}")
COMP_CWORD=$((${#words[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
COMP_TYPE=9
COMP_KEY=9
cd "$XU_COMP_CWD" || exit 99
PATH=$XU_COMP_PATH
COMPREPLY=()
_xen_uniprof xen-uniprof "${words[COMP_CWORD]}" "${words[COMP_CWORD - 1]}"
((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
exit 0
BASH

# PATH for the completion: $WORK/bin first (xen-uniprof, a fake xl).
comp_path="$WORK/bin:$PATH"
comp_cwd=$WORK
comp() {
    XU_BASH_COMPLETION=$bash_completion XU_COMPLETION=$script \
        XU_COMP_PATH=$comp_path XU_COMP_CWD=$comp_cwd \
        bash "$WORK/drive.bash" "$1" | sort | tr '\n' ' ' | sed 's/ $//'
}
# the words on stdin (one a line or blank-separated), sorted as comp prints them
sorted() {
    tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//'
}
# expect LINE WORDS...: LINE completes to exactly WORDS
expect() {
    line=$1
    shift
    want=$(echo "$@" | sorted)
    got=$(comp "$line")
    [ "$got" = "$want" ] ||
        fail "'$line': completion offers '$got', expected '$want'"
    checks=$((checks + 1))
}
checks=0

# Option lines of a --help: "  -x, --long=ARG  text" or "      --long  text".
help_longs() {
    "$XU" "$@" --help > "$WORK/help"
    # options the text says do not apply (diff's --palette is refused)
    sed -n 's/.*(\(--[a-z][a-z-]*\) does not apply.*/\1/p' "$WORK/help" > "$WORK/na"
    sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' "$WORK/help" |
        grep -vxF -f "$WORK/na" | sorted
}
help_shorts() {
    "$XU" "$@" --help | sed -n 's/^ *\(-[A-Za-z]\), --.*/\1/p' | sorted
}

mkdir -p "$WORK/bin" "$WORK/xs" "$WORK/noxl" "$WORK/fake" "$WORK/broken" "$WORK/files/sub"
for d in bin xs noxl; do
    ln -s "$xu" "$WORK/$d/xen-uniprof"
done
# xl list as xl prints it (needs root on a real dom0)
cat > "$WORK/bin/xl" <<'XL'
#!/bin/sh
[ "$1" = list ] || exit 1
printf '%s\n' \
    'Name                                        ID   Mem VCPUs	State	Time(s)' \
    'Domain-0                                     0  2048     2     r-----     301.2' \
    'ratio-pv                                     3   128     1     -b----       4.0' \
    'web1                                         7   512     2     -b----      12.5'
XL
# xl refusing (not root), and xenstore answering
cat > "$WORK/xs/xl" <<'XL'
#!/bin/sh
echo "xl: permission denied" >&2
exit 1
XL
cat > "$WORK/xs/xenstore-list" <<'XS'
#!/bin/sh
[ "$1" = /local/domain ] || exit 1
printf '0\n4\n9\n'
XS
cat > "$WORK/xs/xenstore-read" <<'XS'
#!/bin/sh
case $1 in
/local/domain/0/name) echo Domain-0 ;;
/local/domain/4/name) echo xs-guest ;;
/local/domain/9/name) echo web2 ;;
*) echo "xenstore-read: couldn't read path $1" >&2; exit 1 ;;
esac
XS
cp "$WORK/xs/xenstore-list" "$WORK/xs/xenstore-read" "$WORK/noxl/"
# a build that lists other formats and backends: what it prints is offered
cat > "$WORK/fake/xen-uniprof" <<'FAKE'
#!/bin/sh
printf '%s\n' 'Usage: xen-uniprof [OPTIONS] DOMAIN' '' 'Backends built: onlyone.' '' \
    'Output formats (-f, or chosen by the output file'"'"'s extension):' \
    '  zzfmt       .zz                    a format of this build only' \
    '  yyfmt       .yy                    another' '' 'Exit status: 0 written'
FAKE
# a binary that cannot answer: the completion's own lists
printf '#!/bin/sh\nexit 1\n' > "$WORK/broken/xen-uniprof"
chmod +x "$WORK"/*/xl "$WORK"/*/xenstore-* "$WORK/fake/xen-uniprof" "$WORK/broken/xen-uniprof"
: > "$WORK/files/out.svg"
: > "$WORK/files/prof.folded"

# registered for the command, with our function
spec=$(XU_BASH_COMPLETION=$bash_completion XU_COMPLETION=$script bash "$WORK/drive.bash" --spec 2>&1) || true
case $spec in
*" -F _xen_uniprof xen-uniprof") ;;
*) fail "complete -p xen-uniprof: '$spec'" ;;
esac

# every option of each --help, for its subcommand
longs=$(help_longs)
shorts=$(help_shorts)
if [ -z "$longs" ] || [ -z "$shorts" ]; then
    fail "no options parsed from $XU --help"
fi
expect "xen-uniprof --" "$longs"
expect "xen-uniprof -" "$shorts $longs"
for sub in convert diff top stack; do
    expect "xen-uniprof $sub --" "$(help_longs $sub)"
    expect "xen-uniprof $sub -" "$(help_shorts $sub) $(help_longs $sub)"
done
expect "xen-uniprof --st" "$(echo "$longs" | tr ' ' '\n' | grep '^--st')"

# option values: the formats and backends of this build, as it lists them
formats=$("$XU" --help | sed -n '/^Output formats/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p' | sorted)
backends=$("$XU" --help | sed -n 's/^Backends built: \(.*\)\.$/\1/p' | tr -d ' ' | tr ',' '\n' | sorted)
[ -n "$formats" ] || fail "no formats parsed from $XU --help"
[ -n "$backends" ] || fail "no backends parsed from $XU --help"
expect "xen-uniprof -f " "$formats"
expect "xen-uniprof --format " "$formats"
expect "xen-uniprof --format=" "$formats"
expect "xen-uniprof --format=s" "$(echo "$formats" | tr ' ' '\n' | grep '^s')"
expect "xen-uniprof -vf " "$formats"
expect "xen-uniprof convert -f " "$formats"
expect "xen-uniprof --backend " "$backends"
expect "xen-uniprof --backend=" "$backends"
expect "xen-uniprof --unwind " "auto fp cfi orc ehabi"
expect "xen-uniprof --unwind=c" "cfi"
expect "xen-uniprof --unwind=e" "ehabi"
expect "xen-uniprof --state " "all oncpu offcpu split"
expect "xen-uniprof diff --state=o" "oncpu offcpu"
expect "xen-uniprof --weight " "samples cpu"
expect "xen-uniprof convert --palette=" "hash origin"
expect "xen-uniprof convert -i " "raw folded auto"
expect "xen-uniprof diff --input-format=" "raw folded auto"
# numbers and free text: nothing to offer
for opt in "-F " "-T " "--samples " "--max-depth=" "--width " "--min-width=" "--jitter " "--roots="; do
    expect "xen-uniprof $opt" ""
done

# subcommands and domain names (from the fake xl; never Domain-0)
expect "xen-uniprof c" "convert"
expect "xen-uniprof r" "ratio-pv"
expect "xen-uniprof " "convert diff stack top ratio-pv web1"
expect "xen-uniprof -F 99 -T 2 " "ratio-pv web1"
expect "xen-uniprof -o out.svg w" "web1"
expect "xen-uniprof -- " "ratio-pv web1"
expect "xen-uniprof t" "top"
expect "xen-uniprof s" "stack"
expect "xen-uniprof top " "ratio-pv web1"
expect "xen-uniprof top -b -n 5 -d 0.5 r" "ratio-pv"
expect "xen-uniprof top --sort " "self total"
expect "xen-uniprof top -s t" "total"
expect "xen-uniprof top --backend=" "$backends"
expect "xen-uniprof top --unwind=" "auto fp cfi orc ehabi"
expect "xen-uniprof top ratio-pv " ""
expect "xen-uniprof stack " "ratio-pv web1"
expect "xen-uniprof stack --format " "json text"
expect "xen-uniprof stack --unwind=" "auto fp cfi orc ehabi"
expect "xen-uniprof stack --core core.1 " ""
# one DOMAIN; none with --create
expect "xen-uniprof web1 " ""
expect "xen-uniprof --create guest.cfg " ""
# none with --all either, for a recording or top
expect "xen-uniprof --all -o dir " ""
expect "xen-uniprof top --all " ""
expect "xen-uniprof top --a" "--all"
# xl refusing, then xl missing altogether: the names come from xenstore
comp_path="$WORK/xs:$PATH"
expect "xen-uniprof " "convert diff stack top xs-guest web2"
comp_path="$WORK/noxl"
expect "xen-uniprof x" "xs-guest"
comp_path="$WORK/bin:$PATH"

# files
comp_cwd=$WORK/files
expect "xen-uniprof -o " "out.svg prof.folded sub"
expect "xen-uniprof --output=o" "out.svg"
expect "xen-uniprof -e p" "prof.folded"
expect "xen-uniprof --stats " "out.svg prof.folded sub"
expect "xen-uniprof --create=p" "prof.folded"
expect "xen-uniprof convert p" "prof.folded"
expect "xen-uniprof convert prof.folded " ""
expect "xen-uniprof diff prof.folded o" "out.svg"
expect "xen-uniprof diff prof.folded out.svg " ""
comp_cwd=$WORK

# the formats and backends are the binary's own, not a copy of today's
comp_path="$WORK/fake:$PATH"
expect "xen-uniprof -f " "zzfmt yyfmt"
expect "xen-uniprof --backend=" "onlyone"
comp_path="$WORK/broken:$PATH"
expect "xen-uniprof -f " "raw folded svg report pprof speedscope"
expect "xen-uniprof --backend " "xencall xc"

echo "bash completion: $checks completions as expected"
