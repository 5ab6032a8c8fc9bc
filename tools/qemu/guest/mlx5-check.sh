#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of tools/qemu/run-mlx5.sh --check (the `make check` stage
# mlx5): Linux's unmodified mlx5_core on the emulated ConnectX, on MSI-X.
# Binds it (mlx5-bind: cxswap.ko puts the shared memory at BAR0), checks
# it stayed bound and that its MSI-X vectors (/proc/interrupts mlx5_*)
# interrupted, unbinds, binds again, unbinds, rmmods mlx5_core; then no
# "mlx5_core ... failed" line may be in dmesg but the harmless ones below,
# nor a command that waited for its completion interrupt until mlx5_core's
# timeout.
# Prints "MLX5-CHECK: ..." lines for the host; exit 0 = all held.

# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"

rc=0
fail() {
	echo "MLX5-CHECK: FAIL: $*"
	rc=1
}
bdf=${CXPRM_BDF:?no ivshmem device}
drv_of() { basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2>/dev/null)" 2>/dev/null; }

# The sum of every mlx5_* vector's per-CPU counts.
mlx5_irqs() {
	awk '/mlx5_/ { for (i = 2; i <= NF; i++) { if ($i !~ /^[0-9]+$/) break; n += $i } }
		END { print n + 0 }' /proc/interrupts
}

echo "MLX5-CHECK: binding $bdf"
mlx5-bind "$bdf" || fail "mlx5-bind"
sleep 1
bound=no
if [ "$(drv_of)" = mlx5_core ]; then
	bound=yes
else
	fail "$bdf is not bound to mlx5_core after the probe"
fi
grep mlx5_ /proc/interrupts | sed 's/^/MLX5-CHECK: irq /'
irqs=$(mlx5_irqs)
vectors=$(grep -c mlx5_ /proc/interrupts)
[ "$irqs" -gt 0 ] || fail "no MSI-X interrupt on the mlx5 vectors ($vectors vectors)"

echo "MLX5-CHECK: unbind, bind again, unbind"
mlx5-unbind "$bdf" || fail "first unbind"
[ -z "$(drv_of)" ] || fail "still bound after the unbind"
mlx5-bind "$bdf" || fail "rebind"
sleep 1
[ "$(drv_of)" = mlx5_core ] || fail "not bound after the rebind"
irqs2=$(mlx5_irqs)
[ "$irqs2" -gt 0 ] || fail "no MSI-X interrupt after the rebind"
mlx5-unbind "$bdf" || fail "second unbind"
rmmod mlx5_core || fail "rmmod mlx5_core"
grep -q '^mlx5_core ' /proc/modules && fail "mlx5_core still loaded"

bad=$(mlx5_failed_lines)
nbad=0
if [ -n "$bad" ]; then
	nbad=$(echo "$bad" | wc -l)
	echo "$bad" | sed 's/^/MLX5-CHECK: dmesg: /'
	fail "$nbad mlx5_core failure lines in dmesg"
fi
dmesg | grep -E 'mlx5_core|cxswap' | sed 's/^/MLX5-CHECK: log: /' | tail -n 40
# What mlx5_core took the function for: the driver_data of its id table
# entry for the emulator's device id (cxswap.c's dynamic id; none: the
# driver_override match, driver_data 0), MLX5_PCI_DEV_IS_VF = bit 0.
data=$(dmesg | sed -n 's/.*cxswap: emulated .* driver_data \(0x[0-9a-f]*\) (0)$/\1/p' | tail -n 1)
function=PF
[ $((${data:-0} & 1)) = 0 ] || function=VF
echo "MLX5-CHECK: bound=$bound vectors=$vectors irqs=$irqs irqs_rebind=$irqs2 failed_lines=$nbad function=$function"
exit $rc
