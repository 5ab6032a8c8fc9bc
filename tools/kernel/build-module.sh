#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds cxprm.ko (and every other module the Kbuild file defines for that
# kernel's config, e.g. the KUnit suites when CONFIG_KUNIT=y) against any
# kernel tree, in a directory of its own: Kbuild writes objects next to the
# sources (M=), so a second kernel (the debug test kernel) must not build
# in the checkout, where `make module` keeps the Debian objects.
#
#   tools/kernel/build-module.sh --kdir KDIR --out DIR [MAKE ARGS...]
#   tools/kernel/build-module.sh --linux ID --out DIR [MAKE ARGS...]
#
# --linux ID builds for a kernel of tools/kernel/kernels.list with that
# kernel's compiler, in its chroot (tools/kernel/kmake.sh); for an arm64 id
# (6.12-arm64, 6.12-arm64-16k) that is a cross build, ARCH=arm64
# CROSS_COMPILE=aarch64-linux-gnu-.
#
# Generates the core's PRM layouts into core-cpp/generated/ on this host
# (tools/ifcgen/gen-core-layouts.sh: python3 and the host's mlx5_ifc.h,
# never the target kernel's; a copy of the tree without tools/ifcgen/ must
# bring core-cpp/generated/ along), then
# copies Kbuild, drivers/, core-cpp/{include,src,generated}/, kunit/, include/ and
# the emulator's control.h (for the KUnit suites) into DIR
# (mtimes kept, so a rebuild is incremental; files gone from the checkout
# are removed), then runs make -C KDIR M=DIR modules MAKE ARGS.  The
# modules end up in DIR (DIR/cxprm.ko).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/kernel/say.sh
. "$repo/tools/kernel/say.sh"
kdir="" out="" linux=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kdir) kdir=$2; shift ;;
	--out) out=$2; shift ;;
	--linux) linux=$2; shift ;;
	-h | --help) usage 26 ;;
	--) shift; break ;;
	*) break ;;
	esac
	shift
done
if { [ -z "$kdir" ] && [ -z "$linux" ]; } || [ -z "$out" ]; then
	echo "build-module: --kdir or --linux, and --out, are needed" >&2
	exit 2
fi
[ -n "$linux" ] || [ -e "$kdir/Makefile" ] || { echo "build-module: $kdir is not a kernel build tree" >&2; exit 1; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
# One build of a tree at a time: stages share trees (the KUnit stage and
# the kselftests on the debug kernel; the compile matrix and the guests of
# each kernel).  Held until this script, or the kmake.sh it becomes, ends.
exec 8>"$out.lock"
flock 8
if [ -x "$repo/tools/ifcgen/gen-core-layouts.sh" ]; then
	"$repo/tools/ifcgen/gen-core-layouts.sh" >/dev/null
fi
# The copied source set; objects in DIR are kept between runs.
srcs=(Kbuild drivers core-cpp/include core-cpp/src core-cpp/generated kunit include
	tools/emulator/daemon/control.h)
for s in "${srcs[@]}"; do
	[ -e "$repo/$s" ] || continue
	if [ -d "$repo/$s" ]; then
		mkdir -p "$out/$s"
		# Copy sources only (no objects from a checkout build), and only
		# those whose content differs, stamped with the time of the copy:
		# Kbuild then rebuilds exactly what changed.  (Keeping the
		# checkout's mtimes could leave an object stale for good when a
		# file was edited between an earlier copy and its compile.)
		# Not drivers/generated/: build output (the kernel API probes'
		# HAVE_* header), which a checkout build of another kernel leaves
		# behind; copied over this tree's, Kbuild would keep it (its
		# command line has not changed) and build with the wrong probes.
		(cd "$repo/$s" && find . -path ./generated -prune -o -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.def' -o -name '*.S' \
			-o -name Kbuild -o -name Makefile -o -name '*.sh' \) -print0) |
			while IFS= read -r -d '' f; do
				cmp -s "$repo/$s/$f" "$out/$s/$f" && continue
				mkdir -p "$(dirname "$out/$s/$f")"
				cp "$repo/$s/$f" "$out/$s/$f"
			done
		# Drop sources that no longer exist in the checkout.
		(cd "$out/$s" && find . -path ./generated -prune -o -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.def' -o -name '*.S' \) -print0) |
			while IFS= read -r -d '' f; do
				[ -e "$repo/$s/$f" ] || rm -f "$out/$s/$f"
			done
	else
		mkdir -p "$(dirname "$out/$s")"
		cmp -s "$repo/$s" "$out/$s" || cp "$repo/$s" "$out/$s"
	fi
done
[ -z "$linux" ] || exec "$repo/tools/kernel/kmake.sh" "$linux" "$out" modules "$@"
make -C "$kdir" M="$out" modules "$@"
