# SPDX-License-Identifier: GPL-2.0-only
# xen-uniprof top, the live view, judged by tests/lab/judges/top.py:
#   top-ratio-TYPE        `xen-uniprof top -b -n 5` on the ratio guest, found by name (no
#                         --elf): five snapshots on stdout, exit 0, the last one showing
#                         function_1, function_2 and function_3 at the designed 10/30/60 %
#                         self shares within 3 points, the guest running afterwards.
#                         Windows of 10 s at $LAB_SHARE_FREQ (about 5,000 samples each):
#                         top's default, 1 s at 99 Hz, is 99 samples, whose shares scatter
#                         by 5 points.  The guest's own split is measured over the last
#                         window (TRUTH_WINDOW, from 40 s to 50 s) and reported beside it.
#   top-sigint-ratio-TYPE `xen-uniprof top -b` with no -n, SIGINT after 4 s: exit 0, at
#                         least one snapshot, the guest running afterwards.
# One guest at a time, as in profiles.sh.
for type in ${LAB_GUEST_TYPES:-pv pvh}; do
    guest_up ratio-$type top-ratio-$type top-sigint-ratio-$type
    # the guest is the command's last word, not its second (run's default)
    RUN_GUEST=ratio-$type
    TRUTH_WINDOW="40 10"
    run top-ratio-$type \
        xen-uniprof top -b -n 5 -d 10 -F "$LAB_SHARE_FREQ" ratio-$type
    TRUTH_WINDOW=
    run top-sigint-ratio-$type \
        sh -c 'xen-uniprof top -b -d 1 "$0" & p=$!; sleep 4; kill -INT $p; wait $p' ratio-$type
    RUN_GUEST=
    guest_down ratio-$type
done
# Every guest at once, two guests up (ratio-pv, nested-pv), each found by name:
#   top-all-two      `xen-uniprof top --all -b -n 3 -d 10`: exit 0, three snapshots, the
#                    last one with both domains' header lines and each domain's own
#                    functions (ratio-pv:function_1..3, nested-pv:function_4 and _5,
#                    none of one under the other's name), ratio-pv's split within its
#                    own samples near 10/30/60 %, the guest running afterwards.
#   top-all-record   `xen-uniprof --all -o DIR -f folded -T 10 --stats .stats.json`:
#                    exit 0, DIR/ratio-pv.folded and DIR/nested-pv.folded each with its
#                    own functions, and a statistics file beside each.
#   top-all-destroy  `xen-uniprof top --all -b -n 8 -d 2`, nested-pv destroyed 7 s in:
#                    exit 0, one line "domain N (nested-pv) ended" on stderr, nested-pv
#                    shown before and not in the last snapshot, ratio-pv in every
#                    later one, and running afterwards.
guest_up ratio-pv top-all-two top-all-record top-all-destroy
guest_up nested-pv top-all-two top-all-record top-all-destroy
RUN_GUEST=ratio-pv
run top-all-two xen-uniprof top --all -b -n 3 -d 10
run top-all-record xen-uniprof --all -o /out/top-all-record.d -f folded -T 10 \
    --stats .stats.json
run top-all-destroy \
    sh -c 'xen-uniprof top --all -b -n 8 -d 2 & p=$!; sleep 7; xl destroy nested-pv; wait $p'
RUN_GUEST=
guest_down nested-pv
guest_down ratio-pv
