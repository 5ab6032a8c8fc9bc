#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: builds cxprm.ko, a static cxprm CLI and the firmware
# emulator daemon, boots the Debian kernel in QEMU (TCG) with an emulated
# ConnectX-7 behind an ivshmem device, loads the module, binds the device,
# and runs a short cxprm session (tools/demo/guest-demo.sh), printing what
# a user would see.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
t0=$(date +%s)

echo "demo: building cxprm.ko"
make -s module 2>&1 | grep -v 'Skipping BTF generation' || true
[ -f cxprm.ko ] || { echo "demo: cxprm.ko did not build" >&2; exit 1; }
echo "demo: building cxprm-emud and the cxprm CLI (static)"
sbuild=$(tools/qemu/build-static.sh cxprm-emud cxprm)

echo "demo: booting QEMU with an emulated BlueField-3 (Arm side, ECPF) (built in $(($(date +%s) - t0)) s)"
console=$(mktemp "${TMPDIR:-/tmp}/cxprm-demo.XXXXXXXX")
trap 'rm -f "$console"' EXIT
rc=0
tools/qemu/run-guest.sh -q --emud --emud-bin "$sbuild/tools/emulator/daemon/cxprm-emud" \
	--profile bf3 --emud-args "--nvmf-auto-io-ms 0" \
	--modparams "allow_raw_write=1" \
	--file "$sbuild/tools/cxprm/cxprm:/cxprm/cxprm" \
	--script tools/demo/guest-demo.sh --console-log "$console" --timeout 120 || rc=$?
# The session, without the kernel's and the harness's own lines.
sed -n '/^\$ cxprm list/,/CXPRM-EXIT/p' "$console" | grep -v '^CXPRM-EXIT' | tr -d '\r'
echo
echo "demo: done in $(($(date +%s) - t0)) s (guest status $rc)"
exit "$rc"
