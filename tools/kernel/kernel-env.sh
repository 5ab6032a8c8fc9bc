#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One supported kernel (tools/kernel/kernels.list), ready to build for and
# to boot: prints shell assignments
#   KID=5.10 KREL=5.10.0-32-amd64 CHROOT=<dir or empty for the host>
#   KDIR=<build tree, a path inside CHROOT> KERNEL=<vmlinuz on the host>
#   MODDIR=<its /lib/modules/KREL on the host> CC=<its compiler>
#
#   tools/kernel/kernel-env.sh [--quiet] ID
#   tools/kernel/kernel-env.sh --list        the ids, one per line
#
# "host" kernels are the machine's own (make deps installs them).  For the
# others, nothing is installed on the host and its apt setup is never
# touched:
#   - apt lists of the kernel's suites live in their own directory
#     (apt-get -o Dir::Etc::sourcelist=... -o Dir::State::Lists=...), the
#     archive's URI taken from the machine's /etc/apt/sources.list.d/;
#   - the build happens in a chroot of the release (mmdebstrap) holding
#     the kernel's own compiler, its linux-headers-* and dkms;
#   - the image is unpacked with dpkg-deb -x (vmlinuz, modules; depmod
#     run on the copy).
# Everything is cached under $CXPRM_KERNELS_CACHE (default
# ~/.cache/cxprm/kernels, outside the checkout): chroots/<release>-<key>,
# keyed by the recipe below, the release, the compiler and the suites;
# the headers installed in it are the versions the suite has today
# (dpkg in the chroot keeps them); images/<package>_<version>.  A warm
# call costs a second; a cold one downloads (about 2-4 minutes a chroot).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list=$here/kernels.list
cache=${CXPRM_KERNELS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/kernels}
# Bump when the way a chroot is made changes.
recipe=1
quiet=0

say() { [ "$quiet" = 1 ] || echo "kernel-env: $*" >&2; }
die() { echo "kernel-env: $*" >&2; exit 1; }
# shellcheck source=tools/kernel/apt-private.sh
. "$here/apt-private.sh"

ids() { awk '!/^#/ && NF { print $1 }' "$list"; }
case "${1:-}" in
--list) ids; exit 0 ;;
--quiet | -q) quiet=1; shift ;;
-h | --help | '') sed -n '3,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
id=$1
line=$(awk -v id="$id" '$1 == id { print; exit }' "$list")
[ -n "$line" ] || die "unknown kernel '$id' (tools/kernel/kernels.list has: $(ids | tr '\n' ' '))"
read -r _ suites cc _ <<<"$line"

if [ "$suites" = host ]; then
	# The machine's own Debian kernel (never uname -r).
	krel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
	krel=${krel#/boot/vmlinuz-}
	if [ -z "$krel" ] || [ ! -e "/lib/modules/$krel/build/Makefile" ]; then
		die "no Debian kernel with headers on the host: make deps"
	fi
	printf 'KID=%s\nKREL=%s\nCHROOT=\nKDIR=%s\nKERNEL=%s\nMODDIR=%s\nCC=%s\n' "$id" "$krel" \
		"/lib/modules/$krel/build" "/boot/vmlinuz-$krel" "/lib/modules/$krel" "$cc"
	exit 0
fi

release=${suites%%,*}
last=${suites##*,}
# Every suite of every kernel built in this release's chroot.
all_suites=$(awk -v r="$release" '!/^#/ && NF { split($2, s, ","); if (s[1] == r) print $2 }' "$list" |
	tr ',' '\n' | awk '!seen[$0]++' | tr '\n' ' ')

# The archive: the URI the machine's own apt uses for Debian.
uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	tr ' ' '\n' | grep -E '/debian/?$' | head -n 1 || true)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
[ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list.d/"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

mkdir -p "$cache"
exec 9>"$cache/.lock-$release"
flock 9

# --- the suites' package lists, apart from the machine's ----------------------
apt_dir=$cache/apt/$release
mkdir -p "$apt_dir"
: >"$apt_dir/sources.list.new"
for s in $all_suites; do
	echo "deb [signed-by=$keyring] $uri $s main" >>"$apt_dir/sources.list.new"
done
mv "$apt_dir/sources.list.new" "$apt_dir/sources.list"
apt_private "$apt_dir" -o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
# Refreshed at most every 12 hours (a new point release then gives a new
# headers/image version, installed and unpacked beside the old).
apt_private_update "$apt_dir" "${all_suites% }"

# The kernel: the newest linux-headers-<ID>.*-amd64 (the generic flavour,
# not -cloud/-rt) that $last has.  By the id, not the linux-headers-amd64
# meta package, so that "7.3" stays 7.3 when the suite moves on to 7.4.
re="^linux-headers-${id//./\\.}[.-][0-9][^-]*(-[0-9]+)?-amd64\$"
hdr_pkg=$(apt-cache "${aptx[@]}" pkgnames "linux-headers-$id" 2>/dev/null | grep -E "$re" |
	while read -r p; do
		apt-cache "${aptx[@]}" madison "$p" |
			awk -F'|' -v s="$last/main" -v p="$p" '$3 ~ (" " s " ") { gsub(/ /, "", $2); print $2, p }'
	done | sort -V | tail -n 1 | cut -d' ' -f2)
[ -n "$hdr_pkg" ] || die "no linux-headers-$id.*-amd64 in $last"
krel=${hdr_pkg#linux-headers-}
img_pkg=linux-image-$krel

# --- the chroot ----------------------------------------------------------------
ccv=${cc#gcc-}
key=$(printf '%s\n' "recipe $recipe" "$release" "$cc" "$all_suites" "$uri" | sha256sum | cut -c1-12)
root=$cache/chroots/$release-$key
if [ ! -f "$root.ready" ]; then
	command -v mmdebstrap >/dev/null || die "mmdebstrap is needed (make deps)"
	say "creating the $release chroot ($cc, dkms) in $root"
	rm -rf "$root"
	mkdir -p "$cache/chroots"
	srcs=()
	for s in $all_suites; do srcs+=("deb [signed-by=$keyring] $uri $s main"); done
	mmdebstrap --variant=apt --mode=root --keyring="$keyring" \
		--include="make,gcc-$ccv,g++-$ccv,kmod,dkms,dwarves,libelf-dev,ca-certificates,xz-utils,zstd" \
		--aptopt='APT::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		"$release" "$root" "${srcs[@]}" >"$cache/chroots/$release-$key.log" 2>&1 ||
		{ tail -n 40 "$cache/chroots/$release-$key.log" >&2; die "mmdebstrap $release failed"; }
	touch "$root.ready"
	# Older chroots of this release (other keys) go.
	find "$cache/chroots" -mindepth 1 -maxdepth 1 -name "$release-*" ! -name "$release-$key*" \
		-exec rm -rf {} +
fi
hdr_ver=$(apt-cache "${aptx[@]}" show "$hdr_pkg" | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
have=$(chroot "$root" dpkg-query -W -f='${Status} ${Version}' "$hdr_pkg" 2>/dev/null || true)
if [ "$have" != "install ok installed $hdr_ver" ]; then
	say "installing $hdr_pkg $hdr_ver in the $release chroot"
	chroot "$root" apt-get -q update >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends \
		"$hdr_pkg=$hdr_ver" >"$root.headers.log" 2>&1 ||
		{ tail -n 30 "$root.headers.log" >&2; die "installing $hdr_pkg in the $release chroot failed"; }
fi
kdir=/usr/src/linux-headers-$krel
[ -e "$root$kdir/Makefile" ] || die "$hdr_pkg has no $kdir/Makefile"

# --- the image, unpacked ----------------------------------------------------------
img_ver=$(apt-cache "${aptx[@]}" show "$img_pkg" | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
[ -n "$img_ver" ] || die "no $img_pkg in $all_suites"
img=$cache/images/${img_pkg}_$img_ver
if [ ! -f "$img.ready" ]; then
	say "unpacking $img_pkg $img_ver"
	rm -rf "$img" "$img.debs"
	mkdir -p "$img" "$img.debs"
	# The image and, where the release splits them out (7.x: linux-binary-*,
	# linux-modules-*, linux-base-*), the packages holding vmlinuz and modules.
	pkgs=("$img_pkg=$img_ver")
	for dep in $(apt-cache "${aptx[@]}" show "$img_pkg=$img_ver" | sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' |
		sed 's/[,|]/\n/g' | awk '$1 ~ /^linux-(modules|image|binary|base)-/ { print $1 }'); do
		pkgs+=("$dep=$img_ver")
	done
	(cd "$img.debs" && apt-get "${aptx[@]}" -q download "${pkgs[@]}" >/dev/null) ||
		die "apt-get download ${pkgs[*]} failed"
	for deb in "$img.debs"/*.deb; do dpkg-deb -x "$deb" "$img"; done
	rm -rf "$img.debs"
	[ -d "$img/lib/modules/$krel" ] || [ -d "$img/usr/lib/modules/$krel" ] ||
		die "$img_pkg has no modules"
	depmod -b "$img" "$krel" 2>/dev/null || depmod -b "$img/usr" "$krel"
	touch "$img.ready"
fi
moddir=$img/lib/modules/$krel
[ -d "$moddir" ] || moddir=$img/usr/lib/modules/$krel
# /boot/vmlinuz-<release> until 6.x; 7.x's linux-binary-* has it beside
# the modules.
vmlinuz=$img/boot/vmlinuz-$krel
[ -f "$vmlinuz" ] || vmlinuz=$moddir/vmlinuz
[ -f "$vmlinuz" ] || die "$img_pkg: no vmlinuz (boot/vmlinuz-$krel or $moddir/vmlinuz)"

printf 'KID=%s\nKREL=%s\nCHROOT=%s\nKDIR=%s\nKERNEL=%s\nMODDIR=%s\nCC=%s\n' "$id" "$krel" \
	"$root" "$kdir" "$vmlinuz" "$moddir" "$cc"
