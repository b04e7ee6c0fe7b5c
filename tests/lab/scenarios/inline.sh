# SPDX-License-Identifier: GPL-2.0-only
# Inline frames and source lines on an optimised guest (tests/guests/inlined.c: ratio's
# three functions inlined into main at -O2, so main is the only physical frame), judged
# by tests/lab/judges/inline.py against the guest's own timing (truth.h):
#   inline-TYPE         20,000 samples by name to a raw trace, then the user's views of
#                       it with convert: as is (inline frames, function_N_[i]), --lines,
#                       --no-inline, and speedscope (file and line of each frame)
#   inline-record-TYPE  3,000 samples by name straight to folded with --lines: the
#                       record path's own symbolising
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

# iview ID TYPE NAME OPTION...: convert ID's raw trace into ID.NAME.out, its status in
# ID.NAME.rc
iview() {
    id=$1 type=$2 name=$3
    shift 3
    xen-uniprof convert --elf "/guests/inlined-$type.elf" "$@" -o "/out/$id.$name.out" \
        "/out/$id.raw" > "/out/$id.$name.stderr" 2>&1
    echo $? > "/out/$id.$name.rc"
}

for type in ${LAB_GUEST_TYPES:-pv pvh}; do
    case $type in pv|pvh) ;; *) continue ;; esac
    guest_up inlined-$type inline-$type inline-record-$type
    run inline-$type \
        xen-uniprof inlined-$type -F "$LAB_SHARE_FREQ" -T "$T" --samples 20000 \
            -o /out/inline-$type.raw --stats /out/inline-$type.stats.json
    if [ -f /out/inline-$type.raw ]; then
        iview inline-$type $type inline -f folded
        iview inline-$type $type lines -f folded --lines
        iview inline-$type $type noinline -f folded --no-inline
        iview inline-$type $type speedscope -f speedscope
    fi
    run inline-record-$type \
        xen-uniprof inlined-$type -F "$LAB_FREQ" -T "$T" --samples 3000 --lines \
            -o /out/inline-record-$type.folded
    guest_down inlined-$type
done
