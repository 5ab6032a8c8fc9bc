#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mlx5-faults SCENARIO: Linux's mlx5_core (bound by mlx5-bind) under one of
# the emulator's faults, for Documentation/faults.rst; each step is timed.  Run it after the bind:
#
#   tools/qemu/run-mlx5.sh [--timeout 300] -- mlx5-faults crash|gone|stuck
#
#   crash   firmware crash with the health syndrome (emuctl fault crash):
#           mlx5's health poller (every 2 s) should see it, then unbind
#   gone    surprise removal: the device reads all ones (device-gone)
#   stuck   one MANAGE_PAGES never completes (never-complete --once),
#           raised by a page request: mlx5's 60 s command timeout, then
#           the unbind; mlx5_core's unbind blocks for good on the slot it
#           abandoned (Documentation/faults.rst): only run-guest.sh's
#           --timeout ends that run (status 124)
# Prints the mlx5 dmesg lines of each phase and how long unbind and rmmod
# took; exit 0 when the unbind and rmmod returned.
bdf=${CXPRM_BDF:?no ivshmem device}
mark=$(dmesg | wc -l)
now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
newlog() {
	dmesg | tail -n +"$((mark + 1))" | grep -E 'mlx5|cxswap' | sed "s/^/FAULTS: $1: /"
	mark=$(dmesg | wc -l)
}

[ "$(basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2>/dev/null)")" = mlx5_core ] ||
	{ echo "FAULTS: mlx5_core is not bound"; exit 1; }
case "$1" in
crash)
	emuctl fault crash || exit 1
	sleep 12
	;;
gone)
	emuctl fault device-gone || exit 1
	sleep 12
	;;
stuck)
	emuctl fault never-complete on --only-opcode MANAGE_PAGES --once || exit 1
	emuctl request-pages 16 || exit 1
	sleep 75
	;;
*)
	echo "usage: mlx5-faults crash|gone|stuck" >&2
	exit 2
	;;
esac
newlog "$1"
echo "FAULTS: $1: emulator: crashed $(emuctl crashed 2>&1) gone $(emuctl gone 2>&1) pages-held $(emuctl pages-held 2>&1) hca-state $(emuctl hca-state 2>&1)"
t=$(now)
timeout 200 sh -c "echo $bdf >/sys/bus/pci/drivers/mlx5_core/unbind"
echo "FAULTS: $1: unbind returned $? after $(since "$t") s"
newlog "$1 unbind"
t=$(now)
timeout 100 rmmod mlx5_core
echo "FAULTS: $1: rmmod returned $? after $(since "$t") s"
newlog "$1 rmmod"
echo "FAULTS: $1: emulator after: pages-held $(emuctl pages-held 2>&1) hca-state $(emuctl hca-state 2>&1)"
exit 0
