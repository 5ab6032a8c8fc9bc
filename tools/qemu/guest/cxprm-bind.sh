#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cxprm-bind [BDF]: bind BDF (default: every ivshmem device) to cxprm.
rc=0
if [ $# -gt 0 ]; then
	devs=$*
else
	devs=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1110 ] &&
			devs="$devs ${d##*/}"
	done
fi
[ -n "$devs" ] || { echo "cxprm-bind: no ivshmem device" >&2; exit 1; }
for bdf in $devs; do
	d=/sys/bus/pci/devices/$bdf
	[ -e "$d/driver" ] && [ "$(basename "$(readlink "$d/driver")")" != cxprm ] &&
		echo "$bdf" >"$d/driver/unbind"
	echo cxprm >"$d/driver_override"
	echo "$bdf" >/sys/bus/pci/drivers_probe
	if [ "$(basename "$(readlink "$d/driver" 2>/dev/null)")" = cxprm ]; then
		echo "cxprm-bind: $bdf bound to cxprm"
	else
		echo "cxprm-bind: $bdf did not bind to cxprm" >&2
		rc=1
	fi
done
exit $rc
