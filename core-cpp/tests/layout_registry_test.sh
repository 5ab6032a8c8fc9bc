#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CTest prm_registry_lists_every_layout: prm/registry.h's CXPRM_LAYOUTS
# names every layout a prm/ header defines (CXPRM_LAYOUT), and nothing
# else: the layout dump, the mlx5_ifc.h cross-check and the emulator see
# only what it lists, so a layout missing there goes unchecked.
#
#   layout_registry_test.sh core-cpp/include/cxprm/prm
set -eu
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^CXPRM_LAYOUT(\([a-z0-9_]*\),.*/\1/p' "$dir"/*.h | sort >"$tmp/defined"
sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), CXPRM_[A-Z0-9_]*).*/\1/p' "$dir/registry.h" | sort >"$tmp/listed"
[ -s "$tmp/defined" ] || { echo "no CXPRM_LAYOUT in $dir (did the headers move?)"; exit 1; }
comm -23 "$tmp/defined" "$tmp/listed" | sed 's/.*/layout & is defined but not listed in registry.h (CXPRM_LAYOUTS)/' >"$tmp/bad"
comm -13 "$tmp/defined" "$tmp/listed" | sed 's/.*/registry.h lists &, which no prm\/ header defines/' >>"$tmp/bad"
if [ -s "$tmp/bad" ]; then
	cat "$tmp/bad"
	exit 1
fi
echo "prm registry: all $(wc -l <"$tmp/defined") layouts listed"
