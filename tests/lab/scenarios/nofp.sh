# Unwinding without frame pointers (DWARF CFI): the ratio and nested guests built with
# -fomit-frame-pointer -fasynchronous-unwind-tables (tests/guests: <prog>-nofp-<type>),
# profiled with --unwind=cfi, judged like their frame-pointer twins in profiles.sh: the
# same shares within 2 points, >= 99 % of samples with the full chain down to _start.
# The unwinder is the same for both backends, so one backend (xencall) is enough here.
SAMPLES=6000
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

for type in pv pvh; do
    for prog in ratio nested; do
        guest=$prog-nofp-$type
        guest_up $guest
        run $guest-xencall \
            xen-uniprof $guest -F "$LAB_FREQ" -T "$T" --samples $SAMPLES --unwind=cfi \
                -o /out/$guest-xencall.folded --stats /out/$guest-xencall.stats.json \
                --elf /guests/$guest.elf --backend xencall
        guest_down $guest
    done
done
