#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the kernel module: a W=1 build with sparse on every C
# file (C=2), checkpatch on drivers/, shellcheck on the scripts.  Any
# compiler, sparse, objtool, modpost or checkpatch warning fails.  checkpatch also
# covers the KUnit C files (kunit/core/, kunit/shim/), which only a
# CONFIG_KUNIT kernel builds (tools/kernel/run-kunit.sh), and the mlx5
# stage's guest helper module tools/qemu/guest/cxswap.c (built W=1 C=2 too).
#
#   tools/lint.sh          (KDIR / KVER as for tools/qemu/smoke.sh)
#
# checkpatch.pl and its data files are taken from Debian's linux-source-6.1
# tarball (/usr/src/linux-source-6.1.tar.xz, the source of the debug test
# kernel too) into .cache/linux/ once.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# shellcheck source=tools/kernel/kdir.sh
. "$repo/tools/kernel/kdir.sh"
[ -n "${KDIR:-}" ] || { echo "lint: no kernel build tree; set KDIR" >&2; exit 1; }

fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "lint: W=1 C=2 build against $KDIR"
"$repo/tools/ifcgen/gen-core-layouts.sh" >/dev/null
if ! make -C "$KDIR" M="$repo" W=1 C=2 modules >"$log" 2>&1; then
	cat "$log"
	echo "lint: build failed" >&2
	exit 1
fi
# modpost writes "WARNING: modpost: ..." (upper case); the BTF line is
# information.
if grep -E 'warning|error|WARNING|ERROR|: (sparse|objtool)' "$log" | grep -v 'Skipping BTF generation'; then
	echo "lint: the build is not warning-free" >&2
	fail=1
fi
# Leave the ordinary (non-W=1) objects behind.
make -s -C "$KDIR" M="$repo" modules 2>&1 | grep -v 'Skipping BTF generation' || true

# The guest helper of the mlx5 stage (tools/qemu/guest/cxswap.c), W=1 C=2.
echo "lint: W=1 C=2 build of tools/qemu/guest/cxswap.c"
if ! out=$(KDIR=$KDIR tools/qemu/build-cxswap.sh W=1 C=2 2>&1); then
	echo "$out"
	echo "lint: cxswap.ko did not build" >&2
	fail=1
elif [ "$(echo "$out" | wc -l)" != 1 ]; then
	echo "$out"
	echo "lint: the cxswap.ko build is not warning-free" >&2
	fail=1
fi

# checkpatch of linux-source-6.1, whatever other linux-source-* is installed;
# .cache/linux/source names the tarball it came from (an extraction from
# another one is replaced).
cp=$repo/.cache/linux/scripts/checkpatch.pl
src=$(find /usr/src -maxdepth 1 -name 'linux-source-6.1.tar.*' | sort | head -n 1)
[ -n "$src" ] || { echo "lint: no /usr/src/linux-source-6.1.tar.* for checkpatch (apt-get install linux-source-6.1)" >&2; exit 1; }
if [ ! -f "$cp" ] || [ "$(cat "$repo/.cache/linux/source" 2>/dev/null)" != "$src" ]; then
	# (tar dies of SIGPIPE once head has its line: not an error)
	top=$( (tar -tf "$src" || true) | head -n 1 | cut -d/ -f1)
	rm -rf "$repo/.cache/linux"
	mkdir -p "$repo/.cache/linux"
	tar -xf "$src" -C "$repo/.cache/linux" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch"
	echo "$src" >"$repo/.cache/linux/source"
fi
echo "lint: checkpatch from $src"
shopt -s nullglob
# kunit/*/cxprm_*.h: the C headers there (the others are the C++ bodies').
files=(drivers/*.c drivers/*.h drivers/*.cpp kunit/*/*.c kunit/*/cxprm_*.h drivers/compat/*.c tools/qemu/guest/*.c)
shopt -u nullglob
if ! perl "$cp" --no-tree --quiet -f "${files[@]}"; then
	fail=1
fi

if command -v shellcheck >/dev/null; then
	echo "lint: shellcheck"
	shellcheck -x tools/qemu/*.sh tools/qemu/guest/*.sh tools/demo/*.sh tools/*.sh tools/kernel/*.sh tools/packaging/*.sh tools/cxprm/tests/docs_test.sh selftests/cxprm/*.sh drivers/compat/*.sh || fail=1
fi

[ "$fail" = 0 ] && echo "lint: clean"
exit "$fail"
