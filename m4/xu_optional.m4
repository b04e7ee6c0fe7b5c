# SPDX-License-Identifier: GPL-2.0-only
dnl XU_ARG_OPTIONAL_PKG(NAME, VAR, PKG-SPEC, DESCRIPTION)
dnl An optional pkg-config dependency with --with-NAME=auto|yes|no.
dnl auto (the default) uses it when found; yes fails configure when it is
dnl missing; no never looks.  Sets have_NAME, the AM conditional HAVE_VAR,
dnl the define HAVE_VAR, and VAR_CFLAGS/VAR_LIBS.
AC_DEFUN([XU_ARG_OPTIONAL_PKG], [
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1=auto|yes|no], [$4 (default: auto)])],
    [], [with_$1=auto])
  have_$1=no
  AS_IF([test "x$with_$1" != xno], [
    PKG_CHECK_MODULES([$2], [$3], [have_$1=yes], [
      have_$1=no
      AS_IF([test "x$with_$1" = xyes],
        [AC_MSG_ERROR([--with-$1=yes but $3 was not found: $$2_PKG_ERRORS])])
    ])
  ])
  AS_IF([test "x$have_$1" = xyes],
    [AC_DEFINE([HAVE_$2], [1], [$4])])
  AM_CONDITIONAL([HAVE_$2], [test "x$have_$1" = xyes])
])

dnl XU_CHECK_WARNINGS: warnings we keep on, and --enable-werror for CI.
AC_DEFUN([XU_CHECK_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])])
  XU_CFLAGS="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Wformat=2 -Wvla"
  AS_IF([test "x$enable_werror" = xyes], [XU_CFLAGS="$XU_CFLAGS -Werror"])
  AC_SUBST([XU_CFLAGS])
])
