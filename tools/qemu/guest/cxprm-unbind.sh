#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cxprm-unbind [BDF]: unbind BDF (default: all devices bound to cxprm).
drv=/sys/bus/pci/drivers/cxprm
if [ $# -gt 0 ]; then
	devs=$*
else
	devs=$(cd "$drv" 2>/dev/null && ls -d -- ????:??:??.? 2>/dev/null)
fi
for bdf in $devs; do
	echo "$bdf" >"$drv/unbind" && echo "cxprm-unbind: $bdf unbound"
done
