# SPDX-License-Identifier: GPL-2.0-only
# 32-bit x86 PV guests (tests/guests/x86_32pv: PAE, ratio built -m32), for a Xen built with
# PV32: of the lab's, only the source-built 4.8 (tests/lab/README.md, "32-bit guests";
# Debian's 4.14, 4.17 and 4.20 refuse them, which scenarios/x86_32.sh checks).
#   create-x86_32-pv                 xl create boots it (judges/x86_32.py)
#   ratio-x86_32-pv-xenctx           xenctx reads the 32-bit PV vCPU and its EBP chain
#   ratio[-nofp]-x86_32-pv-xencall   profiles.py's checks, the -nofp build with --unwind=cfi
#   ratio-nofp-x86_32-pv-fp-control  the -nofp build really has no frame pointers
#   tests/lab/run --xen 4.8 --build-dir BUILD_4_8 --scenarios x86_32-pv
SAMPLES=20000   # see judges/profiles.py: MIN_SAMPLES
T=${LAB_SECONDS:-$LAB_MAX_SECONDS}

if selected create-x86_32-pv; then
    echo "xl create /etc/xen/ratio-x86_32-pv.cfg" > /out/create-x86_32-pv.cmd
    echo "@@LAB run create-x86_32-pv"
    xl create /etc/xen/ratio-x86_32-pv.cfg > /out/create-x86_32-pv.stderr 2>&1
    echo $? > /out/create-x86_32-pv.rc
    sleep 3
    xl list ratio-x86_32-pv > /out/create-x86_32-pv.xllist 2>&1
    cp /var/log/xen/console/guest-ratio-x86_32-pv.log /out/create-x86_32-pv.console \
        2>/dev/null
    echo "@@LAB done create-x86_32-pv rc=$(cat /out/create-x86_32-pv.rc)"
    guest_down ratio-x86_32-pv
fi

guest=ratio-x86_32-pv
guest_up $guest $guest-xenctx $guest-xencall
xenctx_samples $guest-xenctx $guest 3
run $guest-xencall \
    xen-uniprof $guest -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES \
        -o /out/$guest-xencall.folded --stats /out/$guest-xencall.stats.json \
        --elf /guests/$guest.elf --backend xencall
guest_down $guest

guest=ratio-nofp-x86_32-pv
guest_up $guest $guest-xencall $guest-fp-control
run $guest-xencall \
    xen-uniprof $guest -F "$LAB_SHARE_FREQ" -T "$T" --samples $SAMPLES --unwind=cfi \
        -o /out/$guest-xencall.folded --stats /out/$guest-xencall.stats.json \
        --elf /guests/$guest.elf --backend xencall
run $guest-fp-control \
    xen-uniprof $guest -F "$LAB_FREQ" -T "$T" --samples 500 --unwind=fp -q \
        -o /out/$guest-fp-control.folded --elf /guests/$guest.elf
guest_down $guest
