# SPDX-License-Identifier: GPL-2.0-only
# scripts/lib/private-apt.sh: sourced (bash), never run.  A private apt for one Debian suite,
# so that a Debian 12 host can download another release's packages without touching its own
# apt configuration: sources, lists, cache and an empty dpkg status all live under one
# directory, and `apt-get download` + `dpkg -x` then unpack packages anywhere.
#
#   private_apt_init STATE_DIR SUITE [ARCH]   sets the array PRIVATE_APT (options for
#                                      apt-get and apt-cache) and runs `apt-get update` into
#                                      STATE_DIR; ARCH (default amd64) is the only Debian
#                                      architecture it sees (arm64 for the arm64 lab and the
#                                      aarch64 cross sysroot: no dpkg --add-architecture needed)
#
# Env: DEBIAN_MIRROR (default http://deb.debian.org/debian), SANDBOX_USER (see below).
# Callers define log().

PRIVATE_APT_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

private_apt_init() {
    local a=$1 suite=$2 arch=${3:-amd64} mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
    # apt drops to the _apt user to fetch and verify, and _apt cannot write into this
    # private state directory, which belongs to whoever runs the script (the failure then
    # reads as a misleading "gpgv ... not installed").  So apt stays the calling user
    # unless told otherwise (SANDBOX_USER=_apt, with a directory that _apt may write).
    local user=${SANDBOX_USER:-$(id -un)}

    [ -r "$PRIVATE_APT_KEYRING" ] || {
        log "$PRIVATE_APT_KEYRING missing: install Debian's debian-archive-keyring"; return 2; }
    mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/etc/preferences.d"
    echo "deb [signed-by=$PRIVATE_APT_KEYRING] $mirror $suite main" > "$a/sources.list"
    : > "$a/status"
    PRIVATE_APT=(-o "Dir::Etc::SourceList=$a/sources.list" -o Dir::Etc::SourceParts=/dev/null
                 -o "Dir::Etc::Preferences=$a/etc/preferences"
                 -o "Dir::Etc::PreferencesParts=$a/etc/preferences.d"
                 -o "Dir::State=$a" -o "Dir::State::Lists=$a/lists"
                 -o "Dir::State::status=$a/status" -o "Dir::Cache=$a/cache"
                 -o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
                 -o Debug::NoLocking=1 -o quiet=1 -o "APT::Sandbox::User=$user")
    log "apt-get update ($suite $arch, private state in $a)"
    apt-get "${PRIVATE_APT[@]}" update > "$a/update.log" 2>&1 || {
        cat "$a/update.log" >&2; log "apt-get update for $suite failed"; return 1; }
}

# private_apt_newer_glibc: does the suite of private_apt_init carry a newer glibc than the
# host's?  Then its binaries need its libc6 (Xen 4.20's libraries: GLIBC_2.38+ against
# Debian 12's 2.36).  Sets PRIVATE_APT_GLIBC to "SUITE_VERSION > HOST_VERSION" for logs.
private_apt_newer_glibc() {
    local host suite
    host=$(dpkg-query -W -f='${Version}' libc6 2>/dev/null | sed 's/-.*//')
    suite=$(apt-cache "${PRIVATE_APT[@]}" show libc6 2>/dev/null |
            awk '/^Version:/ {print $2; exit}' | sed 's/-.*//')
    PRIVATE_APT_GLIBC="$suite > $host"
    [ -n "$suite" ] && dpkg --compare-versions "$suite" gt "$host"
}
