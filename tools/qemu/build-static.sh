#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds static host/guest programs for the QEMU runs: the guest is a
# busybox initramfs without shared libraries, so the cxprm CLI shipped into
# it must be static; cxprm-emud is built the same way for simplicity.  Uses
# its own CMake tree (<repo>/.cache/static-build) so a developer's build/
# is never disturbed.
#
#   tools/qemu/build-static.sh TARGET...               (cxprm-emud, cxprm)
#   tools/qemu/build-static.sh --arch arm64 TARGET...  (cxprm)
#
# --arch arm64 cross-builds the guest programs for an arm64 guest with
# cmake/toolchain-aarch64-linux-gnu.cmake in <repo>/.cache/static-build-arm64;
# only guest targets exist there (cxprm-emud stays on the amd64 host, and
# the tests and generators are host-build only: see CMakeLists.txt).
# --arch amd64 is the default and the same as no --arch.
#
# Prints the build directory on success; logs in <build>/TARGET.log.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
arch=amd64
if [ "${1:-}" = --arch ]; then
	arch=${2:?build-static: --arch needs amd64 or arm64}
	shift 2
fi
case $arch in
amd64)	sbuild=${CXPRM_STATIC_BUILD:-$repo/.cache/static-build}
	cross=() ;;
arm64)	sbuild=${CXPRM_STATIC_BUILD_ARM64:-$repo/.cache/static-build-arm64}
	cross=("-DCMAKE_TOOLCHAIN_FILE=$repo/cmake/toolchain-aarch64-linux-gnu.cmake") ;;
*)	echo "build-static: unknown --arch $arch (amd64, arm64)" >&2; exit 2 ;;
esac
mkdir -p "$sbuild"
# One build at a time in this tree (the kselftests, KUnit, the demo and the
# benchmarks all build here; two cmake --build runs in one tree collide).
exec 9>"$sbuild/.lock"
flock 9
if [ ! -f "$sbuild/CMakeCache.txt" ]; then
	cmake -S "$repo" -B "$sbuild" -DCMAKE_BUILD_TYPE=Release "${cross[@]}" \
		-DCMAKE_EXE_LINKER_FLAGS=-static >"$sbuild/cmake.log" 2>&1 ||
		{ cat "$sbuild/cmake.log" >&2; echo "build-static: configure failed" >&2; exit 1; }
fi
for tg in "$@"; do
	cmake --build "$sbuild" -j"$(nproc)" --target "$tg" >"$sbuild/$tg.log" 2>&1 ||
		{ tail -20 "$sbuild/$tg.log" >&2; echo "build-static: $tg did not build" >&2; exit 1; }
done
echo "$sbuild"
