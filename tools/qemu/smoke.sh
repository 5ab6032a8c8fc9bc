#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end smoke test of cxprm.ko in QEMU:
#   1. builds the module (Kbuild) and the placeholder host program;
#   2. boots the guest with a fresh fw_rev value in the emulated BAR;
#   3. in the guest: insmod, bind the ivshmem device via driver_override,
#      check that dmesg shows that fw_rev, that the C++ self-test passed and
#      that the host program read the DMA pattern (FNV-1a matches), that
#      /dev/cxprm/<bdf> exists; unbind, bind again, unbind, rmmod;
#   4. on the host: checks the host program saw the pattern in the RAM file
#      at the guest-physical address the guest published, twice.
# Exit 0 on success.
#
#   tools/qemu/smoke.sh [--no-build] [run-guest.sh options...]
#
# Environment: KDIR (kernel build tree, default
# /lib/modules/<kver>/build or /usr/src/linux-headers-<kver>), KVER.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$repo/.cache/qemu
mkdir -p "$cache"

build=1
if [ "${1:-}" = --no-build ]; then
	build=0
	shift
fi

if [ -z "${KDIR:-}" ]; then
	if [ -z "${KVER:-}" ]; then
		KVER=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
		KVER=${KVER#/boot/vmlinuz-}
	fi
	for d in "/lib/modules/$KVER/build" "/usr/src/linux-headers-$KVER"; do
		if [ -e "$d/Makefile" ]; then KDIR=$d; break; fi
	done
fi
[ -n "${KDIR:-}" ] || { echo "smoke: no kernel build tree; set KDIR" >&2; exit 1; }

t0=$(date +%s.%N)
if [ "$build" = 1 ]; then
	echo "smoke: building cxprm.ko against $KDIR"
	make -s -C "$KDIR" M="$repo" modules
fi
t1=$(date +%s.%N)
gcc -O2 -Wall -Wextra -I"$repo/core-cpp/include" -o "$cache/cxprm-fakedev" \
	"$here/cxprm-fakedev.c"

# A value nobody else writes: proves the guest read what the host program put there.
fw_rev=$(printf '0x%04x%04x' $((RANDOM % 100)) $((16 + RANDOM % 16)))
cmdif=0x000507e8

script=$(mktemp "${TMPDIR:-/tmp}/cxprm-smoke.XXXXXXXX")
console=$(mktemp "${TMPDIR:-/tmp}/cxprm-smoke-console.XXXXXXXX")
emulog=$(mktemp "${TMPDIR:-/tmp}/cxprm-smoke-emu.XXXXXXXX")
trap 'rm -f "$script" "$console" "$emulog"' EXIT

cat >"$script" <<EOF
fail() { echo "SMOKE-FAIL: \$*"; dmesg | tail -n 40; exit 1; }
bdf=\$CXPRM_BDF
[ -n "\$bdf" ] || fail "no ivshmem device in the guest"
echo "smoke: ivshmem device \$bdf: \$(cat /sys/bus/pci/devices/\$bdf/vendor):\$(cat /sys/bus/pci/devices/\$bdf/device)"
grep 'System RAM' /proc/iomem

insmod /cxprm/cxprm.ko || fail "insmod"
[ -e "/sys/bus/pci/devices/\$bdf/driver" ] && fail "cxprm bound without driver_override"
cxprm-bind "\$bdf" || fail "bind"

dmesg | grep -q "init segment: fw_rev $fw_rev cmdif_rev_fw_sub $cmdif" ||
	fail "fw_rev $fw_rev not in dmesg"
dmesg | grep -q "C++ selftest: host interface ok, fw_rev $fw_rev" || fail "C++ selftest"
[ "\$(dmesg | grep -c 'DMA proof: host read 4096 bytes at bus .* matches')" = 1 ] ||
	fail "DMA proof"
[ -c "/dev/cxprm/\$bdf" ] || fail "no /dev/cxprm/\$bdf"
ls -l /dev/cxprm/

cxprm-unbind "\$bdf" || fail "unbind"
dmesg | grep -q "\$bdf: removed" || fail "remove"
[ -e "/dev/cxprm/\$bdf" ] && fail "/dev/cxprm/\$bdf still there after unbind"
cxprm-bind "\$bdf" || fail "rebind"
[ "\$(dmesg | grep -c 'DMA proof: host read 4096 bytes at bus .* matches')" = 2 ] ||
	fail "DMA proof after rebind"
rmmod cxprm || fail "rmmod"
grep -q '^cxprm ' /proc/modules && fail "cxprm still loaded"
[ -e "/sys/bus/pci/devices/\$bdf/driver" ] && fail "device still bound after rmmod"
[ "\$(dmesg | grep -c "\$bdf: removed")" = 2 ] || fail "remove on rmmod"
dmesg | grep -E 'cxprm( |: )'
echo "SMOKE-GUEST-OK"
EOF

t2=$(date +%s.%N)
rc=0
"$here/run-guest.sh" --no-load --script "$script" \
	--emulator "$cache/cxprm-fakedev --fw-rev $fw_rev --cmdif $cmdif" \
	--console-log "$console" --emulator-log "$emulog" "$@" || rc=$?
t3=$(date +%s.%N)

fail() {
	echo "smoke: FAIL: $*" >&2
	exit 1
}
[ "$rc" = 0 ] || fail "guest run failed with status $rc"
tr -d '\r' <"$console" | grep -qx SMOKE-GUEST-OK || fail "guest checks did not finish"
n=$(grep -c 'DMA proof: .*"CXPRM-DMA-PROOF", pattern dwords 1020/1020 ok' "$emulog" || true)
[ "$n" = 2 ] || fail "host program saw the DMA pattern $n times, expected 2"
# The host read the address the guest published, and hashed what the guest hashed.
while read -r gpa fnv; do
	tr -d '\r' <"$console" | grep -q "DMA proof: host read 4096 bytes at bus $gpa, fnv1a $fnv matches" ||
		fail "host read $gpa/$fnv, the guest does not agree"
done < <(sed -n 's/.*guest-phys \(0x[0-9a-f]*\) .*fnv1a \(0x[0-9a-f]*\)$/\1 \2/p' "$emulog")

guest_init=$(tr -d '\r' <"$console" | sed -n 's/^CXPRM-GUEST: init at \([0-9.]*\)s.*/\1/p')
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v g="$guest_init" 'BEGIN {
	printf "smoke: build %.1fs, QEMU run %.1fs (guest init after %ss of guest uptime)\n", b - a, d - c, g }'
echo "smoke: PASS (fw_rev $fw_rev seen by the guest, DMA pattern seen by the host twice)"
