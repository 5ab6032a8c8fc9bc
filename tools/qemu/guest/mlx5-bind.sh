#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mlx5-bind [BDF]: bind BDF (default: every ivshmem device) to Linux's own
# mlx5_core (loaded already: run-guest.sh --module mlx5_core).  mlx5_core
# takes the init segment from BAR0 and ivshmem has its shared memory at
# BAR2: an unbound device whose BAR0 is not the shared memory yet is
# swapped by (re)loading /cxprm/cxswap.ko (run-guest.sh --cxswap), which
# also gives mlx5_core a dynamic id for ivshmem with the driver_data of its
# own entry for the emulator's profile (a VF for cx7vf: MLX5_PCI_DEV_IS_VF);
# then bound by driver_override + drivers_probe (it may have bound already
# when cxswap added the id).
ko=${CXSWAP_KO:-/cxprm/cxswap.ko}
[ -d /sys/bus/pci/drivers/mlx5_core ] || { echo "mlx5-bind: mlx5_core is not loaded" >&2; exit 1; }
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"
devs=${*:-$(find_ivshmem)}
[ -n "$devs" ] || { echo "mlx5-bind: no ivshmem device" >&2; exit 1; }

# BAR0 of an ivshmem device is 256 bytes; the shared memory >= 128 KiB.
bar0_is_shm() {
	len=$(($(head -n 1 "/sys/bus/pci/devices/$1/resource" | cut -d' ' -f2) - \
		$(head -n 1 "/sys/bus/pci/devices/$1/resource" | cut -d' ' -f1) + 1))
	[ "$len" -ge 65536 ]
}

rc=0
swap=0
for bdf in $devs; do
	d=/sys/bus/pci/devices/$bdf
	drv=$(driver_of "$bdf")
	if [ -n "$drv" ] && [ "$drv" != mlx5_core ]; then
		echo "$bdf" >"$d/driver/unbind"
	fi
	bar0_is_shm "$bdf" || swap=1
done
if [ "$swap" = 1 ]; then
	[ -f "$ko" ] || { echo "mlx5-bind: no $ko to swap BAR0 and BAR2 (run-guest.sh --cxswap)" >&2; exit 1; }
	grep -q '^cxswap ' /proc/modules && rmmod cxswap
	insmod "$ko" || { echo "mlx5-bind: insmod $ko failed" >&2; exit 1; }
fi
for bdf in $devs; do
	d=/sys/bus/pci/devices/$bdf
	if ! bar0_is_shm "$bdf"; then
		echo "mlx5-bind: $bdf: BAR0 is not the shared memory" >&2
		rc=1
		continue
	fi
	if [ "$(driver_of "$bdf")" != mlx5_core ]; then
		echo mlx5_core >"$d/driver_override"
		echo "$bdf" >/sys/bus/pci/drivers_probe
	fi
	if [ "$(driver_of "$bdf")" = mlx5_core ]; then
		echo "mlx5-bind: $bdf bound to mlx5_core"
	else
		echo "mlx5-bind: $bdf did not bind to mlx5_core" >&2
		rc=1
	fi
done
exit $rc
