#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: builds cxprm.ko, a static cxprm CLI and the firmware
# emulator daemon, boots the Debian kernel in QEMU (TCG) with an emulated
# ConnectX-7 behind an ivshmem device, loads the module, binds the device,
# and runs a short cxprm session (tools/demo/guest-demo.sh), printing what
# a user would see.
#
#   tools/demo/demo.sh [--linux ID] [--msix N]
#
# --linux ID: on another kernel of tools/kernel/kernels.list (cxprm.ko
# built in its chroot, its Debian image booted); an arm64 id (6.12-arm64,
# 6.12-arm64-16k) boots under qemu-system-aarch64 with the CLI cross-built
# (tools/qemu/build-guest-tools.sh).  --msix N: interrupts (ivshmem-doorbell)
# instead of polling.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
t0=$(date +%s)
linux="" rg=()
while [ $# -gt 0 ]; do
	case "$1" in
	--linux) linux=$2; shift ;;
	--msix) rg+=(--msix "$2"); shift ;;
	*) echo "usage: demo.sh [--linux ID] [--msix N]" >&2; exit 2 ;;
	esac
	shift
done

ko=cxprm.ko arch=x86_64
if [ -n "$linux" ]; then
	kenv=$(tools/kernel/kernel-env.sh -q "$linux")
	kv() { echo "$kenv" | sed -n "s/^$1=//p"; }
	arch=$(kv ARCH)
	# The compile matrix's tree and flags (selftests/cxprm/run.sh --linux
	# too): only a relink after those.
	ko=.cache/kernels/$linux/mod/cxprm.ko
	echo "demo: building cxprm.ko for Linux $linux ($(kv KREL))"
	tools/kernel/build-module.sh --linux "$linux" --out "$(dirname "$ko")" W=1 -s >/dev/null 2>&1 ||
		{ echo "demo: cxprm.ko did not build for $linux" >&2; exit 1; }
	rg+=(--arch "$arch" --kernel "$(kv KERNEL)" --kver "$(kv KREL)" --moddir "$(kv MODDIR)")
else
	echo "demo: building cxprm.ko"
	make -s module 2>&1 | grep -v 'Skipping BTF generation' || true
fi
[ -f "$ko" ] || { echo "demo: $ko did not build" >&2; exit 1; }
echo "demo: building cxprm-emud and the cxprm CLI (static${linux:+, $arch})"
sbuild=$(tools/qemu/build-static.sh cxprm-emud)
cli=$sbuild/tools/cxprm/cxprm
if [ "$arch" = x86_64 ]; then
	tools/qemu/build-static.sh cxprm >/dev/null
else
	cli=$(tools/qemu/build-guest-tools.sh --arch "$arch" | sed -n 's/^CLI=//p')
fi

echo "demo: booting QEMU with an emulated BlueField-3 (Arm side, ECPF) (built in $(($(date +%s) - t0)) s)"
console=$(mktemp "${TMPDIR:-/tmp}/cxprm-demo.XXXXXXXX")
emulog=$console.emud
trap 'rm -f "$console" "$emulog"' EXIT
rc=0
tools/qemu/run-guest.sh -q --ko "$ko" --emud --emud-bin "$sbuild/tools/emulator/daemon/cxprm-emud" \
	--profile bf3 --emud-args "--nvmf-auto-io-ms 0" \
	--modparams "allow_raw_write=1" \
	--file "$cli:/cxprm/cxprm" "${rg[@]+"${rg[@]}"}" \
	--script tools/demo/guest-demo.sh --console-log "$console" --emulator-log "$emulog" \
	--timeout 300 || rc=$?
# The session, without the kernel's and the harness's own lines.
sed -n '/^\$ cxprm list/,/CXPRM-EXIT/p' "$console" | grep -v '^CXPRM-EXIT' | tr -d '\r'
# The guest powers off with the function bound: the shutdown callback must
# have left firmware no page (the emulator's exit line).
exit_line=$(grep 'cxprm-emud: exiting on' "$emulog" 2>/dev/null | tail -n 1 || true)
if ! echo "$exit_line" | grep -q 'pages held 0 '; then
	echo "demo: the emulator's exit line does not show 0 pages held: ${exit_line:-none}" >&2
	[ "$rc" != 0 ] || rc=1
fi
echo
echo "demo: done in $(($(date +%s) - t0)) s (guest status $rc)"
exit "$rc"
