#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of run-guest.sh's one retry of a boot that dies before /init:
# a kernel told to run an init that does not exist panics before /init on
# every boot, so run-guest.sh must boot exactly twice, say why, and fail
# with 125.  Two short boots, no module; no host program unless --emud (then
# the host program is stopped and started afresh between the boots).
#
#   tools/qemu/test-boot-retry.sh [--emud] [run-guest.sh options, e.g. --msix 4]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
err=$(mktemp)
trap 'rm -f "$err"' EXIT
host=(--no-emulator)
if [ "${1:-}" = --emud ]; then
	host=(--emud)
	shift
fi
rc=0
"$here/run-guest.sh" -q --no-module "${host[@]}" --timeout 120 \
	--append "rdinit=/cxprm-no-such-init init=/cxprm-no-such-init" "$@" -- true \
	>/dev/null 2>"$err" || rc=$?
fail() {
	sed 's/^/  | /' "$err" >&2
	echo "test-boot-retry: FAIL: $*" >&2
	exit 1
}
[ "$rc" = 125 ] || fail "exit status $rc, not 125"
[ "$(grep -c 'booting once more' "$err")" = 1 ] || fail "not exactly one retry"
grep -q 'died while booting, before /init' "$err" || fail "no reason given"
grep -q 'Kernel panic' "$err" || fail "the panic line is not shown"
echo "test-boot-retry: PASS (a boot that died before /init was retried once, then failed with 125)"
