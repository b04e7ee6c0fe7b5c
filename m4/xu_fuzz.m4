# SPDX-License-Identifier: GPL-2.0-only
dnl XU_ARG_ENABLE_FUZZING
dnl --enable-fuzzing: build tests/fuzz/ as libFuzzer harnesses, with the whole
dnl tree instrumented for coverage (-fsanitize=fuzzer-no-link) and checked
dnl with AddressSanitizer and UndefinedBehaviorSanitizer.  Needs clang and
dnl its libFuzzer runtime (Debian: clang, libfuzzer-14-dev); configure fails
dnl when they do not link.  Without it the same harnesses are built as plain
dnl replay programs that `make check` runs over their corpora.
dnl Sets the AM conditional FUZZING and FUZZ_LDFLAGS (for the harnesses).
AC_DEFUN([XU_ARG_ENABLE_FUZZING], [
  AC_ARG_ENABLE([fuzzing],
    [AS_HELP_STRING([--enable-fuzzing],
      [build the libFuzzer harnesses with ASan+UBSan (needs clang; see make fuzz)])],
    [], [enable_fuzzing=no])
  FUZZ_LDFLAGS=
  AS_IF([test "x$enable_fuzzing" = xyes], [
    xu_san="XU_SANITIZER_FLAGS"
    AC_MSG_CHECKING([whether $CC builds libFuzzer harnesses])
    xu_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -fsanitize=fuzzer $xu_san"
    AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
]])], [xu_fuzz_ok=yes], [xu_fuzz_ok=no])
    CFLAGS=$xu_save_CFLAGS
    AC_MSG_RESULT([$xu_fuzz_ok])
    AS_IF([test "x$xu_fuzz_ok" != xyes],
      [AC_MSG_ERROR([--enable-fuzzing needs clang with libFuzzer: configure CC=clang and install Debian's libfuzzer-14-dev])])
    dnl Everything is instrumented: the library is what is being fuzzed.
    XU_CFLAGS="$XU_CFLAGS -fsanitize=fuzzer-no-link $xu_san"
    dnl libtool passes -fsanitize=* through to the compiler driver at link time.
    LDFLAGS="$LDFLAGS $xu_san"
    FUZZ_LDFLAGS="-fsanitize=fuzzer"
  ])
  AC_SUBST([FUZZ_LDFLAGS])
  AM_CONDITIONAL([FUZZING], [test "x$enable_fuzzing" = xyes])
])
