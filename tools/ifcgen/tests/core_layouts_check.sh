#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Prototype check (../CORE-LAYOUTS-PLAN.md), by hand: for each mlx5_ifc.h
# given (default: every linux-headers-*-common one of the host and of the
# kernel chroots, ~/.cache/cxprm/kernels/chroots), generate the core's
# layouts from core-cpp/include/cxprm/prm/layouts.sel and that header, and
# compare every descriptor and tail with the hand-written prm/*.h
# (core_layouts_dump.cpp built both ways).  Then what each header lacks or
# places otherwise (core_layouts.py --report).  The CTest core_layouts_generated does the
# same for the one header the build uses.  Exit 1 if any header's layouts
# differ (a header the selection cannot be resolved with, e.g. 5.10's, is
# reported, not failed: the plan's floor is 6.1).
#
#   tools/ifcgen/tests/core_layouts_check.sh [MLX5_IFC_H...]
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
sel=$repo/core-cpp/include/cxprm/prm/layouts.sel
gen=$repo/tools/ifcgen/core_layouts.py
dump=$repo/tools/ifcgen/tests/core_layouts_dump.cpp
cxx=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
headers=("$@")
if [ ${#headers[@]} -eq 0 ]; then
	mapfile -t headers < <(ls /usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h \
		"$HOME"/.cache/cxprm/kernels/chroots/*/usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h \
		2>/dev/null | sed 's/.*linux-headers-\([0-9][^/]*\)-common.*/\1 &/' | sort -V | cut -d' ' -f2-)
fi
"$cxx" -std=gnu++20 -I"$repo/core-cpp/include" "$dump" -o "$tmp/hand" || exit 1
"$tmp/hand" | sort >"$tmp/hand.txt"
echo "hand-written: $(grep -c '^layout ' "$tmp/hand.txt") layouts, $(grep -c '^tail ' "$tmp/hand.txt") tails"
rc=0
ref=""
for h in "${headers[@]}"; do
	v=$(echo "$h" | sed -n 's/.*linux-headers-\([0-9][^/]*\)-common.*/\1/p')
	if ! python3 "$gen" --select "$sel" --header "$h" --out "$tmp/gen.h" >"$tmp/gen.log" 2>&1; then
		echo "core layouts: ${v:-$h}: NOT GENERATED: $(tail -n1 "$tmp/gen.log")"
		continue
	fi
	"$cxx" -std=gnu++20 -I"$repo/core-cpp/include" -DCXPRM_GENERATED="\"$tmp/gen.h\"" "$dump" \
		-o "$tmp/gen" || { rc=1; continue; }
	"$tmp/gen" | sort >"$tmp/gen.txt"
	[ -n "$ref" ] || ref=$h
	if cmp -s "$tmp/hand.txt" "$tmp/gen.txt"; then
		echo "core layouts: ${v:-$h}: identical ($(head -n1 "$tmp/gen.log" | sed 's/^core layouts: //; s/ from [^;]*//'))"
	else
		echo "core layouts: ${v:-$h}: DIFFERENT"
		diff "$tmp/hand.txt" "$tmp/gen.txt" | head -n 20
		rc=1
	fi
done
# "moved": a field's place differs from that of the first header that
# generated identical layouts.
python3 "$gen" --select "$sel" --report "${headers[@]}" ${ref:+--reference "$ref"}
exit $rc
