# SPDX-License-Identifier: GPL-2.0-only
dnl XU_WITH_BASH_COMPLETION_DIR
dnl --with-bash-completion-dir[=DIR]: where tools/completion/xen-uniprof.bash
dnl is installed (as xen-uniprof, the name bash-completion loads it by).  The
dnl default is the completionsdir that bash-completion's pkg-config file
dnl names, the only directory it loads completions from on demand; without
dnl bash-completion installed, ${datadir}/bash-completion/completions.
dnl --without-bash-completion-dir installs no completion.
dnl Sets BASH_COMPLETION_DIR (empty for none) and the AM conditional
dnl INSTALL_BASH_COMPLETION.
AC_DEFUN([XU_WITH_BASH_COMPLETION_DIR], [
  AC_ARG_WITH([bash-completion-dir],
    [AS_HELP_STRING([--with-bash-completion-dir@<:@=DIR@:>@],
      [install the bash completion in DIR (default: bash-completion's
       completionsdir, else DATADIR/bash-completion/completions);
       --without-bash-completion-dir installs none])],
    [], [with_bash_completion_dir=yes])
  AS_CASE([$with_bash_completion_dir],
    [no], [BASH_COMPLETION_DIR=],
    [yes|""], [
      PKG_CHECK_VAR([BASH_COMPLETION_DIR], [bash-completion], [completionsdir], [],
        [BASH_COMPLETION_DIR='${datadir}/bash-completion/completions'])],
    [BASH_COMPLETION_DIR=$with_bash_completion_dir])
  AC_SUBST([BASH_COMPLETION_DIR])
  AM_CONDITIONAL([INSTALL_BASH_COMPLETION], [test -n "$BASH_COMPLETION_DIR"])
])
