#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Regenerate the build system from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf --install --warnings=all
