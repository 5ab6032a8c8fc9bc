#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lines of a module build log that fail a build (as tools/lint.sh):
# any compiler, objtool, modpost or BTF warning or error.  "Skipping BTF
# generation" is information (a headers tree without vmlinux).
#
#   tools/kernel/warnings.sh BUILD.LOG    prints them; exit 0 only if none
if grep -E 'warning|error|WARNING|ERROR|: (sparse|objtool)' "$1" | grep -v 'Skipping BTF generation'; then
	exit 1
fi
