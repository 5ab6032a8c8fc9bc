#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs the cxprm selftests inside the QEMU guest (busybox sh) and prints
# kselftest-runner TAP: one "ok N selftests: cxprm: NAME" per step, each
# test's own TAP nested as "# " lines.  Exit 0 only if every step passed
# (skips count as passes, as in kselftest).
#
#   run_guest_tests.sh [TEST...]      (default: all, in the order below)
#
# Steps: load (insmod + bind), cxprm_raw_test with allow_raw_write=0, the
# test programs with allow_raw_write=1, the CLI test, injected transport
# faults, unbind/rebind with open files, stress (processes x ioctls under
# injected faults, unbind and rmmod under load), soak (a short run of
# cxprm_soak_test: random ioctls under random faults), unload (rmmod: every page
# back, nothing leaked), the same with command completion by events, then
# with command checksums on (cmd_checksum=1: completed entries signed and
# verified; cxprm_raw_test checks the wire dump both ways), suspend and
# resume, the automatic recovery (recover: a crash the driver recovers
# from, then on demand; recover-norestart: one it cannot), and last the health poller on a stalled health
# counter, a surprise removal and a firmware crash (load again, the driver
# gives the device up, unbind and rmmod must still complete).  Before
# those: suspend/resume, automatic recovery (recover) and soak-crash (the
# soak with 3 firmware crashes the driver recovers from, every EHOSTDOWN
# and ESTALE accounted to one, the device UP at the end).
#
# Environment: CXPRM_BDF (set by run-guest.sh), CXPRM_KO (default
# /cxprm/cxprm.ko), CXPRM_MODPARAMS (default "allow_raw_write=1
# cmd_timeout_ms=3000"), CXPRM_REQUIRE_DEBUG (1: the checker steps always
# run and fail without kmemleak, DMA-API debug and lockdep),
# CXPRM_TEST_TIMEOUT (seconds per program, default 120), CXPRM_TOOL (the
# cxprm CLI, default: cxprm next to this script or in PATH), CXPRM_MSIX
# (set by run-guest.sh: > 0 = MSI-X vectors, the MSI-X mode's step list).
# Needs the emulator's control page: the guest kernel runs with
# iomem=relaxed (run-guest.sh adds it).

here=$(cd "$(dirname "$0")" && pwd)
PATH=$here:$PATH
export PATH
KO=${CXPRM_KO:-/cxprm/cxprm.ko}
MODPARAMS=${CXPRM_MODPARAMS-allow_raw_write=1 cmd_timeout_ms=3000}
TMO=${CXPRM_TEST_TIMEOUT:-120}
PARAM=/sys/module/cxprm/parameters
# find_ivshmem, bind_cxprm, SPLAT_RE (the kernel report headers: the one
# list, which run-guest.sh also checks the console log against).
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"

[ -n "$CXPRM_BDF" ] || CXPRM_BDF=$(find_ivshmem | tail -n 1)
export CXPRM_BDF
[ -n "$CXPRM_TOOL" ] || CXPRM_TOOL=$(command -v cxprm 2>/dev/null)
export CXPRM_TOOL

ALL="load cxprm_raw_test:allow_raw_write=0 cxprm_ioctl_test cxprm_raw_test cxprm_dct_test cxprm_obj_test cxprm_batch_test
cxprm_events_test cxprm_perm_test cxprm_nvmf_test cxprm_debugfs_test cxprm_irq_test cxprm_concurrency_test
cxprm_tool_test.sh cxprm_fault_test cxprm_unbind_test soak stress unload
load:cmd_mode=events cxprm_concurrency_test cxprm_batch_test cxprm_events_test cxprm_fault_test soak stress unload
load:cmd_checksum=1 cxprm_raw_test cxprm_fault_test unload bringup-fail suspend suspend:cmd_mode=events recover recover:cmd_mode=events
recover-norestart recover-norestart:cmd_mode=events soak-crash stall gone crash"
# MSI-X mode (run-guest.sh --msix N: ivshmem-doorbell, CXPRM_MSIX=N): the
# event path on a real vector, polled and CMD-event completion, each framed
# by the interrupt checks (cxprm_irq_test: INFO's IRQ flag, the vector's
# /proc/interrupts and debugfs counts going up).
if [ "${CXPRM_MSIX:-0}" -gt 0 ]; then
	CXPRM_TEST_MSIX=1
	export CXPRM_TEST_MSIX
	ALL="load cxprm_irq_test cxprm_ioctl_test cxprm_obj_test cxprm_batch_test cxprm_events_test cxprm_debugfs_test cxprm_concurrency_test
cxprm_fault_test cxprm_irq_test unload
load:cmd_mode=events cxprm_irq_test cxprm_concurrency_test cxprm_events_test cxprm_fault_test soak stress cxprm_irq_test
unload suspend recover recover-norestart soak-crash gone"
fi
# With allocation fault injection (the debug test kernel), the short
# failnth run right after the first load: every path but those whose
# every point is a bind (bind, unbind, rmmod: make check-failnth),
# Documentation/faults.rst.
FAILNTH_SHORT=open,caps,nvmf,esw,dct_create,dct_query,dct_drain,dct_destroy,obj_create,obj_destroy,stats,raw,subscribe,read,close
if [ -e /proc/self/fail-nth ]; then
	ALL="load failnth:$FAILNTH_SHORT ${ALL#load }"
fi
# On a kernel with the checkers (the debug test kernel: kmemleak, DMA-API
# debug, lockdep), the whole run is framed by debug-start (forget what boot
# left) and debug-check (nothing leaked or reported since).  With
# CXPRM_REQUIRE_DEBUG=1 (run.sh --debug-kernel) they are always there, and
# debug-check fails if a checker is missing from the kernel.
if [ "$CXPRM_REQUIRE_DEBUG" = 1 ] || [ -e /sys/kernel/debug/kmemleak ] ||
	[ -d /sys/kernel/debug/dma-api ]; then
	ALL="debug-start $ALL debug-check"
fi
STEPS=${*:-$ALL}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }'; }

# The control page: /bin/emuctl (tools/emulator/emuctl).
emu() { emuctl "$@"; }

# load_bound [PARAM=V...]: insmod with MODPARAMS plus those, bind.
load_bound() {
	# shellcheck disable=SC2086 # MODPARAMS is a list of words
	insmod "$KO" $MODPARAMS "$@" || { echo "insmod failed"; return 1; }
	bind_cxprm "$CXPRM_BDF" || { echo "bind $CXPRM_BDF failed"; return 1; }
}

# Whether a line matching $1 is in the kernel log within $2 tenths of a second.
dmesg_wait() {
	n=0
	until dmesg | grep -q "$1"; do
		[ "$n" -lt "$2" ] || return 1
		n=$((n + 1))
		sleep 0.1
	done
}

# The kernel log since the last `mark=$(dmesg | wc -l)`.
since_mark() { dmesg | tail -n +"$((mark + 1))"; }

# pages_given: the last "pages given G reclaimed R" line since the mark in
# $line, G in $given, R in $reclaimed.
pages_given() {
	line=$(since_mark | grep 'pages given' | tail -n 1)
	given=$(echo "$line" | sed -n 's/.*pages given \([0-9]*\) reclaimed \([0-9]*\).*/\1/p')
	reclaimed=$(echo "$line" | sed -n 's/.*pages given \([0-9]*\) reclaimed \([0-9]*\).*/\2/p')
}

# fault_run MODE [PARAM=V...]: load and bind with those parameters, run
# cxprm_fatal_test with CXPRM_TEST_<MODE>=1: its status in $rc, then mark.
fault_run() {
	mode=$1
	shift
	load_bound "$@" || return 1
	env "CXPRM_TEST_$mode=1" timeout -s KILL "$TMO" "$here/cxprm_fatal_test"
	rc=$?
	mark=$(dmesg | wc -l)
}

# rmmod_timed WHAT: rmmod cxprm and say how long it took.
rmmod_timed() {
	ts=$(uptime_s)
	rmmod cxprm || { echo "rmmod of $1 failed"; return 1; }
	echo "rmmod of $1 took $(elapsed "$ts")s"
}

# --- steps (print diagnostics on stdout, return nonzero on failure) ----------

# load[:P1=V1,P2=V2]: insmod with MODPARAMS plus those, bind.
step_load() {
	extra=$(echo "${1#:}" | tr "," " ")
	if grep -q '^cxprm ' /proc/modules; then
		echo "cxprm already loaded (run-guest.sh without --no-load?): unloading it first"
		rmmod cxprm || { echo "rmmod of the preloaded module failed"; return 1; }
	fi
	# A parameter out of range fails the load with a message.
	if insmod "$KO" poll_interval_ms=0 2>/dev/null; then
		echo "FAIL: insmod with poll_interval_ms=0 succeeded"
		rmmod cxprm
		return 1
	fi
	dmesg | grep -q 'poll_interval_ms=0' || { echo "FAIL: no message about poll_interval_ms=0"; return 1; }
	echo "insmod poll_interval_ms=0 refused: $(dmesg | grep 'poll_interval_ms=0' | tail -n 1)"
	# shellcheck disable=SC2086 # MODPARAMS is a list of words
	insmod "$KO" $MODPARAMS $extra || { echo "insmod $KO $MODPARAMS $extra failed"; dmesg | tail -20; return 1; }
	echo "insmod $KO $MODPARAMS $extra"
	for p in "$PARAM"/*; do echo "param ${p##*/}=$(cat "$p")"; done
	bind_cxprm "$CXPRM_BDF" || { echo "bind $CXPRM_BDF failed"; dmesg | tail -30; return 1; }
	[ -c "/dev/cxprm/$CXPRM_BDF" ] || { echo "no /dev/cxprm/$CXPRM_BDF"; return 1; }
	dmesg | grep -E 'cxprm .*(HCA up|events:)' | tail -3
	emu ping >/dev/null 2>&1 ||
		echo "warning: no emulator control page (iomem=relaxed missing?): tests needing it will fail"
	return 0
}

step_unload() {
	rc=0
	# Refused while a file is open (the module is in use).
	exec 3<"/dev/cxprm/$CXPRM_BDF"
	if rmmod cxprm 2>/dev/null; then
		echo "FAIL: rmmod succeeded with /dev/cxprm/$CXPRM_BDF open"
		exec 3<&-
		return 1
	fi
	echo "rmmod with an open file refused"
	exec 3<&-
	mark=$(dmesg | wc -l)
	rmmod cxprm || { echo "rmmod cxprm failed"; return 1; }
	grep -q '^cxprm ' /proc/modules && { echo "cxprm still loaded"; rc=1; }
	[ -e "/dev/cxprm/$CXPRM_BDF" ] && { echo "/dev/cxprm/$CXPRM_BDF still there"; rc=1; }
	since_mark | grep -E 'cxprm' | sed 's/^/dmesg: /'
	pages_given
	[ -n "$line" ] || echo "FAIL: no 'pages given' line in dmesg after rmmod"
	if [ -z "$given" ] || [ "$given" = 0 ] || [ "$given" != "$reclaimed" ]; then
		echo "FAIL: pages given '${given}' reclaimed '${reclaimed}'"
		rc=1
	fi
	held=$(emu pages-held 2>&1)
	echo "emulator: pages held $held"
	[ "$held" = 0 ] || { echo "FAIL: the firmware still holds $held pages after rmmod"; rc=1; }
	st=$(emu hca-state 2>&1)
	case "$st" in
	0 | DISABLED*) echo "emulator: HCA $st" ;;
	*) echo "FAIL: emulator HCA state $st, not DISABLED"; rc=1 ;;
	esac
	for c in objects-leaked pages-leaked eq-overruns dma-refused; do
		v=$(emu counter "$c" 2>&1)
		echo "emulator: $c $v"
		[ "$v" = 0 ] || { echo "FAIL: emulator counter $c = $v"; rc=1; }
	done
	since_mark | grep -q "$CXPRM_BDF: removed" ||
		since_mark | grep -q 'removed' || { echo "FAIL: no 'removed' in dmesg"; rc=1; }
	return $rc
}

# Stress: cxprm_stress_test (processes x ioctls under injected faults,
# unbind under load, rebind); then rmmod under load: processes hammering
# and the firmware asking for pages and back; rmmod is refused at once
# while files are open, the unbind they then see completes, rmmod
# completes with every page back; the module is loaded again.
step_stress() {
	timeout -s KILL "$TMO" "$here/cxprm_stress_test" || return 1
	rc=0
	emu fault-clear >/dev/null 2>&1
	emu fault slow-ms 2 >/dev/null || echo "warning: cannot make the firmware slow"
	CXPRM_STRESS_HAMMER=30 "$here/cxprm_stress_test" &
	hp=$!
	(
		i=0
		while [ $i -lt 200 ] && [ ! -e /tmp/cxprm-storm-stop ]; do
			emu request-pages 16 >/dev/null 2>&1
			emu request-pages -16 >/dev/null 2>&1
			i=$((i + 1))
		done
		echo "page requests sent: $((i * 2))"
	) &
	sp=$!
	sleep 2
	ts=$(uptime_s)
	if rmmod cxprm 2>/dev/null; then
		echo "FAIL: rmmod succeeded while processes hold the device"
		rc=1
	fi
	echo "rmmod with 4 processes hammering refused after $(elapsed "$ts")s"
	mark=$(dmesg | wc -l)
	ts=$(uptime_s)
	echo "$CXPRM_BDF" >/sys/bus/pci/drivers/cxprm/unbind || { echo "FAIL: unbind"; rc=1; }
	echo "unbind under load took $(elapsed "$ts")s"
	wait $hp || { echo "FAIL: a hammering process saw an error other than ENODEV"; rc=1; }
	ts=$(uptime_s)
	rmmod cxprm || { echo "FAIL: rmmod after the unbind"; rc=1; }
	echo "rmmod took $(elapsed "$ts")s"
	touch /tmp/cxprm-storm-stop
	wait $sp
	rm -f /tmp/cxprm-storm-stop
	emu fault slow-ms 0 >/dev/null
	pages_given
	echo "dmesg: $line"
	if [ -z "$given" ] || [ "$given" != "$reclaimed" ]; then
		echo "FAIL: pages given '$given' reclaimed '$reclaimed'"
		rc=1
	fi
	held=$(emu pages-held 2>&1)
	[ "$held" = 0 ] || { echo "FAIL: the firmware still holds $held pages"; rc=1; }
	dcts=$(emu dcts 2>&1)
	[ "$dcts" = 0 ] || { echo "FAIL: the firmware still has $dcts DCTs"; rc=1; }
	# Back for the steps that follow.
	load_bound || return 1
	return $rc
}

# A bring-up whose INIT_HCA answer is lost (the command ran): the function
# stays bound in state ERROR.  Its unwind cannot get the boot pages back
# (DISABLE_HCA is refused on an HCA that may be initialised) and the lost
# command still owns its queue entry and mailboxes: unbind turns bus
# mastering off, then frees both.  Runs with the module unloaded, after the
# last `unload`: the emulator's function reset counts the pages it never
# got back in its pages-leaked counter, which `unload` wants at 0.
step_bringup_fail() {
	rc=0
	emu fault-clear >/dev/null
	# Only INIT_HCA, once, never completed; armed before insmod, which
	# binds at once when driver_override is still set.
	if ! emu fault only-opcode INIT_HCA >/dev/null || ! emu fault once on >/dev/null ||
		! emu fault never-complete on >/dev/null; then
		echo "FAIL: emulator faults"
		return 1
	fi
	mark=$(dmesg | wc -l)
	# shellcheck disable=SC2086 # MODPARAMS is a list of words
	insmod "$KO" $MODPARAMS || { echo "insmod failed"; return 1; }
	bind_cxprm "$CXPRM_BDF" || { echo "FAIL: the function did not stay bound after a failed bring-up"; rc=1; }
	since_mark | grep -q 'bring-up failed: ETIMEDOUT' ||
		{ echo "FAIL: no 'bring-up failed: ETIMEDOUT' in dmesg"; rc=1; }
	echo "$CXPRM_BDF" >/sys/bus/pci/drivers/cxprm/unbind || { echo "FAIL: unbind"; rc=1; }
	since_mark | grep -E 'cxprm .*(bring-up failed|pages given|freed)' |
		sed 's/^/dmesg: /'
	line=$(since_mark | grep 'stranded pages and' | tail -n 1)
	case "$line" in
	*"freed "*" stranded pages and 3 cmdq buffers"*) ;;
	*) echo "FAIL: the stranded pages and the lost command's 3 queue buffers were not freed"; rc=1 ;;
	esac
	emu fault-clear >/dev/null
	emu function-reset >/dev/null || { echo "FAIL: emulator function reset"; rc=1; }
	rmmod cxprm || { echo "FAIL: rmmod"; rc=1; }
	return $rc
}

# Health poller: load with a short interval; a stopped health counter and a
# syndrome without rfr are only warned about, then a firmware reset
# (nic_interface SW_RESET) under commands it never answers: the driver gives
# the device up (sticky): run after the last unload, before the crash.
step_stall() {
	fault_run STALL health_poll_ms=100 health_stall_polls=3 recovery=0 || return 1
	dmesg | grep -E 'health: (counter|syndrome)' | tail -n 2 | sed 's/^/dmesg: /'
	dmesg | grep -q 'health: counter .* device kept' || { echo "FAIL: no stall warning in dmesg"; rc=1; }
	# Whoever finds the failure first (a waiting command, or the poller
	# within 100 ms here) says it once: wait for that line, up to 5 s.
	dmesg_wait 'health: device failed' 50 || { echo "FAIL: no 'health: device failed' in dmesg"; rc=1; }
	dmesg | grep 'health: device failed' | tail -n 1 | sed 's/^/dmesg: /'
	rmmod_timed "the failed device" || return 1
	dmesg | grep -E 'cxprm .*(pages given|stranded|teardown)' | tail -n 3 | sed 's/^/dmesg: /'
	# The host resets the function (what the driver could not on ivshmem).
	emu function-reset || { echo "FAIL: emulator function reset"; rc=1; }
	return "$rc"
}

# The recovery steps: recover, recover-norestart, soak-crash, suspend.
# shellcheck source=selftests/cxprm/helpers/guest_steps_recovery.sh
. "$here/guest_steps_recovery.sh"

# Surprise removal: load with a short health poll, the device reads all
# ones; the driver marks it GONE, every command fails with ENODEV, rmmod
# completes and frees every page (a gone device cannot DMA).  Then the
# function comes back (emulator function reset) for the steps after.
step_gone() {
	fault_run GONE health_poll_ms=100 || return 1
	rmmod_timed "the gone device" || return 1
	pages_given
	echo "dmesg: $line"
	case "$line" in
	*"stranded 0)"*) ;;
	*) echo "FAIL: pages of a gone device not all freed"; rc=1 ;;
	esac
	emu function-reset || { echo "FAIL: emulator function reset"; rc=1; }
	return "$rc"
}

# Kernel lockdown (not in ALL: it cannot be undone, so make check-guest
# runs "load lockdown" in a boot of its own).  Raised at run time to
# integrity, after cxprm.ko is loaded: a kernel booted with
# lockdown=integrity loads signed modules only, and the test's cxprm.ko
# is not signed by a key the kernel trusts.  The check itself is the
# same either way (security_locked_down(LOCKDOWN_PCI_ACCESS)): raw writes
# are refused with EPERM and a message naming lockdown, queries work.
step_lockdown() {
	# (not 'out': the runner's output file)
	lk=/sys/kernel/security/lockdown
	[ -e "$lk" ] || mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	[ -e "$lk" ] || { echo "FAIL: no $lk (the lockdown LSM is in every supported Debian kernel)"; return 1; }
	[ -n "$CXPRM_TOOL" ] || { echo "FAIL: no cxprm CLI in the guest"; return 1; }
	dev=$CXPRM_BDF
	"$CXPRM_TOOL" raw "$dev" --opcode NOP >/dev/null || { echo "FAIL: raw NOP before lockdown"; return 1; }
	echo integrity >"$lk" || { echo "FAIL: cannot raise lockdown"; return 1; }
	echo "lockdown: $(cat "$lk")"
	grep -q '\[integrity\]' "$lk" || { echo "FAIL: lockdown not integrity"; return 1; }
	rc=0
	if msg=$("$CXPRM_TOOL" raw "$dev" --opcode NOP 2>&1); then
		echo "FAIL: raw NOP (a write) allowed under lockdown"
		rc=1
	fi
	echo "raw NOP under lockdown: $msg"
	case $msg in
	*EPERM*"locked down"*) ;;
	*) echo "FAIL: the refusal is not EPERM naming lockdown"; rc=1 ;;
	esac
	dmesg | grep -q 'Lockdown: .*direct PCI access' || { echo "FAIL: no lockdown line in dmesg"; rc=1; }
	dmesg | grep 'Lockdown:' | tail -n 1 | sed 's/^/dmesg: /'
	"$CXPRM_TOOL" raw "$dev" --opcode QUERY_ADAPTER >/dev/null || { echo "FAIL: a query under lockdown"; rc=1; }
	"$CXPRM_TOOL" --json info "$dev" >/dev/null || { echo "FAIL: info under lockdown"; rc=1; }
	return "$rc"
}

# The emulator stays crashed after this: run it last.  The health poller
# off: the command that finds the firmware dead must fail the device (and
# wake readers) itself.
step_crash() {
	fault_run CRASH health_poll_ms=0 recovery=0 || return 1
	rmmod cxprm || { echo "rmmod after the crash failed"; return 1; }
	since_mark | grep cxprm | sed 's/^/dmesg: /'
	dmesg | grep -E 'cxprm .*(pages given|stranded|teardown)' | tail -n 4 | sed 's/^/dmesg: /'
	return "$rc"
}

# failnth: kernel allocation fault injection (cxprm_failnth; the debug
# kernel's failslab and fail_page_alloc, per task through fail-nth as
# syzkaller uses them): for every path and n = 1, 2, ... the n-th
# allocation fails.  Sleeping allocations and order-0 pages must be
# failable (the knobs' defaults spare them); the fault reports themselves
# stay quiet (verbose 0), so any report in dmesg is a real one.  Then
# debug-check: no leak, no DMA-API error, no report.  failnth:P1,P2 runs
# only those paths.
FAILNTH_PATHS="bind open info caps nvmf esw dct_create dct_query dct_drain dct_destroy obj_create obj_destroy stats raw subscribe read close recover unbind rmmod"
step_failnth() {
	for a in failslab fail_page_alloc; do
		d=/sys/kernel/debug/$a
		[ -d "$d" ] || { echo "no $d (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"; return 1; }
		echo N >"$d/ignore-gfp-wait" && echo 0 >"$d/verbose" || return 1
	done
	echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem &&
		echo 0 >/sys/kernel/debug/fail_page_alloc/min-order || return 1
	# shellcheck disable=SC2086 # a list of words
	CXPRM_KO=$KO CXPRM_MODPARAMS=$MODPARAMS "$here/cxprm_failnth" ${1:-$FAILNTH_PATHS}
	rc=$?
	for a in failslab fail_page_alloc; do echo Y >"/sys/kernel/debug/$a/ignore-gfp-wait"; done
	if dmesg | grep -Eq "$SPLAT_RE"; then
		echo "FAIL: kernel reports in dmesg:"
		dmesg | grep -E -A 12 "$SPLAT_RE" | head -n 60
		rc=1
	fi
	return $rc
}

# debug-start: kmemleak forgets every object allocated so far (boot), so
# debug-check reports only what the tests leaked.
step_debug_start() {
	if [ -e /sys/kernel/debug/kmemleak ]; then
		echo clear >/sys/kernel/debug/kmemleak || { echo "FAIL: kmemleak clear"; return 1; }
		echo "kmemleak: cleared"
	fi
	if [ -r /sys/kernel/debug/dma-api/error_count ]; then
		echo "dma-api: error_count $(cat /sys/kernel/debug/dma-api/error_count) at start"
	fi
	return 0
}

# A checker the kernel lacks: fine, unless CXPRM_REQUIRE_DEBUG=1.
need_checker() {
	[ "$CXPRM_REQUIRE_DEBUG" = 1 ] || return 0
	echo "FAIL: no $1 in this kernel (CXPRM_REQUIRE_DEBUG=1)"
	return 1
}

# debug-check: after every other step (cxprm.ko loaded, crashed, unloaded):
# no kmemleak suspect, no DMA-API error, lockdep still on (it turns itself
# off after its first report), and no checker report in dmesg.
step_debug_check() {
	rc=0
	if [ -e /sys/kernel/debug/kmemleak ]; then
		# An object must stay unreferenced for 5 s before kmemleak
		# reports it; two scans catch what the first one only aged.
		sleep 6
		echo scan >/sys/kernel/debug/kmemleak
		sleep 1
		echo scan >/sys/kernel/debug/kmemleak
		leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
		echo "kmemleak: $leaks unreferenced objects"
		if [ "$leaks" != 0 ]; then
			head -n 60 /sys/kernel/debug/kmemleak
			rc=1
		fi
	else
		echo "kmemleak: not in this kernel"
		need_checker kmemleak || rc=1
	fi
	if [ -r /sys/kernel/debug/dma-api/error_count ]; then
		errs=$(cat /sys/kernel/debug/dma-api/error_count)
		echo "dma-api: error_count $errs"
		[ "$errs" = 0 ] || rc=1
	else
		echo "dma-api: not in this kernel"
		need_checker "DMA-API debug" || rc=1
	fi
	if [ -r /proc/lockdep_stats ]; then
		dl=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)
		echo "lockdep: debug_locks $dl ($(sed -n 's/^ *lock-classes: *//p' /proc/lockdep_stats) lock classes)"
		[ "$dl" = 1 ] || rc=1
	else
		echo "lockdep: not in this kernel"
		need_checker lockdep || rc=1
	fi
	if dmesg | grep -Eq "$SPLAT_RE"; then
		echo "FAIL: kernel reports in dmesg:"
		dmesg | grep -E -A 12 "$SPLAT_RE" | head -n 80
		rc=1
	fi
	[ $rc = 0 ] && echo "checkers: nothing reported"
	return $rc
}

# kselftest "ok N name # SKIP reason" lines whose reason the step does not
# cause on purpose (stdin: the step's output; $1: the step).
unexpected_skips() {
	# cxprm_obj_test's BAD_RES check while cxprm-emud runs
	# --lenient-objects (run-guest.sh's choice, not a broken setup).
	allowed='set CXPRM_TEST_|set CXPRM_SOAK_CRASHES|CXPRM_SOAK_CRASHES set|the emulator runs --lenient-objects|this kernel cannot suspend'
	case "$1" in
	*allow_raw_write=0) allowed="$allowed|needs allow_raw_write=1" ;;
	esac
	grep -E '^ *ok [0-9]+ .*# SKIP' | grep -Ev "# SKIP ($allowed)" |
		sed 's/.*# SKIP //' | sort -u | tr '\n' ';'
}

# --- the runner ----------------------------------------------------------------

n=0
for s in $STEPS; do n=$((n + 1)); done
echo "TAP version 13"
echo "1..$n"
t_all=$(uptime_s)
i=0 pass=0 fail=0 skip=0 failed=""
for s in $STEPS; do
	i=$((i + 1))
	name=$s
	t0=$(uptime_s)
	echo "# selftests: cxprm: $name"
	out=/tmp/cxprm-step.$i
	case "$s" in
	load | load:*) step_load "${s#load}" >"$out" 2>&1; rc=$? ;;
	soak | soak:*)
		# cxprm_soak_test: the short run (3000 ioctls) in every guest
		# stage; soak:N (make soak) N ioctls, an hour allowed.
		n_ioctls=${s#soak}
		n_ioctls=${n_ioctls#:}
		CXPRM_SOAK_IOCTLS=${n_ioctls:-3000} timeout -s KILL "$([ -n "$n_ioctls" ] && echo 3600 || echo "$TMO")" \
			"$here/cxprm_soak_test" >"$out" 2>&1
		rc=$?
		;;
	failnth:*) step_failnth "$(echo "${s#failnth:}" | tr , ' ')" >"$out" 2>&1; rc=$? ;;
	recover | recover:*) step_recover "${s#recover}" >"$out" 2>&1; rc=$? ;;
	recover-norestart*) step_recover_norestart "${s#recover-norestart}" >"$out" 2>&1; rc=$? ;;
	soak-crash | soak-crash:*) step_soak_crash "${s#soak-crash}" >"$out" 2>&1; rc=$? ;;
	suspend | suspend:*) step_suspend "${s#suspend}" >"$out" 2>&1; rc=$? ;;
	crash | stress | stall | bringup-fail | gone | debug-start | debug-check | unload | failnth | lockdown)
		"step_$(echo "$s" | tr - _)" >"$out" 2>&1
		rc=$?
		;;
	*:allow_raw_write=*)
		prog=${s%%:*}
		val=${s#*:allow_raw_write=}
		old=$(cat "$PARAM/allow_raw_write" 2>/dev/null)
		if echo "$val" >"$PARAM/allow_raw_write" 2>/dev/null; then
			timeout -s KILL "$TMO" "$here/$prog" >"$out" 2>&1
			rc=$?
		else
			echo "cannot set allow_raw_write=$val" >"$out"
			rc=1
		fi
		[ -n "$old" ] && echo "$old" >"$PARAM/allow_raw_write"
		;;
	*.sh)
		timeout -s KILL "$TMO" sh "$here/$s" >"$out" 2>&1
		rc=$?
		;;
	*)
		if [ -x "$here/$s" ]; then
			timeout -s KILL "$TMO" "$here/$s" >"$out" 2>&1
			rc=$?
		else
			echo "$here/$s: not found" >"$out"
			rc=1
		fi
		;;
	esac
	# A test that skips for a reason this run should never have (no
	# control page, no poller, a module parameter off) would hide a
	# broken setup as a pass: only the skips the steps cause on purpose
	# are allowed.
	bad=$(unexpected_skips "$s" <"$out")
	if [ -n "$bad" ] && [ "$rc" = 0 ]; then
		echo "FAIL: unexpected skips: $bad" >>"$out"
		rc=1
	fi
	sed 's/^/# /' "$out"
	rm -f "$out"
	dt=$(elapsed "$t0")
	if [ $rc = 0 ]; then
		echo "ok $i selftests: cxprm: $name # ${dt}s"
		pass=$((pass + 1))
	elif [ $rc = 4 ]; then
		echo "ok $i selftests: cxprm: $name # SKIP"
		skip=$((skip + 1))
	elif [ $rc = 137 ]; then
		echo "not ok $i selftests: cxprm: $name # TIMEOUT $TMO seconds"
		fail=$((fail + 1))
		failed="$failed $name"
	else
		echo "not ok $i selftests: cxprm: $name # exit=$rc"
		fail=$((fail + 1))
		failed="$failed $name"
	fi
	# Stop early when the module is not there: nothing else can pass.
	if [ "${s%%:*}" = load ] && [ $rc != 0 ]; then
		echo "# load failed: not running the rest"
		break
	fi
done
echo "# cxprm selftests: $pass passed, $fail failed, $skip skipped of $n in $(elapsed "$t_all")s${failed:+ (failed:$failed)}"
if dmesg | grep -Eq "$SPLAT_RE"; then
	echo "# kernel splat in dmesg:"
	dmesg | grep -E -A 20 "$SPLAT_RE" | head -60 | sed 's/^/# /'
	fail=$((fail + 1))
fi
[ $fail = 0 ]
