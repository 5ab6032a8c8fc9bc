#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cxprm-bind [BDF]: bind BDF (default: every ivshmem device) to cxprm.
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"
rc=0
devs=${*:-$(find_ivshmem)}
[ -n "$devs" ] || { echo "cxprm-bind: no ivshmem device" >&2; exit 1; }
for bdf in $devs; do
	if bind_cxprm "$bdf"; then
		echo "cxprm-bind: $bdf bound to cxprm"
	else
		echo "cxprm-bind: $bdf did not bind to cxprm" >&2
		rc=1
	fi
done
exit $rc
