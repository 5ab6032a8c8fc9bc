#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the run-guest.sh initramfs: mounts, loads the --module list and
# cxprm.ko, binds the ivshmem device, runs /cxprm/cmd.sh, reports kernel
# reports and taint, prints the exit marker and powers off.
export PATH=/bin:/sbin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# shellcheck source=/dev/null
. /cxprm/config
# shellcheck source=tools/qemu/guest/lib.sh
. /cxprm/lib.sh
export CXPRM_MSIX
echo "CXPRM-GUEST: init at $(cut -d' ' -f1 /proc/uptime)s, kernel $(uname -r)"

finish() {
	splat=0
	check_splat && splat=1
	# Taint flags that a report leaves behind, even when its lines are gone
	# from dmesg: B (bit 5, bad page: KASAN), D (7, die: Oops), W (9, WARN),
	# L (14, soft lockup).  Not O (12) or E (13): loading cxprm.ko sets them.
	taint=$(cat /proc/sys/kernel/tainted 2>/dev/null || echo 0)
	bad=$((taint & 0x42a0))
	if [ "$bad" != 0 ]; then
		flags=
		[ $((bad & 0x20)) = 0 ] || flags="${flags}B"
		[ $((bad & 0x80)) = 0 ] || flags="${flags}D"
		[ $((bad & 0x200)) = 0 ] || flags="${flags}W"
		[ $((bad & 0x4000)) = 0 ] || flags="${flags}L"
		echo "CXPRM-KERNEL-TAINTED $flags ($taint)"
		splat=1
	fi
	if [ "$splat" = 1 ]; then
		echo "CXPRM-KERNEL-SPLAT"
		dmesg | tail -n 80
	fi
	echo "CXPRM-EXIT $1"
	sleep 0.2	# let the UART drain before the power goes
	poweroff -f
	sleep 5
	echo o >/proc/sysrq-trigger
}
setup_failed() {
	echo "CXPRM-SETUP-FAILED: $*"
	dmesg | tail -n 30
	finish 125
}

while read -r m; do
	insmod "/lib/modules/extra/$m" || setup_failed "insmod $m"
done </cxprm/modules.list
if [ "$CXPRM_LOAD" = 1 ]; then
	# shellcheck disable=SC2086
	insmod /cxprm/cxprm.ko $CXPRM_MODPARAMS || setup_failed "insmod cxprm.ko $CXPRM_MODPARAMS"
fi
CXPRM_BDF=$(find_ivshmem | tail -n 1)
export CXPRM_BDF
if [ "$CXPRM_BIND" = 1 ]; then
	cxprm-bind "$CXPRM_BDF" || setup_failed "bind $CXPRM_BDF"
fi
echo "CXPRM-GUEST: running command at $(cut -d' ' -f1 /proc/uptime)s"
cd /cxprm || finish 125
sh /cxprm/cmd.sh
finish $?
