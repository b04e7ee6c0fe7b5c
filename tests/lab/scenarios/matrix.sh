# SPDX-License-Identifier: GPL-2.0-only
# The Xen-version matrix (tests/lab/run --xen 4.14 / 4.20, scripts/test-xen-versions --lab):
# the ratio and nested guests, PV and PVH, judged like profiles.sh
# (tests/lab/judges/profiles.py), by the build made for that Xen: ratio with both
# backends (what differs between Xen versions is the backends' interfaces), nested with
# xencall only (its checks are of the unwinding, which no backend changes).
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

for type in pv pvh; do
    for prog in ratio nested; do
        guest_up $prog-$type
        backends="xencall xc"
        [ $prog = nested ] && backends=xencall
        for backend in $backends; do
            run $prog-$type-$backend \
                xen-uniprof $prog-$type -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
                    -o /out/$prog-$type-$backend.folded \
                    --stats /out/$prog-$type-$backend.stats.json \
                    --elf /guests/$prog-$type.elf --backend $backend
        done
        guest_down $prog-$type
    done
done
