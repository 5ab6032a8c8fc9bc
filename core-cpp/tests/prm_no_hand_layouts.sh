#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CTest prm_no_hand_layouts: the core's PRM layouts are generated from
# prm/layouts.sel and mlx5_ifc.h (layouts_gen.h, tools/ifcgen/core_layouts.py),
# which also writes the registry's list (CXPRM_LAYOUTS) and the tails: no
# prm/ header declares a layout, a field X-list, a tail or a registry list
# by hand (a layout declared there would be missing from the registry, the
# dump and the cross-check, and would state its offsets a second time).
#
#   prm_no_hand_layouts.sh core-cpp/include/cxprm/prm
set -eu
dir=$1
[ -f "$dir/layouts.sel" ] || { echo "no layouts.sel in $dir (did the headers move?)"; exit 1; }
if grep -nE '^(CXPRM_LAYOUT\(|#define CXPRM_[A-Z0-9_]+\(F[,)]|#define CXPRM_LAYOUTS\(|using [a-z0-9_]+ = Tail<)' \
	"$dir"/*.h; then
	echo "a prm/ header declares a layout by hand: list its fields in layouts.sel instead"
	exit 1
fi
n=$(grep -cE '^[a-z0-9_]+( [^:]*)?:' "$dir/layouts.sel")
echo "prm: no hand layouts; layouts.sel selects $n layouts"
