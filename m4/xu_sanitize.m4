# SPDX-License-Identifier: GPL-2.0-only
dnl XU_ARG_ENABLE_SANITIZERS
dnl --enable-sanitizers: the whole tree, tools and tests built with
dnl AddressSanitizer and UndefinedBehaviorSanitizer (gcc or clang), so that
dnl `make check` stops at the first out-of-bounds access, use after free or
dnl undefined operation instead of passing by luck.  Not for a package: the
dnl runtime costs twice the time and far more memory.  configure fails when
dnl the compiler cannot link a sanitized program.
dnl XU_SANITIZER_FLAGS: ASan and UBSan, stopping at the first undefined operation; the
dnl flags of this option and of --enable-fuzzing (m4/xu_fuzz.m4).
AC_DEFUN([XU_SANITIZER_FLAGS],
  [-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer])

AC_DEFUN([XU_ARG_ENABLE_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers],
      [build with AddressSanitizer and UndefinedBehaviorSanitizer (for make check)])],
    [], [enable_sanitizers=no])
  AS_IF([test "x$enable_sanitizers" = xyes], [
    AS_IF([test "x$enable_fuzzing" = xyes],
      [AC_MSG_ERROR([--enable-fuzzing already builds with the sanitizers: give one of the two])])
    xu_san="XU_SANITIZER_FLAGS"
    AC_MSG_CHECKING([whether $CC links with $xu_san])
    xu_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS $xu_san"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[]], [[return 0;]])], [xu_san_ok=yes], [xu_san_ok=no])
    CFLAGS=$xu_save_CFLAGS
    AC_MSG_RESULT([$xu_san_ok])
    AS_IF([test "x$xu_san_ok" != xyes],
      [AC_MSG_ERROR([--enable-sanitizers: $CC cannot link with $xu_san (Debian: gcc with libasan and libubsan, which it depends on)])])
    XU_CFLAGS="$XU_CFLAGS $xu_san"
    dnl libtool passes -fsanitize=* through to the compiler driver at link time.
    LDFLAGS="$LDFLAGS $xu_san"
  ])
])
