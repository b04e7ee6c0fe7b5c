# SPDX-License-Identifier: GPL-2.0-only
dnl XU_WITH_LIBIBERTY: C++ and Rust demangling through libiberty (Debian's
dnl libiberty-dev: the header libiberty/demangle.h and the static
dnl libiberty.a, so no run-time dependency).  --with-libiberty=auto|yes|no;
dnl auto uses it when found.  libiberty has no pkg-config file: the header
dnl and the callback functions we call are checked directly.  Sets
dnl have_libiberty, LIBIBERTY_LIBS and the define HAVE_LIBIBERTY.
AC_DEFUN([XU_WITH_LIBIBERTY], [
  AC_ARG_WITH([libiberty],
    [AS_HELP_STRING([--with-libiberty=auto|yes|no],
      [demangle C++ and Rust names with libiberty (default: auto)])],
    [], [with_libiberty=auto])
  have_libiberty=no
  LIBIBERTY_LIBS=
  AS_IF([test "x$with_libiberty" != xno], [
    AC_CHECK_HEADER([libiberty/demangle.h], [
      dnl not AC_CHECK_LIB's default action: -liberty goes to lib/ only, not LIBS
      AC_CHECK_LIB([iberty], [cplus_demangle_v3_callback], [
        AC_CHECK_LIB([iberty], [rust_demangle_callback], [have_libiberty=yes])
      ])
    ])
    AS_IF([test "x$have_libiberty$with_libiberty" = xnoyes],
      [AC_MSG_ERROR([--with-libiberty=yes but libiberty/demangle.h or -liberty with cplus_demangle_v3_callback and rust_demangle_callback was not found: install Debian's libiberty-dev])])
  ])
  AS_IF([test "x$have_libiberty" = xyes], [
    LIBIBERTY_LIBS=-liberty
    AC_DEFINE([HAVE_LIBIBERTY], [1], [C++ and Rust names are demangled with libiberty])
  ])
  AC_SUBST([LIBIBERTY_LIBS])
])
