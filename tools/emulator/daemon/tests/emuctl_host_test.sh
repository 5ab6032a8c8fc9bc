#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest-side control tool (tools/qemu/guest/emuctl.sh) against a live
# cxprm-emud, on the host: a fake devmem reads and writes the BAR file
# instead of /dev/mem, at a made-up physical address (EMUCTL_BASE), and the
# script runs under busybox sh, as in the guest.
#
#   emuctl_host_test.sh CXPRM_EMUD EMUCTL_SH
set -euo pipefail

emud=$1
emuctl=$2
sh_cmd=(sh)
if command -v busybox >/dev/null && busybox sh -c true 2>/dev/null; then
	sh_cmd=(busybox sh)
fi

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
for _ in $(seq 100); do
	[ -e "$dir/ready" ] && break
	sleep 0.05
done
[ -e "$dir/ready" ] || { cat "$dir/log"; echo "FAIL: daemon not ready" >&2; exit 1; }

# devmem ADDRESS 32 [VALUE] on the BAR file; "physical" base 0x800000000.
cat >"$dir/devmem" <<'EOF'
#!/bin/bash
set -e
off=$(($1 - 0x800000000))
[ "${2:-32}" = 32 ] || { echo "fake devmem: width 32 only" >&2; exit 1; }
if [ $# -ge 3 ]; then
	v=$(($3))
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))" |
		dd of="$FAKE_BAR" bs=4 count=1 seek=$((off / 4)) conv=notrunc status=none
else
	printf '0x%08X\n' "0x$(od -An -tx4 -j "$off" -N4 "$FAKE_BAR" | tr -d ' ')"
fi
EOF
chmod +x "$dir/devmem"
export FAKE_BAR=$dir/bar EMUCTL_DEVMEM=$dir/devmem
export EMUCTL_BASE=$((0x800000000 + 0xff000))

ctl() { "${sh_cmd[@]}" "$emuctl" "$@"; }
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
expect_rc 1 request-pages 8	# not INITIALIZED
expect "" mark 7
expect "" fault delivery-status 6 2 --only-opcode QUERY_ISSI --once
expect "" fault slow-ms 10
expect "" fault-clear
expect "" fault never-complete on
expect "" fault never-complete off
expect "" fault corrupt-signature both
expect "" fault crash-int-err off
expect "1 0" raw 0x7777
expect_rc 2 bogus
expect "" wait 2
EMUCTL_DEVMEM=false expect_rc 3 ping	# devmem refused (no iomem=relaxed in a guest)
expect_rc 2 fault bogus
expect_rc 2 set-num-vfs x
expect_rc 2 fault never-complete maybe
expect_rc 2 opcode-count NOT_AN_OPCODE
expect 0 query 12 1	# raw query: pages-wanted boot (nothing before ENABLE_HCA)
t1=$(date +%s.%N)

grep -q 'guest mark 7' "$dir/log" || fail "mark not in the daemon log"
# The selectors were set before the knob.
grep -o 'fault [a-z_]*(' "$dir/log" | head -n 3 | tr -d '(' | tr '\n' ' ' |
	grep -qx 'fault only_opcode fault once fault delivery_status ' ||
	fail "fault order: $(grep -o 'fault [a-z_]*(' "$dir/log" | head -n 3 | tr '\n' ' ')"
grep -q 'fault delivery_status(4) = 0x6 (0x2): ok' "$dir/log" || fail "delivery_status knob"

# A frozen daemon: the magic is there, no answer -> exit 4 after --timeout.
kill -STOP "$pid"
expect_rc 4 --timeout 1 ping
kill -CONT "$pid"
expect "cxprm-emud control version 1" ping	# the stale command is answered, then this one

# device_gone: the control page survives.
expect "" fault device-gone
expect 1 gone

# Nothing behind another address; nothing after the daemon exits.
EMUCTL_BASE=$((0x800000000 + 0x1000)) expect_rc 3 ping
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
echo "emuctl_host_test: PASS (${sh_cmd[*]})"
