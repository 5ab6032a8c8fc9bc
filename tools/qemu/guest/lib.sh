# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest library (busybox sh), /cxprm/lib.sh in the run-guest.sh initramfs:
# sourced by the guest's init, cxprm-bind, mlx5-bind and
# selftests/cxprm/run_guest_tests.sh; run-guest.sh (host) sources it for
# SPLAT_RE, which it also checks the console log against.

# Kernel reports: the headers of WARN(), BUG(), Oops, KASAN, UBSAN, lockdep
# (kernel/locking/lockdep.c: every report starts "WARNING: "; the usual ones
# are named as well), kmemleak and sleeping in atomic context.  The one list.
SPLAT_RE='cut here|WARNING:|BUG:|Oops|general protection|Call Trace:|UBSAN:|KASAN:'
SPLAT_RE="$SPLAT_RE|suspected memory leak|inconsistent lock state|possible recursive locking detected"
SPLAT_RE="$SPLAT_RE|possible circular locking dependency detected|suspicious RCU usage"
SPLAT_RE="$SPLAT_RE|possible irq lock inversion dependency detected|lock order detected"
SPLAT_RE="$SPLAT_RE|bad unlock balance detected|held lock freed|sleeping function called from invalid context"

# find_ivshmem: the BDF of every ivshmem device (1af4:1110), one a line,
# in $PCI_SYSFS (default /sys/bus/pci/devices).
find_ivshmem() {
	for _d in "${PCI_SYSFS:-/sys/bus/pci/devices}"/*; do
		[ -r "$_d/vendor" ] || continue
		[ "$(cat "$_d/vendor")" = 0x1af4 ] && [ "$(cat "$_d/device")" = 0x1110 ] &&
			echo "${_d##*/}"
	done
	return 0
}

# driver_of BDF: the name of the driver BDF is bound to (empty: none).
driver_of() {
	_l=$(readlink "/sys/bus/pci/devices/$1/driver" 2>/dev/null) || return 0
	echo "${_l##*/}"
}

# bind_cxprm BDF: bind BDF to cxprm (unbinding another driver first);
# true if it is bound to cxprm afterwards.
bind_cxprm() {
	_d=/sys/bus/pci/devices/$1
	_drv=$(driver_of "$1")
	[ -z "$_drv" ] || [ "$_drv" = cxprm ] || echo "$1" >"$_d/driver/unbind"
	echo cxprm >"$_d/driver_override"
	echo "$1" >/sys/bus/pci/drivers_probe 2>/dev/null
	[ "$(driver_of "$1")" = cxprm ]
}

# check_splat: true if dmesg holds a kernel report.
check_splat() {
	dmesg | grep -Eq "$SPLAT_RE"
}

# The mlx5_core lines of dmesg that mean a failure (none: empty): lines
# with "fail" but those the emulated device causes harmlessly -- no
# vendor-specific capability in ivshmem's config space
# (mlx5_pci_vsc_init), no csum_cap, so no mlx5e netdev
# (mlx5_eth_supported) -- and a command whose completion interrupt never
# came, even though mlx5_core recovers it by polling the cmd EQ after
# cmd_exec_to (cmd.c wait_func_handle_exec_timeout, eq.c
# mlx5_cmd_eq_recover).  mlx5-check.sh and fwctl-check.sh.
mlx5_failed_lines() {
	dmesg | grep -i 'mlx5_core' |
		grep -iE 'fail|No done completion|Recovered [0-9]+ EQEs|timeout\. Will cause' |
		grep -Ev 'Failed to get valid vendor specific ID|Missing csum_cap capability'
}
