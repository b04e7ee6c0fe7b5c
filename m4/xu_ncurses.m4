# SPDX-License-Identifier: GPL-2.0-only
dnl XU_WITH_NCURSES: the full-screen view of `xen-uniprof top`, with ncurses
dnl (Debian's libncurses-dev).  --with-ncurses=auto|yes|no; auto uses it
dnl when found, and without it top prints plain text snapshots only; yes
dnl fails configure when it is missing.  pkg-config's ncursesw first, else
dnl ncurses.  Sets have_ncurses, NCURSES_CFLAGS, NCURSES_LIBS, the define
dnl and the AM conditional HAVE_NCURSES.
AC_DEFUN([XU_WITH_NCURSES], [
  AC_ARG_WITH([ncurses],
    [AS_HELP_STRING([--with-ncurses=auto|yes|no],
      [the full-screen view of xen-uniprof top (default: auto)])],
    [], [with_ncurses=auto])
  have_ncurses=no
  AS_IF([test "x$with_ncurses" != xno], [
    PKG_CHECK_MODULES([NCURSES], [ncursesw], [have_ncurses=yes], [
      PKG_CHECK_MODULES([NCURSES_NARROW], [ncurses], [
        have_ncurses=yes
        NCURSES_CFLAGS=$NCURSES_NARROW_CFLAGS
        NCURSES_LIBS=$NCURSES_NARROW_LIBS
      ], [have_ncurses=no])
    ])
    AS_IF([test "x$have_ncurses$with_ncurses" = xnoyes],
      [AC_MSG_ERROR([--with-ncurses=yes but pkg-config finds neither ncursesw nor ncurses: install Debian's libncurses-dev])])
  ])
  AS_IF([test "x$have_ncurses" = xyes],
    [AC_DEFINE([HAVE_NCURSES], [1], [xen-uniprof top has its full-screen view (ncurses)])])
  AC_SUBST([NCURSES_CFLAGS])
  AC_SUBST([NCURSES_LIBS])
  AM_CONDITIONAL([HAVE_NCURSES], [test "x$have_ncurses" = xyes])
])
