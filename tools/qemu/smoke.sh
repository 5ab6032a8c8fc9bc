#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end smoke test of cxprm.ko in QEMU, behind cxprm-emud (the
# ConnectX firmware emulator as the host process):
#   1. builds the module (Kbuild) and cxprm-emud (CMake, <repo>/build);
#   2. boots the guest with a fresh firmware version in the emulated init
#      segment;
#   3. in the guest: the emulator answers on its control page (emuctl);
#      insmod, bind the ivshmem device via driver_override, check that dmesg
#      shows that fw_rev and that /dev/cxprm/<bdf> exists; what the module
#      did to the device is checked through the emulator: nothing (no
#      command reached it) or a complete bring-up (HCA INITIALIZED, the boot
#      + init pages held), which unbind and rmmod undo (HCA DISABLED, no
#      page held or leaked, no DMA outside guest RAM); a control-page hook
#      (SET_NUM_VFS) while bound; unbind, bind again, rmmod;
#   4. on the host: the emulator logged the guest's mark and one enable per
#      bring-up.
# Exit 0 on success.
#
#   tools/qemu/smoke.sh [--no-build] [run-guest.sh options...]
#
# Environment: KDIR (kernel build tree, default
# /lib/modules/<kver>/build or /usr/src/linux-headers-<kver>), KVER,
# CXPRM_EMUD (a cxprm-emud binary: nothing built), CXPRM_BUILD (the CMake
# build directory for cxprm-emud, default <repo>/build).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

build=1
if [ "${1:-}" = --no-build ]; then
	build=0
	shift
fi

# shellcheck source=tools/kernel/kdir.sh
. "$repo/tools/kernel/kdir.sh"
[ -n "${KDIR:-}" ] || { echo "smoke: no kernel build tree; set KDIR" >&2; exit 1; }

t0=$(date +%s.%N)
if [ "$build" = 1 ]; then
	echo "smoke: building cxprm.ko against $KDIR"
	"$repo/tools/ifcgen/gen-core-layouts.sh" >/dev/null
	make -s -C "$KDIR" M="$repo" modules
fi
emud=${CXPRM_EMUD:-}
if [ -z "$emud" ]; then
	bdir=${CXPRM_BUILD:-$repo/build}
	emud=$bdir/tools/emulator/daemon/cxprm-emud
	if [ "$build" = 1 ]; then
		echo "smoke: building cxprm-emud in $bdir"
		[ -f "$bdir/CMakeCache.txt" ] || cmake -S "$repo" -B "$bdir" >/dev/null
		cmake --build "$bdir" --target cxprm-emud -j"$(nproc)" >/dev/null
	fi
fi
[ -x "$emud" ] || { echo "smoke: no cxprm-emud at $emud (build it or set CXPRM_EMUD)" >&2; exit 1; }
t1=$(date +%s.%N)

# A version nobody else writes: proves the guest read what the emulator put there.
fw_major=$((16 + RANDOM % 16)) fw_minor=$((RANDOM % 100)) fw_sub=$((1000 + RANDOM % 3000))
fw_rev=$(printf '0x%04x%04x' "$fw_minor" "$fw_major")
cmdif=$(printf '0x0005%04x' "$fw_sub")
boot_pages=32 init_pages=512

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

# The emulator, before any driver: control page up, device untouched.
emuctl wait 10 || fail "no emulator behind the control page"
emuctl info
[ "\$(emuctl hca-state)" = DISABLED ] || fail "HCA not DISABLED before the module"
[ "\$(emuctl commands)" = 0 ] || fail "commands before the module"

# After a bind: either no command reached the emulator, or a complete
# bring-up (INITIALIZED, boot + init pages held).
after_bind() {
	st=\$(emuctl hca-state) || fail "emuctl hca-state"
	n=\$(emuctl commands)
	case "\$st" in
	DISABLED)
		[ "\$n" = 0 ] || fail "\$n commands reached the emulator, but the HCA is DISABLED"
		echo "smoke: the module sent no command (no bring-up at probe)"
		echo "SMOKE-BRINGUP no" ;;
	INITIALIZED)
		p=\$(emuctl pages-held)
		[ "\$p" = $((boot_pages + init_pages)) ] ||
			fail "pages held \$p, expected $((boot_pages + init_pages))"
		echo "smoke: the module brought the device up: \$n commands so far, \$p pages held, ISSI \$(emuctl issi)"
		echo "SMOKE-BRINGUP yes" ;;
	*) fail "HCA \$st after bind: a half bring-up" ;;
	esac
}
# After unbind/rmmod: whatever the module did, it undid.
after_unbind() {
	[ "\$(emuctl hca-state)" = DISABLED ] || fail "HCA \$(emuctl hca-state) after \$1"
	[ "\$(emuctl pages-held)" = 0 ] || fail "\$(emuctl pages-held) pages still held after \$1"
	[ "\$(emuctl counter pages-leaked)" = 0 ] || fail "pages leaked at DISABLE_HCA after \$1"
	[ "\$(emuctl counter dma-refused)" = 0 ] || fail "DMA outside guest RAM after \$1"
}
insmod /cxprm/cxprm.ko || fail "insmod"
[ -e "/sys/bus/pci/devices/\$bdf/driver" ] && fail "cxprm bound without driver_override"
cxprm-bind "\$bdf" || fail "bind"

dmesg | grep -q "init segment: fw_rev $fw_rev cmdif_rev_fw_sub $cmdif" ||
	fail "fw_rev $fw_rev not in dmesg"
[ -c "/dev/cxprm/\$bdf" ] || fail "no /dev/cxprm/\$bdf"
ls -l /dev/cxprm/
after_bind

# The control page while the module holds the BAR.
emuctl set-num-vfs 2 || fail "emuctl set-num-vfs"
[ "\$(emuctl num-vfs)" = 2 ] || fail "num-vfs"
emuctl set-num-vfs 99 2>/dev/null && fail "set-num-vfs beyond the total accepted"
emuctl set-num-vfs 0 || fail "emuctl set-num-vfs 0"

cxprm-unbind "\$bdf" || fail "unbind"
dmesg | grep -q "\$bdf: removed" || fail "remove"
[ -e "/dev/cxprm/\$bdf" ] && fail "/dev/cxprm/\$bdf still there after unbind"
after_unbind unbind
cxprm-bind "\$bdf" || fail "rebind"
after_bind
rmmod cxprm || fail "rmmod"
grep -q '^cxprm ' /proc/modules && fail "cxprm still loaded"
[ -e "/sys/bus/pci/devices/\$bdf/driver" ] && fail "device still bound after rmmod"
[ "\$(dmesg | grep -c "\$bdf: removed")" = 2 ] || fail "remove on rmmod"
after_unbind rmmod
emuctl mark 1 || fail "emuctl mark"
dmesg | grep -E 'cxprm( |: )'
echo "SMOKE-GUEST-OK"
EOF

t2=$(date +%s.%N)
rc=0
# bf3 (an ECPF eswitch manager) by default: set-num-vfs below is an eswitch
# event, which the emulator gives only an ECPF, as firmware does (a later
# --profile in "$@" wins).
"$here/run-guest.sh" --no-load --script "$script" --emud --emud-bin "$emud" --profile bf3 \
	--emud-args "--fw-version $fw_major.$fw_minor.$fw_sub --boot-pages $boot_pages --init-pages $init_pages" \
	--console-log "$console" --emulator-log "$emulog" "$@" || rc=$?
t3=$(date +%s.%N)

fail() {
	echo "smoke: FAIL: $*" >&2
	exit 1
}
[ "$rc" = 0 ] || fail "guest run failed with status $rc"
tr -d '\r' <"$console" | grep -qx SMOKE-GUEST-OK || fail "guest checks did not finish"
grep -q 'guest mark 1' "$emulog" || fail "the emulator did not log the guest's mark"
bringups=$(tr -d '\r' <"$console" | grep -c '^SMOKE-BRINGUP yes$' || true)
if [ "$bringups" != 0 ]; then
	n=$(grep -c 'HCA DISABLED -> ENABLED' "$emulog" || true)
	[ "$n" -ge "$bringups" ] || fail "the emulator logged $n enables for $bringups bring-ups"
fi
guest_init=$(tr -d '\r' <"$console" | sed -n 's/^CXPRM-GUEST: init at \([0-9.]*\)s.*/\1/p')
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v g="$guest_init" 'BEGIN {
	printf "smoke: build %.1fs, QEMU run %.1fs (guest init after %ss of guest uptime)\n", b - a, d - c, g }'
what="no command at probe"
[ "$bringups" = 0 ] || what="$bringups bring-up/teardown cycles, no page left"
echo "smoke: PASS (fw_rev $fw_rev seen by the guest, $what)"
