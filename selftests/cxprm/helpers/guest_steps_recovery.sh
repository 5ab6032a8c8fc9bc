#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The recovery steps of run_guest_tests.sh, which sources this file (a
# helper, not a test): automatic recovery, recovery that cannot succeed,
# the soak under recoverable crashes, suspend and resume
# (Documentation/recovery.rst).  They use the runner's helpers
# (load_bound, rmmod_timed, since_mark, emu, ...) and variables (here,
# TMO, mark).
# shellcheck shell=sh

# Automatic recovery (cxprm_recover_test), recover[:P=V,...] with more
# module parameters: a firmware crash the driver recovers from by itself
# (it asks the emulator for the reset), then one within the grace period
# it does not: the device stays failed, so after rmmod the emulator's
# function is reset.
step_recover() {
	mark=$(dmesg | wc -l)
	# shellcheck disable=SC2046
	load_bound health_poll_ms=100 $(echo "${1#:}" | tr "," " ") || return 1
	CXPRM_TEST_RECOVER=1 timeout -s KILL "$TMO" "$here/cxprm_recover_test"
	rc=$?
	since_mark | grep -E 'cxprm .*(recover|health: device failed)' | tail -n 6 | sed 's/^/dmesg: /'
	since_mark | grep -q 'recovery: the device is up again' || { echo "FAIL: no recovery line in dmesg"; rc=1; }
	rmmod_timed "the device" || return 1
	emu function-reset || { echo "FAIL: emulator function reset"; rc=1; }
	return "$rc"
}

# A crash the firmware never recovers from (cxprm_recover_test's second
# case), recover-norestart[:P=V,...]: the emulator ignores the driver's
# reset request; two attempts time out and the device ends failed with
# NOT_READY, said in dmesg.  After rmmod the emulator's function is reset.
step_recover_norestart() {
	mark=$(dmesg | wc -l)
	# shellcheck disable=SC2046
	load_bound health_poll_ms=100 recovery_attempts=2 $(echo "${1#:}" | tr "," " ") || return 1
	CXPRM_TEST_RECOVER=norestart timeout -s KILL "$TMO" "$here/cxprm_recover_test"
	rc=$?
	since_mark | grep -E 'cxprm .*(recover|health: device failed)' | tail -n 4 | sed 's/^/dmesg: /'
	since_mark | grep -q 'recovery failed after 2 attempt(s): reason 6,' ||
		{ echo "FAIL: no 'recovery failed after 2 attempt(s): reason 6,' in dmesg"; rc=1; }
	rmmod_timed "the failed device" || return 1
	emu function-reset || { echo "FAIL: emulator function reset"; rc=1; }
	return "$rc"
}

# The soak under recoverable crashes, soak-crash[:N[,C]] (N ioctls,
# default 3000, an hour allowed with N; C crashes, default 3):
# cxprm_soak_test's crash case (CXPRM_SOAK_CRASHES=C firmware crashes among
# the chaos process's faults), the module loaded with a fast poller and no
# grace period (every crash recovered).  The device is UP at the end and
# every recovery succeeded; after rmmod the firmware holds no page.
step_soak_crash() {
	mark=$(dmesg | wc -l)
	load_bound health_poll_ms=100 recovery_grace_ms=1 || return 1
	n_ioctls=${1#:}
	n_crashes=3
	case "$n_ioctls" in
	*,*) n_crashes=${n_ioctls#*,} n_ioctls=${n_ioctls%%,*} ;;
	esac
	CXPRM_SOAK_IOCTLS=${n_ioctls:-3000} CXPRM_SOAK_CRASHES=$n_crashes \
		timeout -s KILL "$([ -n "$n_ioctls" ] && echo 3600 || echo "$TMO")" \
		"$here/cxprm_soak_test"
	rc=$?
	# This step's lines only: an earlier step may have left a failed recovery.
	since_mark | grep -E 'cxprm .*(recover|health: device failed)' | tail -n 4 | sed 's/^/dmesg: /'
	since_mark | grep -q 'recovery: the device is up again' || { echo "FAIL: no recovery line in dmesg"; rc=1; }
	if since_mark | grep -q 'the device stays failed'; then
		echo "FAIL: a recovery failed"
		rc=1
	fi
	mark=$(dmesg | wc -l)
	rmmod_timed "the recovered device" || return 1
	pages_given
	echo "dmesg: $line"
	held=$(emu pages-held 2>&1)
	echo "emulator: pages held $held"
	[ "$held" = 0 ] || { echo "FAIL: the firmware still holds $held pages after rmmod"; rc=1; }
	return "$rc"
}

# Suspend-to-idle (cxprm_pm_test), suspend[:P=V,...]: the guest frozen
# until an RTC alarm with the function bound and a file open; the function
# unloaded with every page reclaimed, brought up at resume.
step_suspend() {
	mark=$(dmesg | wc -l)
	# shellcheck disable=SC2046
	load_bound $(echo "${1#:}" | tr "," " ") || return 1
	CXPRM_TEST_SUSPEND=1 CXPRM_PM_TEST=${CXPRM_PM_TEST-devices} timeout -s KILL "$TMO" "$here/cxprm_pm_test"
	rc=$?
	# The debug test kernel has no CONFIG_SUSPEND: the test skipped.
	if [ ! -w /sys/power/state ]; then
		rmmod_timed "the device" || return 1
		return "$rc"
	fi
	since_mark | grep -E 'cxprm .*(suspend|resume|pages given)' | tail -n 4 | sed 's/^/dmesg: /'
	since_mark | grep -q 'cxprm .*resume: up again' || { echo "FAIL: no 'resume: up again' in dmesg"; rc=1; }
	since_mark | grep -E 'cxprm .*pages given [0-9]+ reclaimed' | tail -n 1 |
		grep -qE 'pages given ([0-9]+) reclaimed \1 ' || { echo "FAIL: suspend did not reclaim every page"; rc=1; }
	rmmod_timed "the resumed device" || return 1
	return "$rc"
}
