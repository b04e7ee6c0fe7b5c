# SPDX-License-Identifier: GPL-2.0-only
# bash completion for xen-uniprof                          -*- shell-script -*-
#
# Installed as "xen-uniprof" in bash-completion's completions directory, which
# loads it the first time the command is completed.  The options are listed
# here (tests/tools/bash_completion.sh fails when one of --help is missing);
# what varies per build, the output formats and the Xen backends, is asked of
# the binary itself once per shell, with a fixed list when it cannot be run.

# The lists of a build that cannot be asked: every format and backend there is.
_xen_uniprof_static_formats=(raw folded svg report pprof speedscope)
_xen_uniprof_static_backends=(xencall xc)

# Runs a helper command for completion: a prompt must never hang on it (xl
# waits for its lock, xenstored may be gone), and its messages would be
# written over the command line.
_xen_uniprof_run()
{
    if type -P timeout >/dev/null 2>&1; then
        timeout 2 "$@" 2>/dev/null </dev/null
    else
        "$@" 2>/dev/null </dev/null
    fi
}

# Adds to COMPREPLY the words after $1 that start with $1.  Not compgen -W,
# which would expand $ and backquotes in domain names.
_xen_uniprof_add()
{
    local prefix=$1 w
    shift
    for w; do
        [[ $w == "$prefix"* ]] && COMPREPLY+=("$w")
    done
}

# Sets _xen_uniprof_formats and _xen_uniprof_backends for the binary being
# completed ($1, the command word): parsed from its --help once per binary
# and shell, as a build may lack zlib (pprof) or one of the backends.
_xen_uniprof_query()
{
    local path=$1 out line section='' first rest found_formats='' found_backends=''
    local -a formats=() backends=()

    [[ $path == */* ]] || path=$(type -P -- "$path")
    [[ $path ]] || path=$(type -P xen-uniprof)
    if [[ -z $path || ! -x $path ]]; then
        # Nothing to ask (yet): the fixed lists, not cached, so that a binary
        # installed later in this shell is asked.
        _xen_uniprof_formats=("${_xen_uniprof_static_formats[@]}")
        _xen_uniprof_backends=("${_xen_uniprof_static_backends[@]}")
        return
    fi
    [[ $path == /* ]] || path=$PWD/$path
    [[ $path == "${_xen_uniprof_cached_for-}" ]] && return

    if out=$(_xen_uniprof_run "$path" --help); then
        while IFS= read -r line; do
            case $line in
                "Backends built: "*)
                    found_backends=1
                    line=${line#Backends built: }
                    line=${line%.}
                    [[ $line == none ]] ||
                        IFS=', ' read -r -a backends <<<"$line"
                    ;;
                "Output formats"*) section=formats ;;
                "") section= ;;
                "  "[a-z]*)
                    if [[ $section == formats ]]; then
                        read -r first rest <<<"$line"
                        formats+=("$first")
                        found_formats=1
                    fi
                    ;;
            esac
        done <<<"$out"
    fi
    [[ $found_formats ]] || formats=("${_xen_uniprof_static_formats[@]}")
    [[ $found_backends ]] || backends=("${_xen_uniprof_static_backends[@]}")
    _xen_uniprof_formats=("${formats[@]}")
    _xen_uniprof_backends=("${backends[@]}")
    # Cached even when the binary failed: asking again would cost every
    # completion the same wait.
    _xen_uniprof_cached_for=$path
}

# Prints the names of the running guests, one a line, never Domain-0 (dom0
# cannot be profiled).  xl needs root and its lock; xenstore is the fallback
# when xl is missing or refuses.
_xen_uniprof_domains()
{
    local out name id rc

    if out=$(_xen_uniprof_run xl list) && [[ $out ]]; then
        {
            read -r _ # the header line
            while read -r name _; do
                [[ $name && $name != Domain-0 ]] && printf '%s\n' "$name"
            done
        } <<<"$out"
        return
    fi
    out=$(_xen_uniprof_run xenstore-list /local/domain) || return
    for id in $out; do
        [[ $id == 0 ]] && continue
        name=$(_xen_uniprof_run xenstore-read "/local/domain/$id/name")
        rc=$?
        # One that timed out means xenstored does not answer: the others
        # would each wait as long.
        ((rc == 124)) && break
        [[ $rc == 0 && $name && $name != Domain-0 ]] && printf '%s\n' "$name"
    done
}

_xen_uniprof_files()
{
    if declare -F _comp_compgen_filedir >/dev/null; then
        _comp_compgen_filedir
    else
        _filedir
    fi
}

_xen_uniprof()
{
    # comp_args and was_split are set by bash-completion 2.12's initialiser
    # shellcheck disable=SC2034
    local cur prev words cword split=false was_split='' comp_args
    if declare -F _comp_initialize >/dev/null; then
        _comp_initialize -s -- "$@" || return
        [[ $was_split ]] && split=true
    else
        _init_completion -s || return
    fi

    # convert, diff, top and stack only as the first argument, as main() reads them.
    local mode=record start=1
    if ((cword > 1)) && [[ ${words[1]} == convert || ${words[1]} == diff || ${words[1]} == top ||
        ${words[1]} == stack ]]; then
        mode=${words[1]}
        start=2
    fi

    # The options of each mode's --help; the ones that take a value (short
    # ones: those in shortargs) are the ones in the value case below.
    local -a render=(--per-vcpu --title --subtitle --width --min-width
        --inverted --weight --state --no-demangle --no-inline --lines)
    local -a shorts longs
    local shortargs
    case $mode in
        record)
            shorts=(-F -T -o -f -e -v -q -h -V)
            shortargs=FTofe
            longs=(--frequency --jitter --spin --time --samples --output --format --elf
                --backend --max-depth --unwind --roots --no-tasks --stats --create
                --destroy --all "${render[@]}" --palette --verbose --quiet --help
                --version)
            ;;
        convert)
            shorts=(-e -f -o -i -v -q -h)
            shortargs=efoi
            longs=(--elf --format --output --input-format "${render[@]}"
                --palette --verbose --quiet --help)
            ;;
        diff)
            # --palette is refused (a diff is coloured by the change); -f
            # takes svg only and is not in --help, so it is not offered.
            shorts=(-o -e -i -v -q -h)
            shortargs=oeif
            longs=(--output --elf --input-format "${render[@]}" --verbose
                --quiet --help)
            ;;
        top)
            shorts=(-b -n -d -F -s -r -e -v -q -h)
            shortargs=ndFsre
            longs=(--all --batch --iterations --delay --frequency --sort --rows
                --elf --backend --max-depth --unwind --roots --no-demangle --no-tasks
                --verbose --quiet --help)
            ;;
        stack)
            shorts=(-e -n -d -v -q -h)
            shortargs=end
            longs=(--core --elf --iterations --delay --format --backend --max-depth
                --unwind --roots --no-demangle --no-inline --verbose --quiet --help)
            ;;
    esac

    # Walk the words before the cursor: which option waits for its value,
    # how many operands there are, whether --create replaces DOMAIN.
    local i j w c pending='' operands=0 dashdash='' create=''
    for ((i = start; i < cword; i++)); do
        w=${words[i]}
        if [[ $pending ]]; then
            pending=
            continue
        fi
        if [[ $dashdash ]]; then
            ((operands++))
            continue
        fi
        # --create, --all and stack's --core name no DOMAIN
        [[ $w == --create || $w == --create=* || $w == --all || $w == --core ||
            $w == --core=* ]] && create=1
        case $w in
            --) dashdash=1 ;;
            --*=*) ;;
            --frequency | --jitter | --time | --samples | --output | --format | \
                --elf | --backend | --max-depth | --unwind | --roots | --stats | \
                --create | --title | --subtitle | --width | --min-width | \
                --palette | --weight | --state | --input-format | --iterations | \
                --delay | --sort | --rows | --core)
                pending=$w
                ;;
            --*) ;;
            -?*)
                # a bundle like -vf: the first option taking a value takes
                # the rest of the word, or the next word when it ends it
                for ((j = 1; j < ${#w}; j++)); do
                    c=${w:j:1}
                    if [[ $shortargs == *"$c"* ]]; then
                        ((j == ${#w} - 1)) && pending=-$c
                        break
                    fi
                done
                ;;
            *) ((operands++)) ;;
        esac
    done
    [[ $split == true ]] && pending=$prev

    if [[ $pending ]]; then
        case $pending in
            -s | --sort) _xen_uniprof_add "$cur" self total ;;
            -f | --format)
                if [[ $mode == stack ]]; then
                    _xen_uniprof_add "$cur" text json
                elif [[ $mode == diff ]]; then
                    _xen_uniprof_add "$cur" svg
                else
                    _xen_uniprof_query "${words[0]}"
                    _xen_uniprof_add "$cur" "${_xen_uniprof_formats[@]}"
                fi
                ;;
            --backend)
                _xen_uniprof_query "${words[0]}"
                _xen_uniprof_add "$cur" "${_xen_uniprof_backends[@]}"
                ;;
            --unwind) _xen_uniprof_add "$cur" auto fp cfi orc ehabi ;;
            --weight) _xen_uniprof_add "$cur" samples cpu ;;
            --state) _xen_uniprof_add "$cur" all oncpu offcpu split ;;
            --palette) _xen_uniprof_add "$cur" hash origin ;;
            -i | --input-format) _xen_uniprof_add "$cur" raw folded auto ;;
            -o | --output | -e | --elf | --stats | --create | --core) _xen_uniprof_files ;;
            # numbers (-F, -T, --samples, --max-depth, --width, --min-width,
            # --jitter, -n, -d, -r) and free text (--roots, --title,
            # --subtitle): nothing
        esac
        return 0
    fi

    if [[ $cur == -* && ! $dashdash ]]; then
        if [[ $cur == --* ]]; then
            _xen_uniprof_add "$cur" "${longs[@]}"
        else
            _xen_uniprof_add "$cur" "${shorts[@]}" "${longs[@]}"
        fi
        return 0
    fi

    case $mode in
        record)
            # --create names the domain through its config: no DOMAIN then
            [[ $create ]] && return 0
            ((operands == 0)) || return 0
            ((cword == 1)) && _xen_uniprof_add "$cur" convert diff top stack
            local -a names=()
            local name
            while IFS= read -r name; do
                names+=("$name")
            done < <(_xen_uniprof_domains)
            _xen_uniprof_add "$cur" "${names[@]}"
            ;;
        top | stack)
            [[ $create ]] && return 0
            ((operands == 0)) || return 0
            local -a names=()
            local name
            while IFS= read -r name; do
                names+=("$name")
            done < <(_xen_uniprof_domains)
            _xen_uniprof_add "$cur" "${names[@]}"
            ;;
        convert) ((operands == 0)) && _xen_uniprof_files ;;
        diff) ((operands < 2)) && _xen_uniprof_files ;;
    esac
    return 0
} &&
    complete -F _xen_uniprof xen-uniprof

# ex: filetype=sh
