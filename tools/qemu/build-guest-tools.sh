#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the programs a QEMU guest runs, static (the guest is a busybox
# initramfs without shared libraries): the cxprm CLI, emuctl and the
# kselftests, for the guest's architecture.  For an arm64 guest
# (tools/qemu/run-guest.sh --arch arm64) they are cross-built with
# bookworm's aarch64-linux-gnu-gcc-12/g++-12; cxprm-emud, the emulator,
# always runs on the amd64 host and is not built here
# (tools/qemu/build-static.sh cxprm-emud).
#
#   tools/qemu/build-guest-tools.sh [--arch amd64|arm64]   (default amd64)
#
# Prints shell assignments for the caller to eval, paths under <repo>/.cache:
#   CLI=.../static-build[-arm64]/tools/cxprm/cxprm
#   EMUCTL=.../guest-ARCH/emuctl/emuctl
#   SELFTESTS_DIR=.../guest-ARCH/selftests   (make -C selftests/cxprm
#                  OUTPUT=$SELFTESTS_DIR list: the files to ship)
# e.g.  eval "$(tools/qemu/build-guest-tools.sh --arch arm64)"
#
# Every program is checked with file(1) (machine, statically linked); where
# qemu-user is installed (qemu-aarch64-static, not a dependency: ~380 MB)
# `cxprm --version` and `emuctl --help` also run under it.  Build logs in
# <repo>/.cache/guest-ARCH/*.log; diagnostics on stderr.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
arch=amd64
if [ "${1:-}" = --arch ]; then
	arch=${2:?build-guest-tools: --arch needs amd64 or arm64}
	shift 2
fi
[ $# = 0 ] || { echo "usage: $0 [--arch amd64|arm64]" >&2; exit 2; }
case $arch in
amd64)	cross="" machine="x86-64" qemu="" ;;
arm64)	cross=aarch64-linux-gnu- machine="ARM aarch64"
	qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true) ;;
*)	echo "build-guest-tools: unknown --arch $arch (amd64, arm64)" >&2; exit 2 ;;
esac
out=${CXPRM_GUEST_TOOLS:-$repo/.cache/guest-$arch}
mkdir -p "$out"
fail() { echo "build-guest-tools: $*" >&2; exit 1; }

# The versioned compiler names, as the CMake toolchain file uses: the C
# programs and the CLI then come from one compiler.
cc=${cross:+${cross}gcc-12}
cc=${cc:-gcc}
jobs=$(nproc)

sbuild=$("$repo/tools/qemu/build-static.sh" --arch "$arch" cxprm)
cli=$sbuild/tools/cxprm/cxprm
make -s -C "$repo/tools/emulator/emuctl" OUTPUT="$out/emuctl" CC="$cc" \
	>"$out/emuctl.log" 2>&1 || { cat "$out/emuctl.log" >&2; fail "emuctl did not build"; }
emuctl=$out/emuctl/emuctl
make -s -C "$repo/selftests/cxprm" OUTPUT="$out/selftests" CC="$cc" -j"$jobs" \
	>"$out/selftests.log" 2>&1 || { tail -30 "$out/selftests.log" >&2; fail "the kselftests did not build"; }

# Wrong machine or a dynamic link would only show in the guest, as an
# "not found" from busybox's sh: refuse here instead.
check() {
	local what
	what=$(file -b "$1")
	case $what in
	*"$machine"*"statically linked"*) ;;
	*) fail "$1: not a static $machine program: $what" ;;
	esac
}
check "$cli"
check "$emuctl"
while read -r f; do
	case $f in *.sh) continue ;; esac
	check "$f"
done < <(make -s -C "$repo/selftests/cxprm" OUTPUT="$out/selftests" list)

if [ -n "$qemu" ]; then
	"$qemu" "$cli" --version >&2 || fail "$cli --version failed under $qemu"
	"$qemu" "$emuctl" --help >/dev/null 2>&1 || fail "$emuctl --help failed under $qemu"
elif [ "$arch" = amd64 ]; then
	"$cli" --version >&2 || fail "$cli --version failed"
	"$emuctl" --help >/dev/null 2>&1 || fail "$emuctl --help failed"
else
	echo "build-guest-tools: no qemu-aarch64-static (qemu-user-static): file(1) checks only" >&2
fi

printf 'CLI=%q\nEMUCTL=%q\nSELFTESTS_DIR=%q\n' "$cli" "$emuctl" "$out/selftests"
