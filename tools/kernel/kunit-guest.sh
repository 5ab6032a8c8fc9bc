#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tools/kernel/run-kunit.sh (busybox sh, in the debug test
# kernel): run-guest.sh's init has loaded cxprm.ko and bound the emulated
# device.  Loads cxprm_kunit.ko (its suites run at load), prints the
# kernel log of the run between markers for the host to parse, then unloads
# everything and reports what the checkers found:
#
#   CXPRM-KTAP-BEGIN ... CXPRM-KTAP-END   kernel log since the load
#   CXPRM-KUNIT-SUITES N                  suites KUnit registered
#   CXPRM-KMEMLEAK N                      new kmemleak reports
#   CXPRM-DMA-API-ERRORS N                DMA-API debug errors
#   CXPRM-LOCKDEP before after            debug_locks (1 = lockdep still on)
#   CXPRM-KUNIT-GUEST-DONE
KM=/sys/kernel/debug/kmemleak
debug_locks() {
	awk '/debug_locks:/ { print $2; exit }' /proc/lockdep_stats 2>/dev/null || echo "?"
}

# The KTAP dump below is only the log since the load.  A report during
# bring-up is not lost with what dmesg -c erases: run-guest.sh checks the
# whole console log (warnings and worse reach it) and the taint flags.
# kmemleak's reports from boot are not ours: forget them.
if [ -w "$KM" ]; then
	echo scan >"$KM"
	echo clear >"$KM"
fi
locks0=$(debug_locks)
dmesg -c >/dev/null

insmod /cxprm/cxprm_kunit.ko || echo "CXPRM-KUNIT-INSMOD-FAILED $?"
echo "CXPRM-KTAP-BEGIN"
dmesg
echo "CXPRM-KTAP-END"
echo "CXPRM-KUNIT-SUITES $(find /sys/kernel/debug/kunit -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)"

# Leaks are looked for before the modules go, so backtraces have names;
# kmemleak reports objects unreferenced for 5 s, after two scans.
cxprm-unbind >/dev/null
if [ -w "$KM" ]; then
	sleep 6
	echo scan >"$KM"
	sleep 1
	echo scan >"$KM"
	echo "CXPRM-KMEMLEAK $(grep -c 'unreferenced object' "$KM")"
	head -n 60 "$KM"
else
	echo "CXPRM-KMEMLEAK unavailable"
fi
rmmod cxprm_kunit
rmmod cxprm
echo "CXPRM-DMA-API-ERRORS $(cat /sys/kernel/debug/dma-api/error_count 2>/dev/null || echo unavailable)"
echo "CXPRM-LOCKDEP $locks0 $(debug_locks)"
dmesg | grep -E 'DMA-API|kmemleak:|KASAN|possible circular|inconsistent lock|freeing leaked|DMA buffers allocated' || true
echo "CXPRM-KUNIT-GUEST-DONE"
exit 0
