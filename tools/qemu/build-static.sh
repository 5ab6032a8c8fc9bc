#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds static host/guest programs for the QEMU runs: the guest is a
# busybox initramfs without shared libraries, so the cxprm CLI shipped into
# it must be static; cxprm-emud is built the same way for simplicity.  Uses
# its own CMake tree (<repo>/.cache/static-build) so a developer's build/
# is never disturbed.
#
#   tools/qemu/build-static.sh TARGET...    (cxprm-emud, cxprm)
#
# Prints the build directory on success; logs in <build>/TARGET.log.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sbuild=${CXPRM_STATIC_BUILD:-$repo/.cache/static-build}
mkdir -p "$sbuild"
# One build at a time in this tree (the kselftests, KUnit, the demo and the
# benchmarks all build here; two cmake --build runs in one tree collide).
exec 9>"$sbuild/.lock"
flock 9
if [ ! -f "$sbuild/CMakeCache.txt" ]; then
	cmake -S "$repo" -B "$sbuild" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_EXE_LINKER_FLAGS=-static >"$sbuild/cmake.log" 2>&1 ||
		{ cat "$sbuild/cmake.log" >&2; echo "build-static: configure failed" >&2; exit 1; }
fi
for tg in "$@"; do
	cmake --build "$sbuild" -j"$(nproc)" --target "$tg" >"$sbuild/$tg.log" 2>&1 ||
		{ tail -20 "$sbuild/$tg.log" >&2; echo "build-static: $tg did not build" >&2; exit 1; }
done
echo "$sbuild"
