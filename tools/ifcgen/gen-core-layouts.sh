#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The core's PRM layouts for the kernel module: writes
# OUTDIR/cxprm/prm/layouts_gen.h (default OUTDIR: core-cpp/generated, git-
# ignored) from core-cpp/include/cxprm/prm/layouts.sel and mlx5_ifc.h, on
# the building host, before Kbuild runs (make module, build-module.sh,
# lint, install.sh dkms).  Kbuild only adds OUTDIR to the C++ include path;
# it never runs python3, and a DKMS tree ships the file.
#
# The header is core_layouts.py --find-header's, the rule the CMake build
# uses too: $CXPRM_IFC_HEADER, else the newest of the host's
# /usr/src/linux-headers-*-common (Linux 6.1 or newer; make deps installs
# it), never the target kernel's.  An unchanged result leaves the file and
# its mtime alone, so the module's objects are not rebuilt for nothing.
#
#   tools/ifcgen/gen-core-layouts.sh [OUTDIR]
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/core-cpp/generated}
command -v python3 >/dev/null || {
	echo "gen-core-layouts: python3 is needed to generate the core's layouts (apt-get install python3)" >&2
	exit 1
}
exec python3 "$repo/tools/ifcgen/core_layouts.py" --select "$repo/core-cpp/include/cxprm/prm/layouts.sel" \
	--out "$out/cxprm/prm/layouts_gen.h" --if-changed
