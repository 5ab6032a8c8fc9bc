#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds cxswap.ko (tools/qemu/guest/cxswap.c, the guest helper that puts
# an ivshmem device's shared memory at BAR0 for mlx5_core) against the
# guest kernel, out of tree in .cache/cxswap/<kernel tree>/, and prints its path.
#
#   tools/qemu/build-cxswap.sh [--linux ID] [EXTRA MAKE ARGS, e.g. W=1 C=2]
#
# KDIR / KVER as for tools/kernel/kdir.sh (default: the newest /boot/vmlinuz-*);
# --linux ID: a kernel of tools/kernel/kernels.list, built with its own
# compiler (tools/kernel/kmake.sh) into .cache/cxswap/linux-<ID>/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
linux=""
if [ "${1:-}" = --linux ]; then
	linux=$2
	shift 2
fi
if [ -n "$linux" ]; then
	out=$repo/.cache/cxswap/linux-$linux
	make_cmd=("$repo/tools/kernel/kmake.sh" "$linux" "$out")
else
	# shellcheck source=tools/kernel/kdir.sh
	. "$repo/tools/kernel/kdir.sh"
	[ -n "${KDIR:-}" ] || { echo "build-cxswap: no kernel build tree; set KDIR" >&2; exit 1; }
	# One build directory per kernel tree.
	out=$repo/.cache/cxswap/$(readlink -f "$KDIR" | tr -c 'A-Za-z0-9.\n-' _)
	make_cmd=(make -C "$KDIR" M="$out")
fi
mkdir -p "$out"
cp "$here/guest/cxswap.c" "$here/guest/Kbuild" "$repo/tools/emulator/daemon/control.h" "$out/"
log=$out/build.log
if ! "${make_cmd[@]}" "$@" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-cxswap: cxswap.ko did not build against $KDIR" >&2
	exit 1
fi
grep -E 'warning|error|WARNING|ERROR|: (sparse|objtool)' "$log" | grep -v 'Skipping BTF generation' >&2 || true
echo "$out/cxswap.ko"
