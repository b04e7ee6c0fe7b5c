# SPDX-License-Identifier: GPL-2.0-only
dnl XU_WITH_XEN_PREFIX: --with-xen=DIR builds against the Xen staged in DIR
dnl (a sysroot holding usr/include and usr/lib/<triplet>, as dpkg -x leaves
dnl it).  Only DIR's pkg-config files are used, so a build can never mix the
dnl system's Xen headers with another Xen's libraries.
AC_DEFUN([XU_WITH_XEN_PREFIX], [
  AC_ARG_WITH([xen],
    [AS_HELP_STRING([--with-xen=DIR],
      [build against the Xen headers and libraries staged in DIR (a sysroot)])],
    [], [with_xen=])
  AS_IF([test -n "$with_xen"], [
    AS_IF([test -d "$with_xen"], [],
      [AC_MSG_ERROR([--with-xen=$with_xen: no such directory])])
    with_xen=`cd "$with_xen" && pwd`
    dnl Debian's multiarch directory of the dom0 being built for (an aarch64
    dnl cross build stages arm64 packages: scripts/xen-sysroot --arch arm64).
    AS_CASE([$host_cpu], [aarch64], [xu_xen_triplet=aarch64-linux-gnu],
      [xu_xen_triplet=x86_64-linux-gnu])
    xu_pc=
    for d in usr/lib/$xu_xen_triplet/pkgconfig usr/lib/pkgconfig usr/lib64/pkgconfig usr/share/pkgconfig lib/pkgconfig; do
      AS_IF([test -d "$with_xen/$d"], [xu_pc="$xu_pc${xu_pc:+:}$with_xen/$d"])
    done
    AS_IF([test -z "$xu_pc"],
      [AC_MSG_ERROR([--with-xen=$with_xen holds no pkg-config directory (expected usr/lib/$xu_xen_triplet/pkgconfig)])])
    dnl The system's directories follow DIR's (below): without Xen's own .pc
    dnl files in DIR the host's Xen would be used silently.
    xu_has_xen_pc=no
    for d in `echo "$xu_pc" | tr ':' ' '`; do
      AS_IF([test -f "$d/xencontrol.pc" || test -f "$d/xencall.pc"], [xu_has_xen_pc=yes])
    done
    AS_IF([test "x$xu_has_xen_pc" = xno],
      [AC_MSG_ERROR([--with-xen=$with_xen holds no Xen pkg-config files (xencontrol.pc): stage a Xen there with scripts/xen-sysroot])])
    dnl Xen's and the system's .pc files both say prefix=/usr: the sysroot
    dnl rewrites their -I/-L into DIR.  The system's pkg-config directories
    dnl come after DIR's, only so that non-Xen modules a Xen .pc file
    dnl requires (zlib for xenhypfs in 4.14, yajl) resolve: every Xen module
    dnl is found in DIR first.
    xu_sys_pc=`$PKG_CONFIG --variable pc_path pkg-config 2>/dev/null`
    dnl Cross: the build machine's .pc files describe its own architecture's
    dnl libraries; the sysroot must bring yajl and zlib itself.
    AS_IF([test "x$cross_compiling" = xyes], [xu_sys_pc=])
    xen_pc_libdir=$xu_pc${xu_sys_pc:+:}$xu_sys_pc
    AC_SUBST([xen_pc_libdir])
  ])
])

dnl XU_XEN_PKG(VAR, MODULES): pkg-config lookup of Xen libraries, inside
dnl --with-xen's sysroot when one was given.
AC_DEFUN([XU_XEN_PKG], [
  xu_save_pcp=$PKG_CONFIG_PATH; xu_save_pcs=$PKG_CONFIG_SYSROOT_DIR; xu_save_pcl=$PKG_CONFIG_LIBDIR
  AS_IF([test -n "$with_xen"], [
    PKG_CONFIG_LIBDIR=$xen_pc_libdir; PKG_CONFIG_PATH=; PKG_CONFIG_SYSROOT_DIR=$with_xen
    export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
  ])
  PKG_CHECK_MODULES([$1], [$2], [xu_pkg_ok=yes], [xu_pkg_ok=no])
  PKG_CONFIG_PATH=$xu_save_pcp; PKG_CONFIG_SYSROOT_DIR=$xu_save_pcs; PKG_CONFIG_LIBDIR=$xu_save_pcl
  AS_IF([test -z "$PKG_CONFIG_SYSROOT_DIR"], [unset PKG_CONFIG_SYSROOT_DIR])
  AS_IF([test -z "$PKG_CONFIG_LIBDIR"], [unset PKG_CONFIG_LIBDIR])
  dnl Staged libraries are not in the loader's path: bake the sysroot's
  dnl library directory into the test programs' link line.
  dnl Their headers are then included as system headers, as /usr/include's
  dnl are in a normal build: warnings in Xen's own inline code (libxl_utils.h
  dnl of 4.20 compares int with uint32_t) must not fail --enable-werror.
  AS_IF([test "x$xu_pkg_ok" = xyes && test -n "$with_xen"], [
    $1_LIBS="-L$with_xen/usr/lib/$xu_xen_triplet -Wl,-rpath-link,$with_xen/usr/lib/$xu_xen_triplet $$1_LIBS"
    $1_CFLAGS=`echo " $$1_CFLAGS" | sed 's/ -I/ -isystem /g'`
  ])
])

dnl XU_CHECK_XEN_BACKENDS: --with-backend=auto|xencall|xc|none.
dnl auto builds every backend whose libraries and headers are present (and
dnl fails when there is none); naming one makes it required.
AC_DEFUN([XU_CHECK_XEN_BACKENDS], [
  AC_ARG_WITH([backend],
    [AS_HELP_STRING([--with-backend=auto|xencall|xc|none],
      [Xen backends to build: xencall = libxencall + libxenforeignmemory (Xen >= 4.7),
       xc = libxenctrl (the Xen 4.8-era API), auto = every one available,
       none = no Xen access (offline convert only) (default: auto)])],
    [], [with_backend=auto])
  AS_CASE([$with_backend],
    [auto|xencall|xc|none], [],
    [AC_MSG_ERROR([--with-backend=$with_backend: expected auto, xencall, xc or none])])

  have_backend_xencall=no
  have_backend_xc=no
  have_xenstore=no
  have_xlplugin=no
  XU_XEN_VERSION=
  XU_DEFAULT_BACKEND=

  AS_IF([test "x$with_backend" != xnone], [
    XU_XEN_PKG([XENCTRL], [xencontrol])
    AS_IF([test "x$xu_pkg_ok" = xyes && test -n "$with_xen"], [
      XU_XEN_VERSION=`PKG_CONFIG_SYSROOT_DIR=$with_xen PKG_CONFIG_LIBDIR=$xen_pc_libdir $PKG_CONFIG --modversion xencontrol 2>/dev/null`
    ], [test "x$xu_pkg_ok" = xyes], [
      XU_XEN_VERSION=`$PKG_CONFIG --modversion xencontrol 2>/dev/null`
    ])
    have_xenctrl=$xu_pkg_ok
    XU_XEN_PKG([XENCALL], [xencall xenforeignmemory xentoollog])
    have_xencall_libs=$xu_pkg_ok
    XU_XEN_PKG([XENSTORE], [xenstore])
    have_xenstore=$xu_pkg_ok
    dnl xl-plugin: libxl, and libxlutil to read xl config files (--create).
    XU_XEN_PKG([XENLIGHT], [xenlight xlutil xentoollog])
    have_xenlight=$xu_pkg_ok
    dnl The plugin pins libxl's API at 4.8's.  libxl.h names the versions it
    dnl accepts, and 4.8's own stops at 0x040500: there the pin is left out, and
    dnl libxl.h's default, its own 4.8 API, is the same.
    AS_IF([test "x$have_xenlight" = xyes], [
      xu_save_CPPFLAGS=$CPPFLAGS
      CPPFLAGS="$CPPFLAGS $XENLIGHT_CFLAGS"
      AC_CACHE_CHECK([whether libxl.h accepts LIBXL_API_VERSION 0x040800],
        [xu_cv_libxl_api_040800], [
        AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#define LIBXL_API_VERSION 0x040800
#include <libxl.h>
]], [])], [xu_cv_libxl_api_040800=yes], [xu_cv_libxl_api_040800=no])])
      AS_IF([test "x$xu_cv_libxl_api_040800" = xyes],
        [AC_DEFINE([HAVE_LIBXL_API_VERSION_040800], [1],
          [libxl.h accepts LIBXL_API_VERSION 0x040800 (Xen 4.9 and later)])])
      CPPFLAGS=$xu_save_CPPFLAGS
    ])

    dnl A staged Xen from a newer Debian than the host (4.20 from trixie on
    dnl bookworm) has libraries that need a newer glibc (GLIBC_2.38 symbol
    dnl versions): the host's linker cannot resolve them.  Our own code needs
    dnl only the host's glibc, which every newer one provides, so linking
    dnl with --allow-shlib-undefined gives binaries that run where that Xen's
    dnl libraries run: in its own dom0, with its own libc (scripts/xen-sysroot
    dnl stages that libc too, for the lab and for make check through
    dnl scripts/xen-sysroot-exec).
    xu_xen_foreign_libc=no
    dnl The staged libraries' own dependencies (libxenctrl needs
    dnl libxentoolcore...) must resolve in DIR too, never in the host's Xen.
    AS_IF([test -n "$with_xen"],
      [LDFLAGS="$LDFLAGS -Wl,-rpath-link,$with_xen/usr/lib/$xu_xen_triplet -Wl,-rpath-link,$with_xen/lib/$xu_xen_triplet"])
    AS_IF([test -n "$with_xen" && test "x$have_xenstore" = xyes], [
      xu_save_LIBS=$LIBS
      LIBS="$XENSTORE_LIBS $LIBS"
      AC_MSG_CHECKING([whether the staged Xen's libraries link with the host's C library])
      AC_LINK_IFELSE([AC_LANG_CALL([], [xs_open])], [AC_MSG_RESULT([yes])], [
        AC_MSG_RESULT([no])
        LIBS="$XENSTORE_LIBS -Wl,--allow-shlib-undefined $xu_save_LIBS"
        AC_MSG_CHECKING([whether they link with -Wl,--allow-shlib-undefined])
        AC_LINK_IFELSE([AC_LANG_CALL([], [xs_open])], [
          AC_MSG_RESULT([yes])
          xu_xen_foreign_libc=yes
          dnl In LDFLAGS: libtool drops -Wl options that reach a
          dnl program only through a convenience library's LIBADD.
          LDFLAGS="$LDFLAGS -Wl,--allow-shlib-undefined"
          AC_MSG_WARN([Xen's libraries in $with_xen need a newer C library than this host's: the programs built run only with that Xen's libc (in its dom0, or through scripts/xen-sysroot-exec $with_xen)])
        ], [
          AC_MSG_RESULT([no])
          AC_MSG_ERROR([cannot link against the Xen libraries in $with_xen (see config.log)])
        ])
      ])
      LIBS=$xu_save_LIBS
    ])
    XU_XEN_FOREIGN_LIBC=$xu_xen_foreign_libc
    AC_SUBST([XU_XEN_FOREIGN_LIBC])

    dnl The domctl/sysctl headers are tools-only and must come from the same
    dnl Xen as the libraries: the interface version is compiled in.
    xu_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $XENCTRL_CFLAGS $XENCALL_CFLAGS -D__XEN_TOOLS__"
    AC_CACHE_CHECK([for Xen tools headers (xen/domctl.h)], [xu_cv_domctl_h], [
      AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include <stdint.h>
#include <xen/xen.h>
#include <xen/domctl.h>
#include <xen/sysctl.h>
#include <xen/version.h>
#include <xen/hvm/save.h>
]], [[ struct xen_domctl d; d.cmd = XEN_DOMCTL_getvcpucontext;
       d.interface_version = XEN_DOMCTL_INTERFACE_VERSION; (void)d; ]])],
        [xu_cv_domctl_h=yes], [xu_cv_domctl_h=no])])
    dnl Fields that came and went across Xen releases (the backends use
    dnl them only when these checks find them).
    AS_IF([test "x$xu_cv_domctl_h" = xyes], [
      AC_CHECK_MEMBERS([struct xen_domctl_getdomaininfo.arch_config,
                        struct xen_domctl_hvmcontext_partial.bufsz],
                       [], [], [[
#include <stdint.h>
#include <xen/xen.h>
#include <xen/domctl.h>
]])
    ])
    AS_IF([test "x$have_xenctrl" = xyes], [
      xu_save_LIBS=$LIBS
      LIBS="$XENCTRL_LIBS $LIBS"
      AC_CHECK_DECLS([xc_domain_getinfo_single, xc_domain_getinfo,
                      xc_domain_hvm_getcontext_partial],
                     [], [], [[#include <xenctrl.h>]])
      AC_CHECK_MEMBERS([xc_dominfo_t.arch_config], [], [], [[#include <xenctrl.h>]])
      dnl Since Xen 4.7 the foreign-mapping calls of libxc are behind this
      dnl macro; before, they were always declared.
      AC_CHECK_DECLS([xc_map_foreign_range], [], [], [[
#define XC_WANT_COMPAT_MAP_FOREIGN_API 1
#include <xenctrl.h>
]])
      LIBS=$xu_save_LIBS
    ])
    CPPFLAGS=$xu_save_CPPFLAGS

    AS_IF([test "x$have_xencall_libs$xu_cv_domctl_h$have_xenctrl" = xyesyesyes],
      [have_backend_xencall=yes])
    AS_IF([test "x$have_xenctrl" = xyes], [have_backend_xc=yes])

    AS_CASE([$with_backend],
      [xencall], [
        AS_IF([test "x$have_backend_xencall" = xno],
          [AC_MSG_ERROR([--with-backend=xencall needs libxencall, libxenforeignmemory, libxentoollog and Xen's tools headers (xen/domctl.h): install Debian's libxen-dev, or point --with-xen at a staged Xen])])
        have_backend_xc=no],
      [xc], [
        AS_IF([test "x$have_backend_xc" = xno],
          [AC_MSG_ERROR([--with-backend=xc needs libxenctrl: install Debian's libxen-dev, or point --with-xen at a staged Xen])])
        have_backend_xencall=no],
      [auto], [
        AS_IF([test "x$have_backend_xencall$have_backend_xc" = xnono],
          [AC_MSG_ERROR([no Xen backend can be built: install Debian's libxen-dev (libxencall, libxenforeignmemory, libxenctrl), point --with-xen at a staged Xen, or pass --with-backend=none for an offline-only build])])])
    AS_IF([test "x$have_xenstore" = xno],
      [AC_MSG_ERROR([libxenstore not found (needed to find domains by name): install Debian's libxen-dev])])
    AS_IF([test "x$have_backend_xencall" = xyes], [XU_DEFAULT_BACKEND=xencall],
          [XU_DEFAULT_BACKEND=xc])
    AS_IF([test "x$have_xenlight" = xyes], [have_xlplugin=yes])
  ])

  AS_IF([test "x$have_backend_xencall" = xyes],
    [AC_DEFINE([HAVE_BACKEND_XENCALL], [1], [libxencall backend is built])])
  AS_IF([test "x$have_backend_xc" = xyes],
    [AC_DEFINE([HAVE_BACKEND_XC], [1], [libxc backend is built])])
  AS_IF([test "x$have_xenstore" = xyes],
    [AC_DEFINE([HAVE_XENSTORE], [1], [libxenstore is available])])
  AC_DEFINE_UNQUOTED([XU_DEFAULT_BACKEND], ["$XU_DEFAULT_BACKEND"], [backend used when none is asked for])
  AC_DEFINE_UNQUOTED([XU_BUILT_XEN_VERSION], ["${XU_XEN_VERSION:-none}"], [Xen version of the headers this build used])
  AM_CONDITIONAL([BACKEND_XENCALL], [test "x$have_backend_xencall" = xyes])
  AM_CONDITIONAL([BACKEND_XC], [test "x$have_backend_xc" = xyes])
  AM_CONDITIONAL([BACKEND_XEN], [test "x$have_backend_xencall$have_backend_xc" != xnono])
  AM_CONDITIONAL([HAVE_XENSTORE], [test "x$have_xenstore" = xyes])
  AM_CONDITIONAL([BUILD_XLPLUGIN], [test "x$have_xlplugin" = xyes])
  AC_SUBST([XU_XEN_VERSION])
])
