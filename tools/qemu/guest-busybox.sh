#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A static busybox for the run-guest.sh initramfs of an architecture;
# prints its path.
#
#   tools/qemu/guest-busybox.sh [x86_64|arm64]     (default x86_64)
#
# x86_64: the host's own (busybox-static, make deps).  arm64: bookworm's
# busybox-static for arm64 at the host package's version, fetched with
# apt-get download through the arm64 package lists of the machine's own
# sources (tools/kernel/apt-private.sh; the machine's apt setup is never
# changed) and unpacked with dpkg-deb -x into
# $CXPRM_ARM64_CACHE/busybox-<version>/ (default ~/.cache/cxprm/arm64).
# Both come from the same source package and configuration, so the host
# busybox's applet list (--list) is the guest's.
set -euo pipefail

arch=${1:-x86_64}
say() { echo "guest-busybox: $*" >&2; }
die() { echo "guest-busybox: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

host=$(command -v busybox || true)
if [ -z "$host" ] || ldd "$host" >/dev/null 2>&1; then
	die "a static busybox is needed on the host (apt-get install busybox-static)"
fi
case "$arch" in
x86_64 | amd64) echo "$host"; exit 0 ;;
arm64 | aarch64) ;;
*) die "unknown architecture $arch (x86_64, arm64)" ;;
esac

# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
ver=$(dpkg-query -W -f='${Version}' busybox-static) || die "busybox-static is not installed: make deps"
cache=${CXPRM_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/arm64}
dir=$cache/busybox-${ver//:/_}
if [ ! -f "$dir.ready" ]; then
	# shellcheck source=tools/kernel/apt-private.sh
	. "$here/../kernel/apt-private.sh"
	mkdir -p "$cache"
	exec 9>"$cache/.lock"
	flock 9
	if [ ! -f "$dir.ready" ]; then
		apt_machine_arm64 "$cache/apt"
		say "fetching busybox-static:arm64 $ver into $dir"
		rm -rf "$dir"
		apt_unpack "$dir" "busybox-static=$ver"
		file -b "$dir/bin/busybox" | grep -q 'ARM aarch64.*statically linked' ||
			die "$dir/bin/busybox is not a static aarch64 program"
		touch "$dir.ready"
	fi
fi
echo "$dir/bin/busybox"
