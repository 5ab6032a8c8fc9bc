#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make module-arm64`: cxprm.ko cross-built for arm64 (BlueField's Arm
# cores) against Debian bookworm's arm64 headers of the host's 6.1 kernel
# (tools/kernel/arm64-headers.sh fetches them once), with the host's amd64
# kbuild tools and aarch64-linux-gnu-gcc-12/g++-12, W=1.  Any compiler,
# objtool or modpost warning fails (tools/kernel/warnings.sh); the last
# line is `file` of the module, which must say ARM aarch64.
#
#   tools/kernel/build-arm64.sh [MAKE ARGS...]
#
# The build happens in <repo>/.cache/arm64/6.1/mod (tools/kernel/
# build-module.sh), its log is .cache/arm64/6.1/build.log.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cross=aarch64-linux-gnu-
for tool in "${cross}gcc-12" "${cross}g++-12"; do
	command -v "$tool" >/dev/null ||
		{ echo "build-arm64: no $tool (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu): make deps" >&2; exit 1; }
done
env=$("$repo/tools/kernel/arm64-headers.sh")
kdir=$(echo "$env" | sed -n 's/^KDIR=//p')
out=$repo/.cache/arm64/6.1
mkdir -p "$out"
rm -f "$out/mod/cxprm.ko"
echo "build-arm64: make -C $kdir M=$out/mod ARCH=arm64 CROSS_COMPILE=$cross W=1 $*"
rc=0
"$repo/tools/kernel/build-module.sh" --kdir "$kdir" --out "$out/mod" ARCH=arm64 \
	CROSS_COMPILE="$cross" W=1 "$@" >"$out/build.log" 2>&1 || rc=$?
if [ "$rc" != 0 ] || [ ! -f "$out/mod/cxprm.ko" ]; then
	tail -n 40 "$out/build.log" >&2
	echo "build-arm64: FAIL: the build failed (log: $out/build.log)" >&2
	exit 1
fi
if ! "$repo/tools/kernel/warnings.sh" "$out/build.log" >&2; then
	echo "build-arm64: FAIL: warnings (log: $out/build.log)" >&2
	exit 1
fi
kind=$(file -b "$out/mod/cxprm.ko")
case "$kind" in
*"ARM aarch64"*) ;;
*) echo "build-arm64: FAIL: $out/mod/cxprm.ko is not aarch64: $kind" >&2; exit 1 ;;
esac
echo "build-arm64: 0 warnings, vermagic $(modinfo -F vermagic "$out/mod/cxprm.ko")"
echo "$out/mod/cxprm.ko: $kind"
