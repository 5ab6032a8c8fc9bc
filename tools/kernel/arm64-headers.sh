#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian bookworm's arm64 headers of the host's kernel (6.1), ready to
# cross-build cxprm.ko against: prints KDIR=<the arm64 build tree>.
#
#   tools/kernel/arm64-headers.sh [--quiet]
#
# The package is linux-headers-<the host's ABI>-arm64 (with its -common),
# at the version of the host's own linux-headers-<release>-amd64, fetched
# with apt-get download and unpacked with dpkg-deb -x into
# $CXPRM_ARM64_CACHE/<version>/ (default ~/.cache/cxprm/arm64); a warm call
# costs nothing.  The machine's apt setup is not changed: the arm64 package
# lists of the machine's own sources live in $CXPRM_ARM64_CACHE/apt
# (APT::Architecture=arm64, Dir::State::Lists of its own), refreshed at
# most every 12 hours.
#
# The kbuild tools (scripts/: fixdep, modpost, genksyms; the Kbuild
# makefiles) are the host's amd64 linux-kbuild-6.1, as for Debian's own
# cross builds: the headers packages hold no programs, their scripts/ and
# tools/ are links to ../../lib/linux-kbuild-6.1/, and linux-kbuild-6.1 is
# Multi-Arch: foreign, so an arm64 linux-headers installed on an amd64
# host is satisfied by the amd64 linux-kbuild.  The cache's
# usr/lib/linux-kbuild-6.1 is that link to /usr/lib/linux-kbuild-6.1
# (installed with the host's headers, make deps), and the flavour
# Makefile's include of /usr/src/linux-headers-*-common/Makefile is pointed
# at the cache's -common.  ARCH=arm64 comes from the headers'
# .kernelvariables; CROSS_COMPILE=aarch64-linux-gnu- makes CC
# aarch64-linux-gnu-gcc-12 (gcc-aarch64-linux-gnu, make deps).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/kernel/say.sh
. "$here/say.sh"
me=arm64-headers quiet=0
case "${1:-}" in
--quiet | -q) quiet=1 ;;
-h | --help) usage 29 ;;
esac
# shellcheck source=tools/kernel/apt-private.sh
. "$here/apt-private.sh"

cache=${CXPRM_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/arm64}

# The host's kernel (never uname -r) and its headers' version.
krel=$(find /boot -maxdepth 1 -name 'vmlinuz-*-amd64' | sort -V | tail -n 1)
krel=${krel#/boot/vmlinuz-}
[ -n "$krel" ] || die "no Debian amd64 kernel on the host: make deps"
abi=${krel%-amd64}
series=$(echo "$abi" | cut -d. -f1,2)
# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
ver=$(dpkg-query -W -f='${Version}' "linux-headers-$krel" 2>/dev/null) ||
	die "linux-headers-$krel is not installed: make deps"
kbuild=/usr/lib/linux-kbuild-$series
[ -d "$kbuild/scripts" ] || die "$kbuild is missing (linux-kbuild-$series): make deps"

root=$cache/$ver
kdir=$root/usr/src/linux-headers-$abi-arm64
common=$root/usr/src/linux-headers-$abi-common
if [ ! -f "$root.ready" ]; then
	mkdir -p "$cache"
	exec 9>"$cache/.lock"
	flock 9
fi
if [ ! -f "$root.ready" ]; then
	apt_machine_arm64 "$cache/apt"
	say "fetching linux-headers-$abi-arm64 $ver into $root"
	rm -rf "$root"
	apt_unpack "$root" "linux-headers-$abi-arm64=$ver" "linux-headers-$abi-common=$ver"
	[ -e "$kdir/Makefile" ] || die "linux-headers-$abi-arm64 has no $kdir/Makefile"
	[ -e "$common/Makefile" ] || die "linux-headers-$abi-common has no $common/Makefile"
	sed -i "s|^include /usr/src/linux-headers-$abi-common/Makefile\$|include $common/Makefile|" \
		"$kdir/Makefile"
	grep -qx "include $common/Makefile" "$kdir/Makefile" || die "$kdir/Makefile: unexpected include"
	mkdir -p "$root/usr/lib"
	ln -sfn "$kbuild" "$root/usr/lib/linux-kbuild-$series"
	touch "$root.ready"
fi
printf 'KDIR=%s\n' "$kdir"
