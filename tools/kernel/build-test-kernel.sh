#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the cxprm test kernel: Debian's linux-source-6.1, allnoconfig plus
# tools/kernel/cxprm-debug.config (PCI, MSI, modules, debugfs, devtmpfs,
# serial console, initramfs; KUnit, KASAN, kmemleak, lockdep,
# atomic-sleep and DMA-API debugging).
#
#   tools/kernel/build-test-kernel.sh [--print] [--jobs N] [--quiet]
#
# The result is cached under $CXPRM_KERNEL_CACHE (default
# ~/.cache/cxprm/test-kernel, outside the checkout so that fresh clones
# share it)/<key>, where <key> hashes the config fragment, the build
# recipe version below, the source package version and the compiler: a
# second run costs nothing.  A finished tree has a file "ready" and:
#   src/                the kernel source (also tools/testing/kunit/kunit.py)
#   build/              O= build tree: KDIR for out-of-tree modules
#   build/arch/x86/boot/bzImage   the image (run-guest.sh --kernel)
#
# --print prints "KDIR=... KERNEL=... KSRC=... KREL=... MODOUT=..." lines
# (shell assignments) of the tree, building it first if needed.  MODOUT is
# where this checkout builds its modules for the tree
# (<repo>/.cache/debug-mod, build-module.sh --out): the KUnit stage and
# the kselftests on the debug kernel share it with the same make
# arguments (-j, W=1), so whichever runs second only relinks.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
fragment=$here/cxprm-debug.config
# shellcheck source=tools/kernel/say.sh
. "$here/say.sh"

me=test-kernel print=0 quiet=0 jobs=$(nproc)
while [ $# -gt 0 ]; do
	case "$1" in
	--print) print=1 ;;
	--jobs) jobs=$2; shift ;;
	--quiet | -q) quiet=1 ;;
	-h | --help) usage 23 ;;
	*) unknown_option "$1" ;;
	esac
	shift
done

tarball=$(find /usr/src -maxdepth 1 -name 'linux-source-6.1.tar.*' | sort -V | tail -n 1)
[ -n "$tarball" ] || die "no /usr/src/linux-source-6.1.tar.*: apt-get install linux-source-6.1 (make deps)"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c '%s-%Y' "$tarball")
ccver=$(gcc --version | head -n 1)
# Bump when the way the tree is built changes (not for comments).
recipe=1
key=$( { cat "$fragment"; echo "recipe $recipe"; echo "$srcver"; echo "$ccver"; } | sha256sum | cut -c1-16)
# Outside the checkout, so a fresh clone (CI) finds the kernel already built.
cache=${CXPRM_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/test-kernel}
dir=$cache/$key

report() {
	local krel
	krel=$(cat "$dir/build/include/config/kernel.release")
	if [ "$print" = 1 ]; then
		printf 'KDIR=%s\nKERNEL=%s\nKSRC=%s\nKREL=%s\nMODOUT=%s\n' "$dir/build" \
			"$dir/build/arch/x86/boot/bzImage" "$dir/src" "$krel" "$repo/.cache/debug-mod"
	fi
}

if [ -f "$dir/ready" ]; then
	say "cached: $dir ($(cat "$dir/build/include/config/kernel.release"))"
	report
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$dir/ready" ]; then	# another run built it while we waited
	report
	exit 0
fi

t0=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir/build"
say "extracting $tarball (linux-source $srcver)"
mkdir -p "$dir/src"
tar -xf "$tarball" -C "$dir/src" --strip-components=1

log=$dir/build.log
say "configuring: allnoconfig + $(basename "$fragment")"
make -s -C "$dir/src" O="$dir/build" ARCH=x86_64 KCONFIG_ALLCONFIG="$fragment" allnoconfig >"$log" 2>&1 ||
	{ cat "$log"; die "allnoconfig failed"; }

# Every line of the fragment must hold in the result.
missing=0
while IFS= read -r line; do
	case "$line" in '' | '#'*) continue ;; esac
	opt=${line%%=*} val=${line#*=}
	if [ "$val" = n ]; then
		grep -qx "# $opt is not set" "$dir/build/.config" || grep -qx "$opt=n" "$dir/build/.config" ||
			! grep -q "^$opt=" "$dir/build/.config" || { echo "  $opt: wanted n" >&2; missing=1; }
	else
		grep -qxF "$line" "$dir/build/.config" || {
			echo "  $opt: wanted $val, got $(grep "^$opt=\|^# $opt is not set" "$dir/build/.config" || echo nothing)" >&2
			missing=1
		}
	fi
done <"$fragment"
[ "$missing" = 0 ] || die "the config does not hold every option of $fragment"

say "building (make -j$jobs bzImage modules; a cold build takes minutes)"
if ! make -C "$dir/src" O="$dir/build" ARCH=x86_64 -j"$jobs" bzImage modules >>"$log" 2>&1; then
	tail -n 60 "$log"
	die "kernel build failed (log: $log)"
fi
t1=$(date +%s)
echo "$((t1 - t0))" >"$dir/build-seconds"
touch "$dir/ready"
say "built $(cat "$dir/build/include/config/kernel.release") in $((t1 - t0))s: $dir"
# Keep this tree and the one built before it (another checkout may still
# use other inputs); older ones go.
find "$cache" -mindepth 1 -maxdepth 1 \( -type d -o -type l \) ! -name "$key" -printf '%T@ %p\n' |
	sort -rn | tail -n +2 | cut -d' ' -f2- | xargs -r rm -rf
report
