#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # rst literals (``name``) in grep and sed patterns, not expansions
#
# tools/check-docs.sh must catch each kind of drift: on a copy of the files
# it reads, one contract at a time is broken (a parameter added, a debugfs
# row dropped, an ioctl renamed, an exit code added, a documented target
# removed) and the check must fail naming it; the unbroken copy must pass.
#   tools/check-docs-test.sh [REPO]
set -uo pipefail
repo=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=(drivers/cxprm_params.c drivers/cxprm_debugfs.c include/uapi/linux/cxprm.h tools/cxprm/src/errors.h
	tools/cxprm/README.md README.md Makefile tools/check.sh tools/check-docs.sh)
fails=0
fresh() {
	rm -rf "$work/r"
	mkdir -p "$work/r/Documentation"
	for f in "${files[@]}"; do mkdir -p "$work/r/$(dirname "$f")" && cp "$repo/$f" "$work/r/$f"; done
	cp "$repo"/Documentation/*.rst "$work/r/Documentation/"
}
expect() { # WHAT PATTERN: the check fails with PATTERN in its output
	local out
	if out=$("$work/r/tools/check-docs.sh" "$work/r" 2>&1); then
		echo "check-docs-test: $1: not caught"
		fails=$((fails + 1))
	elif ! grep -q -- "$2" <<<"$out"; then
		echo "check-docs-test: $1: failed without naming it: $out"
		fails=$((fails + 1))
	else
		echo "check-docs-test: $1: caught"
	fi
}
fresh
"$work/r/tools/check-docs.sh" "$work/r" >/dev/null || { echo "check-docs-test: the copy does not pass"; exit 1; }
fresh; echo 'module_param_named(new_knob, x, bool, 0644);' >>"$work/r/drivers/cxprm_params.c"
expect "an undocumented module parameter" "module parameter 'new_knob'"
fresh; sed -i '/^``last_cmds``/d' "$work/r/Documentation/kernel-module.rst"
expect "a debugfs file without its row" "debugfs file 'last_cmds'"
fresh; sed -i 's/CXPRM_IOC_STATS /CXPRM_IOC_STATISTICS /' "$work/r/include/uapi/linux/cxprm.h"
expect "a renamed ioctl" "CXPRM_IOC_STATISTICS"
fresh; sed -i 's/EXIT_TIMEOUT = 4,/EXIT_TIMEOUT = 4,\n\tEXIT_NEW = 5,/' "$work/r/tools/cxprm/src/errors.h"
expect "an undocumented exit code" "exit code '5'"
fresh; sed -i 's/^check-handover:/check-handover-gone:/' "$work/r/Makefile"
expect "a documented make target gone" "make check-handover"
[ "$fails" = 0 ] || exit 1
echo "check-docs-test: every kind of drift is caught"
