#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's control page client (tools/emulator/emuctl, /bin/emuctl in
# the guest) against a live cxprm-emud, on the host: the same program maps
# the daemon's BAR file (EMUCTL_BAR_FILE) instead of the PCI BAR.
#
#   emuctl_host_test.sh CXPRM_EMUD EMUCTL
set -euo pipefail

emud=$1
emuctl=$2

base=/dev/shm
[ -w "$base" ] || base=${TMPDIR:-/tmp}
dir=$(mktemp -d "$base/cxprm-emuctl-test.XXXXXXXX")
pid=""
cleanup() {
	if [ -n "$pid" ]; then
		kill -CONT "$pid" 2>/dev/null || true
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

truncate -s 16M "$dir/ram"
truncate -s 1M "$dir/bar"
"$emud" --ram "$dir/ram" --bar "$dir/bar" --init-delay-ms 0 --profile bf3 \
	--log "$dir/log" --ready-file "$dir/ready" &
pid=$!
for _ in $(seq 400); do
	[ -e "$dir/ready" ] && break
	sleep 0.05
done
[ -e "$dir/ready" ] || { cat "$dir/log"; echo "FAIL: daemon not ready" >&2; exit 1; }

export EMUCTL_BAR_FILE=$dir/bar

ctl() { "$emuctl" "$@"; }
expect() { # expect WANT CMD...
	local want=$1 got rc=0
	shift
	got=$(ctl "$@" 2>&1) || rc=$?
	[ "$rc" = 0 ] || { fail "emuctl $* exited $rc: $got"; return; }
	[ "$got" = "$want" ] || fail "emuctl $*: got '$got', want '$want'"
}
expect_rc() { # expect_rc RC CMD...
	local want=$1 rc=0 out
	shift
	out=$(ctl "$@" 2>&1) || rc=$?
	[ "$rc" = "$want" ] || fail "emuctl $*: exit $rc, want $want ($out)"
}

t0=$(date +%s.%N)
expect "cxprm-emud control version 1" ping
info=$(ctl info)
grep -q '^device id   0xa2dc$' <<<"$info" || fail "info: device id"
grep -q '^firmware    32.39.1002$' <<<"$info" || fail "info: firmware"
grep -q "^pid         $pid\$" <<<"$info" || fail "info: pid"
grep -q '^control     +0xff000$' <<<"$info" || fail "info: control page offset"
expect DISABLED hca-state
expect 0 pages-held
expect 0 commands
expect 0 num-vfs
expect 0 opcode-count ENABLE_HCA
expect 0 pages-wanted boot
expect 0 counter dma-refused
expect "" set-num-vfs 4
expect 4 num-vfs
expect_rc 1 set-num-vfs 99
# The emulated SSD: queue pair 1 as nvmf setup takes it, its statistics.
expect "--sq-addr 0xf000010000 --cq-addr 0xf000011000 --sq-doorbell 0xf000001008 --db-stride 0 --queue-depth 64" nvme-queue 1
expect_rc 1 nvme-queue 99
expect 0 nvme-stat commands
expect 0 nvme-stat bad-doorbells
expect_rc 2 nvme-stat nonsense
expect_rc 1 request-pages 8	# not INITIALIZED
expect "" mark 7
expect "" fault delivery-status 6 2 --only-opcode QUERY_ISSI --once
expect "" fault slow-ms 10
expect "" fault-clear
expect "" fault never-complete on
expect "" fault never-complete off
expect "" fault corrupt-signature both
expect "" fault crash-int-err off
expect "" fw-restart 5	# the firmware restarts: 'initializing' for 5 ms
expect 1 counter fw-restarts
expect "" fw-restart
expect 2 counter fw-restarts
expect_rc 2 fw-restart 1 2
expect "1 0" raw 0x7777
expect_rc 2 bogus
expect "" wait 2
EMUCTL_BAR_FILE=$dir/none expect_rc 3 ping	# no BAR to map
EMUCTL_BAR_FILE=$dir/ram expect_rc 3 ping	# a BAR without the daemon
expect_rc 3 --bar-file "$dir/none" ping
EMUCTL_BAR_FILE=$dir/ram expect_rc 3 wait 1
expect_rc 2 fault bogus
expect_rc 2 set-num-vfs x
expect_rc 2 fault never-complete maybe
expect_rc 2 opcode-count NOT_AN_OPCODE
expect 0 query 12 1	# raw query: pages-wanted boot (nothing before ENABLE_HCA)
expect 4 query num-vfs
# Every name from the one definition, in either spelling.
expect 4 NUM_VFS
expect 0 counter EQ_OVERRUNS
expect 0 opcode-count 2err-qp
expect 0 last-status
expect 0x0 last-syndrome
expect 0 fn-pages-held 0 0
expect 0 fn-enabled 0 0	# the host PF: "initializing" until the ECPF enables it
expect 0 fn-enabled 0 1	# the ECPF itself: no driver yet
expect_rc 1 nvmf-counter 1 1 read-cmds	# no such namespace
expect_rc 2 nvmf-counter 1 1 bogus
expect_rc 2 counter bogus
expect_rc 2 pages-wanted sometimes
expect_rc 2 hca-state 1
expect_rc 2
expect_rc 0 --help
# Knobs by number, and the values each kind of knob defaults to.
expect "" fault 7 3
expect "" fault health-syndrome
expect "" fault only-opcode any
expect "" fault wrong-token
expect "" fault-clear
t1=$(date +%s.%N)

grep -q 'guest mark 7' "$dir/log" || fail "mark not in the daemon log"
# The selectors were set before the knob.
grep -o 'fault [a-z_]*(' "$dir/log" | head -n 3 | tr -d '(' | tr '\n' ' ' |
	grep -qx 'fault only_opcode fault once fault delivery_status ' ||
	fail "fault order: $(grep -o 'fault [a-z_]*(' "$dir/log" | head -n 3 | tr '\n' ' ')"
grep -q 'fault delivery_status(4) = 0x6 (0x2): ok' "$dir/log" || fail "delivery_status knob"
for want in 'slow_ms(7) = 0x3 (0x0)' 'health_syndrome(14) = 0x10 (0x0)' 'only_opcode(10) = 0xffffffff (0x0)' \
	'wrong_output_token(3) = 0x1 (0x0)'; do
	grep -qF "fault $want: ok" "$dir/log" || fail "knob: no 'fault $want' in the log"
done

# A frozen daemon: the magic is there, no answer -> exit 4 after --timeout.
kill -STOP "$pid"
expect_rc 4 --timeout 1 ping
kill -CONT "$pid"
expect "cxprm-emud control version 1" ping	# the stale command is answered, then this one

# A crash answering INT_ERR (sticky), then device_gone: the control page survives.
expect "" fault crash int-err
expect 1 crashed
grep -qF 'fault crash(8) = 0x1 (0x1): ok' "$dir/log" || fail "crash int-err knob"
expect "" fault device-gone
expect 1 gone

# Nothing after the daemon exits.
kill -TERM "$pid"
wait "$pid" || fail "daemon exit status $?"
pid=""
expect_rc 3 ping
grep -q 'exiting on Terminated' "$dir/log" || fail "no exit line"

if [ "$fails" != 0 ]; then
	cat "$dir/log"
	exit 1
fi
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "emuctl: the command checks took %.2fs on the host\n", b - a }'
echo "emuctl_host_test: PASS"
