#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mlx5-unbind [BDF]: unbind BDF (default: all devices bound to mlx5_core);
# driver_override stays mlx5_core (mlx5-bind binds again; cxprm-bind sets
# its own).
drv=/sys/bus/pci/drivers/mlx5_core
if [ $# -gt 0 ]; then
	devs=$*
else
	devs=$(cd "$drv" 2>/dev/null && ls -d -- ????:??:??.? 2>/dev/null)
fi
rc=0
for bdf in $devs; do
	if echo "$bdf" >"$drv/unbind"; then
		echo "mlx5-unbind: $bdf unbound"
	else
		rc=1
	fi
done
exit $rc
