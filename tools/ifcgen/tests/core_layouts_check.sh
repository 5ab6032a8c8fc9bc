#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The core's layouts across headers (tools/ifcgen/README.md): for each
# mlx5_ifc.h given (default: every linux-headers-*-common one of the host
# and of the kernel chroots, ~/.cache/cxprm/kernels/chroots), generate the
# core's layouts from core-cpp/include/cxprm/prm/layouts.sel and that
# header and compare every descriptor and tail (core_layouts_dump.cpp) with
# those of the first header that generates them: the selection pins what
# the headers place otherwise, so every header from 6.1 on must give the
# same layouts.  Then what each header lacks or places otherwise
# (core_layouts.py --report).  Exit 1 if any header's layouts differ (a
# header the selection cannot be resolved with, e.g. 5.10's, is reported,
# not failed: the floor is 6.1).  Run it when a new header arrives.
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
rc=0
ref=""
for h in "${headers[@]}"; do
	v=$(echo "$h" | sed -n 's/.*linux-headers-\([0-9][^/]*\)-common.*/\1/p')
	if ! python3 "$gen" --select "$sel" --header "$h" --out "$tmp/g/cxprm/prm/layouts_gen.h" \
		>"$tmp/gen.log" 2>&1; then
		echo "core layouts: ${v:-$h}: NOT GENERATED: $(grep -m1 '^core_layouts:' "$tmp/gen.log")"
		continue
	fi
	"$cxx" -std=gnu++20 -I"$tmp/g" -I"$repo/core-cpp/include" "$dump" -o "$tmp/dump" || { rc=1; continue; }
	"$tmp/dump" | sort >"$tmp/gen.txt"
	summary=$(head -n1 "$tmp/gen.log" | sed 's/^core layouts: //; s/ from [^;]*//')
	if [ -z "$ref" ]; then
		ref=$h
		cp "$tmp/gen.txt" "$tmp/ref.txt"
		echo "core layouts: ${v:-$h}: the reference ($summary)"
	elif cmp -s "$tmp/ref.txt" "$tmp/gen.txt"; then
		echo "core layouts: ${v:-$h}: identical ($summary)"
	else
		echo "core layouts: ${v:-$h}: DIFFERENT from $ref"
		diff "$tmp/ref.txt" "$tmp/gen.txt" | head -n 20
		rc=1
	fi
done
# "moved": a field's place differs from that of the reference header.
python3 "$gen" --select "$sel" --report "${headers[@]}" ${ref:+--reference "$ref"}
exit $rc
