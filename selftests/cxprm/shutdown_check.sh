#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI shutdown callback (Documentation/faults.rst, "Shutdown"): boots
# the guest with cxprm.ko loaded and the function bound, checks it is up,
# and powers off without unbind or rmmod.  The kernel's device_shutdown()
# then runs cxprm's .shutdown; the emulator's exit line must say that the
# function was let go: HCA DISABLED, pages held 0 (none leaked), by one
# fast teardown that released every page the driver had given; the
# guest's log must show the driver's "shutdown: fast teardown" line.
#
# --vf: the same on a VF as a VM sees it (the emulator's cx7vf profile, PCI
# id 0x101e; in the guest the function is no virtfn).  The driver must take
# it for a VF by its id, as Linux does, and so come up: the emulator
# refuses a VF's HOST_ENDIANNESS write, which a PF sends.
#
#   selftests/cxprm/shutdown_check.sh [--vf] --ko KO --emud-bin EMUD [run-guest.sh options...]
#
# Called by selftests/cxprm/run.sh --shutdown (make check-guest,
# check-guest-msix); exits 0 on PASS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cxprm-shutdown.XXXXXXXX")
trap 'rm -rf "$work"' EXIT

say() { echo "shutdown-check: $*" >&2; }

vf=0
if [ "${1:-}" = --vf ]; then
	vf=1
	shift
fi

# The guest: the device must be up (INFO via sysfs/debugfs would need the
# CLI; the device node and dmesg's "HCA up" line say it), then exit 0.
# shellcheck disable=SC2016 # expanded in the guest
cmd='test -e "/dev/cxprm/$CXPRM_BDF" && dmesg | grep -q "HCA up" && echo "SHUTDOWN-CHECK: bound and up, powering off"'
profile=()
if [ "$vf" = 1 ]; then
	# shellcheck disable=SC2016 # expanded in the guest
	cmd='dmesg | grep -q "ivshmem (emulated ConnectX) VF, " && echo "SHUTDOWN-CHECK: a VF by its id" && '$cmd
	profile=(--profile cx7vf)
fi
t0=$(date +%s.%N)
rc=0
"$repo/tools/qemu/run-guest.sh" -q --verbose --emud --timeout 180 \
	--console-log "$work/console.log" --emulator-log "$work/emud.log" "$@" \
	"${profile[@]+"${profile[@]}"}" --cmd "$cmd" >"$work/run.out" 2>&1 || rc=$?
t1=$(date +%s.%N)

exit_line=$(grep 'cxprm-emud: exiting on' "$work/emud.log" 2>/dev/null | tail -n 1 || true)
summary=$(grep 'cxprm-emud: summary:' "$work/emud.log" 2>/dev/null | tail -n 1 || true)
key() { echo "$summary" | grep -oE "(^| )$1=[0-9A-Z_]+" | cut -d= -f2; }
console=$(tr -d '\r' <"$work/console.log" 2>/dev/null || true)

why=()
[ "$rc" = 0 ] || why+=("guest status $rc")
echo "$console" | grep -q '^SHUTDOWN-CHECK: bound and up' || why+=("the device was not bound and up")
[ "$vf" = 0 ] || echo "$console" | grep -q '^SHUTDOWN-CHECK: a VF by its id' ||
	why+=("the driver did not take the cx7vf function for a VF")
echo "$console" | grep -qE 'cxprm [0-9a-f:.]+: shutdown: fast teardown \(OK\)' ||
	why+=("no 'shutdown: fast teardown (OK)' line from the driver")
[ -n "$exit_line" ] || why+=("no emulator exit line")
echo "$exit_line" | grep -qE ': HCA DISABLED, ' || why+=("exit line: HCA not DISABLED")
echo "$exit_line" | grep -qE 'pages held 0 ' || why+=("exit line: pages held")
[ "$(key hca)" = DISABLED ] || why+=("summary hca=$(key hca)")
[ "$(key pages_held)" = 0 ] || why+=("pages_held=$(key pages_held)")
[ "$(key pages_leaked)" = 0 ] || why+=("pages_leaked=$(key pages_leaked)")
[ "$(key fast_teardowns)" = 1 ] || why+=("fast_teardowns=$(key fast_teardowns)")
released=$(key pages_released_fast_teardown)
[ "${released:-0}" -gt 0 ] && [ "$released" = "$(key pages_given)" ] ||
	why+=("pages_released_fast_teardown=${released:-?} of pages_given=$(key pages_given)")

secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
if [ ${#why[@]} -gt 0 ]; then
	cat "$work/run.out" >&2
	# The guest's own last words (-q keeps them out of run.out).
	tr -d '\r' <"$work/console.log" 2>/dev/null | tail -n 40 >&2
	say "FAIL (${secs}s${profile[1]:+, ${profile[1]}}): $(IFS=';'; echo "${why[*]}")"
	exit 1
fi
say "PASS (${secs}s${profile[1]:+, ${profile[1]}}): ${exit_line#*exiting on }"
