#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make module-arm64`: cxprm.ko cross-built for every arm64 kernel
# (BlueField's Arm cores), W=1.  Any compiler, objtool or modpost warning
# fails (tools/kernel/warnings.sh), and so does a module that `file` does
# not call ARM aarch64 or whose vermagic is not that kernel's release.
# One line per kernel: its vermagic and the module's `file`.
#
#   tools/kernel/build-arm64.sh [MAKE ARGS...]
#
# The kernels, and where each module is left:
#   6.1 (bookworm)   the arm64 headers of the host's 6.1 kernel
#                    (tools/kernel/arm64-headers.sh fetches them once), the
#                    host's amd64 kbuild tools, aarch64-linux-gnu-gcc-12
#                    (make deps): <repo>/.cache/arm64/6.1/mod/cxprm.ko,
#                    log .cache/arm64/6.1/build.log
#   every arm64 id of tools/kernel/kernels.list (kernel-env.sh --list-arch
#   arm64: 6.12-arm64, 6.12-arm64-16k), in its release's chroot with the
#   kernel's own compiler, aarch64-linux-gnu-gcc-14 (tools/kernel/
#   build-module.sh --linux): <repo>/.cache/kernels/<id>/mod/cxprm.ko, log
#   .cache/kernels/<id>/build.log (the paths check-kernels.sh uses too)
# Every kernel is built even when an earlier one failed; exit 0 only if
# all passed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cross=aarch64-linux-gnu-
failed=0

# check NAME OUT KREL: the verdict on OUT/mod/cxprm.ko built into OUT/build.log.
check() {
	local name=$1 out=$2 krel=$3 kind vm
	if [ ! -f "$out/mod/cxprm.ko" ]; then
		tail -n 40 "$out/build.log" >&2
		echo "build-arm64: $name FAIL: the build failed (log: $out/build.log)" >&2
		return 1
	fi
	if ! "$repo/tools/kernel/warnings.sh" "$out/build.log" >&2; then
		echo "build-arm64: $name FAIL: warnings (log: $out/build.log)" >&2
		return 1
	fi
	kind=$(file -b "$out/mod/cxprm.ko")
	case "$kind" in
	*"ARM aarch64"*) ;;
	*) echo "build-arm64: $name FAIL: $out/mod/cxprm.ko is not aarch64: $kind" >&2; return 1 ;;
	esac
	vm=$(modinfo -F vermagic "$out/mod/cxprm.ko")
	if [ -n "$krel" ] && [ "${vm%% *}" != "$krel" ]; then
		echo "build-arm64: $name FAIL: vermagic '$vm', not $krel" >&2
		return 1
	fi
	echo "build-arm64: $name: 0 warnings, vermagic $vm; $out/mod/cxprm.ko: $kind"
}

# 6.1: bookworm's headers unpacked on the host, the host's cross gcc-12.
build_61() {
	local tool env kdir out=$repo/.cache/arm64/6.1
	for tool in "${cross}gcc-12" "${cross}g++-12"; do
		command -v "$tool" >/dev/null ||
			{ echo "build-arm64: no $tool (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu): make deps" >&2; return 1; }
	done
	env=$("$repo/tools/kernel/arm64-headers.sh") || return 1
	kdir=$(echo "$env" | sed -n 's/^KDIR=//p')
	mkdir -p "$out"
	rm -f "$out/mod/cxprm.ko"
	echo "build-arm64: 6.1: make -C $kdir M=$out/mod ARCH=arm64 CROSS_COMPILE=$cross W=1 $*"
	"$repo/tools/kernel/build-module.sh" --kdir "$kdir" --out "$out/mod" ARCH=arm64 \
		CROSS_COMPILE="$cross" W=1 "$@" >"$out/build.log" 2>&1 || true
	# The 6.1 headers' release, as modinfo prints it.
	check 6.1 "$out" "$(basename "$kdir" | sed 's/^linux-headers-//')"
}

# An arm64 id of kernels.list: its chroot, its compiler (kmake.sh adds
# ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-).
build_id() {
	local id=$1 env krel out=$repo/.cache/kernels/$1
	shift
	env=$("$repo/tools/kernel/kernel-env.sh" "$id") || return 1
	krel=$(echo "$env" | sed -n 's/^KREL=//p')
	mkdir -p "$out"
	rm -f "$out/mod/cxprm.ko"
	echo "build-arm64: $id: $krel, $(echo "$env" | sed -n 's/^CROSS_COMPILE=//p')$(echo "$env" |
		sed -n 's/^CC=//p'), PAGE_SIZE $(echo "$env" | sed -n 's/^PAGE_SIZE=//p'), W=1 $*"
	"$repo/tools/kernel/build-module.sh" --linux "$id" --out "$out/mod" W=1 "$@" >"$out/build.log" 2>&1 || true
	check "$id" "$out" "$krel"
}

build_61 "$@" || failed=1
# Read first: the builds must not eat the list from stdin.
mapfile -t ids < <("$repo/tools/kernel/kernel-env.sh" --list-arch arm64)
for id in "${ids[@]}"; do
	build_id "$id" "$@" || failed=1
done
exit "$failed"
