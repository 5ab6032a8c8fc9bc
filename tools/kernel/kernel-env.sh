#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One supported kernel (tools/kernel/kernels.list), ready to build for and
# to boot: prints shell assignments
#   KID=5.10 KREL=5.10.0-32-amd64 CHROOT=<dir or empty for the host>
#   KDIR=<build tree, a path inside CHROOT> KERNEL=<vmlinuz on the host>
#   MODDIR=<its /lib/modules/KREL on the host> CC=<its compiler>
#   ARCH=<kernel ARCH: x86_64 or arm64> CROSS_COMPILE=<empty, or
#   aarch64-linux-gnu- for arm64> PAGE_SIZE=<4096, 16384 or 65536, from
#   the kernel's .config>
#
#   tools/kernel/kernel-env.sh [--quiet] ID
#   tools/kernel/kernel-env.sh --list              the ids, one per line
#   tools/kernel/kernel-env.sh --list-arch ARCH    the ids of one Debian
#                                                  architecture (amd64, arm64)
#
# An id is <series>[-<flavour>]: the Debian flavour of the headers and
# image is what follows the series (6.12-arm64-16k: arm64-16k), amd64 when
# nothing does; the Debian architecture is the flavour's first word.
# arm64 kernels are cross-built in the same release chroot, which then
# also holds gcc-<v>-aarch64-linux-gnu/g++-<v>-aarch64-linux-gnu.
#
# "host" kernels are the machine's own (make deps installs them).  For the
# others, nothing is installed on the host and its apt setup is never
# touched:
#   - apt lists of the kernel's suites live in their own directory
#     (apt-get -o Dir::Etc::sourcelist=... -o Dir::State::Lists=...), the
#     archive's URI taken from the machine's /etc/apt/sources.list.d/;
#     arm64 kernels use arm64 lists (APT::Architecture=arm64) of their own;
#   - the build happens in a chroot of the release (mmdebstrap) holding
#     the kernel's own compiler, its linux-headers-* and dkms;
#   - arm64 headers are not apt-installed in the chroot (they Depend on
#     gcc-14:arm64, which cannot sit beside the amd64 one, and on the arm64
#     image): the flavour package is unpacked with dpkg-deb -x into the
#     chroot, its -common (arch all) and the amd64 linux-kbuild-<abi>
#     (Multi-Arch: foreign, the tools every arch's headers link to) are
#     apt-installed there;
#   - the image is unpacked with dpkg-deb -x (vmlinuz, modules; depmod
#     run on the copy).  Debian's arm64 vmlinuz is a gzip'd Image, which
#     qemu-system-aarch64 -kernel takes as it is.
# Everything is cached under $CXPRM_KERNELS_CACHE (default
# ~/.cache/cxprm/kernels, outside the checkout): chroots/<release>-<key>,
# keyed by the recipe below, the release, the compiler, the suites and the
# cross compilers; the headers installed in it are the versions the suite
# has today (dpkg in the chroot keeps them); images/<package>_<version>.
# A warm call costs a second; a cold one downloads (about 2-4 minutes a
# chroot: trixie's with the cross compilers took 2m15s on 2 cores; an
# arm64 image is 90 MB, about 35 s).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list=$here/kernels.list
cache=${CXPRM_KERNELS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/kernels}
# Bump when the way a chroot is made changes.
recipe=1
me=kernel-env quiet=0
# shellcheck source=tools/kernel/say.sh
. "$here/say.sh"
# shellcheck source=tools/kernel/apt-private.sh
. "$here/apt-private.sh"

ids() { awk '!/^#/ && NF { print $1 }' "$list"; }
# The Debian flavour and architecture of an id (the one place they are
# derived): 6.12 -> amd64 amd64, 6.12-arm64-16k -> arm64-16k arm64.
flavour() { case "$1" in *-*) echo "${1#*-}" ;; *) echo amd64 ;; esac; }
debarch() { local f; f=$(flavour "$1"); echo "${f%%-*}"; }
case "${1:-}" in
--list) ids; exit 0 ;;
--list-arch)
	for i in $(ids); do [ "$(debarch "$i")" != "${2:?--list-arch ARCH}" ] || echo "$i"; done
	exit 0 ;;
--quiet | -q) quiet=1; shift ;;
-h | --help | '') usage 49 ;;
esac
id=$1
line=$(awk -v id="$id" '$1 == id { print; exit }' "$list")
[ -n "$line" ] || die "unknown kernel '$id' (tools/kernel/kernels.list has: $(ids | tr '\n' ' '))"
read -r _ suites cc _ <<<"$line"
series=${id%%-*}
flavour=$(flavour "$id")
arch=$(debarch "$id")
case "$arch" in
amd64) karch=x86_64 cross="" ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- ;;
*) die "$id: no cross compiler known for Debian architecture $arch" ;;
esac
# The page size the kernel was configured with (arm64: 4K, 16K or 64K).
page_size() {
	if grep -qx 'CONFIG_ARM64_16K_PAGES=y' "$1"; then echo 16384
	elif grep -qx 'CONFIG_ARM64_64K_PAGES=y' "$1"; then echo 65536
	else echo 4096; fi
}

if [ "$suites" = host ]; then
	[ "$arch" = amd64 ] || die "$id: a host kernel is the machine's own amd64 one"
	# The machine's own Debian kernel (never uname -r).
	krel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
	krel=${krel#/boot/vmlinuz-}
	if [ -z "$krel" ] || [ ! -e "/lib/modules/$krel/build/Makefile" ]; then
		die "no Debian kernel with headers on the host: make deps"
	fi
	printf 'KID=%s\nKREL=%s\nCHROOT=\nKDIR=%s\nKERNEL=%s\nMODDIR=%s\nCC=%s\nARCH=%s\nCROSS_COMPILE=%s\nPAGE_SIZE=%s\n' \
		"$id" "$krel" "/lib/modules/$krel/build" "/boot/vmlinuz-$krel" "/lib/modules/$krel" "$cc" \
		"$karch" "$cross" "$(page_size "/lib/modules/$krel/build/.config")"
	exit 0
fi

release=${suites%%,*}
last=${suites##*,}
# Every suite of every kernel built in this release's chroot.
all_suites=$(awk -v r="$release" '!/^#/ && NF { split($2, s, ","); if (s[1] == r) print $2 }' "$list" |
	tr ',' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
# The cross compilers of the release's arm64 kernels (their own gcc
# version), installed in the chroot with the native ones.
cross_pkgs=$(for i in $(ids); do
	[ "$(debarch "$i")" = arm64 ] || continue
	awk -v id="$i" -v r="$release" '$1 == id { split($2, s, ","); if (s[1] == r) print $3 }' "$list"
done | sort -u | sed 's/^gcc-\(.*\)/gcc-\1-aarch64-linux-gnu,g++-\1-aarch64-linux-gnu/' | paste -sd, -)

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
# amd64 lists in apt/<release> (as before), arm64 ones in apt/<release>-arm64
# (the headers and image of an arm64 kernel; the chroot's own apt stays amd64).
apt_dir=$cache/apt/$release
archopt=()
if [ "$arch" != amd64 ]; then
	apt_dir=$cache/apt/$release-$arch
	# status=/dev/null: the host's installed amd64 packages are not ours.
	archopt=(-o APT::Architecture="$arch" -o APT::Architectures::="$arch" -o Dir::State::status=/dev/null)
fi
mkdir -p "$apt_dir"
: >"$apt_dir/sources.list.new"
for s in $all_suites; do
	echo "deb [signed-by=$keyring] $uri $s main" >>"$apt_dir/sources.list.new"
done
mv "$apt_dir/sources.list.new" "$apt_dir/sources.list"
apt_private "$apt_dir" -o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=- \
	${archopt[@]+"${archopt[@]}"}
# Refreshed at most every 12 hours (a new point release then gives a new
# headers/image version, installed and unpacked beside the old).
apt_private_update "$apt_dir" "${all_suites% } ($arch)"

# The kernel: the newest linux-headers-<series>.*-<flavour> (the generic
# flavour, not -cloud/-rt) that $last has.  By the series, not the
# linux-headers-amd64 meta package, so that "7.3" stays 7.3 when the suite
# moves on to 7.4.
re="^linux-headers-${series//./\\.}[.-][0-9][^-]*(-[0-9]+)?-$flavour\$"
hdr_pkg=$(apt-cache "${aptx[@]}" pkgnames "linux-headers-$series" 2>/dev/null | grep -E "$re" |
	while read -r p; do
		apt-cache "${aptx[@]}" madison "$p" |
			awk -F'|' -v s="$last/main" -v p="$p" '$3 ~ (" " s " ") { gsub(/ /, "", $2); print $2, p }'
	done | sort -V | tail -n 1 | cut -d' ' -f2)
[ -n "$hdr_pkg" ] || die "no linux-headers-$series.*-$flavour in $last"
krel=${hdr_pkg#linux-headers-}
abi=${krel%-"$flavour"}
img_pkg=linux-image-$krel

# --- the chroot ----------------------------------------------------------------
ccv=${cc#gcc-}
# The cross compilers are part of the key only when there are any, so that
# a release without arm64 kernels keeps its chroot.
key=$(printf '%s\n' "recipe $recipe" "$release" "$cc" "$all_suites" "$uri" ${cross_pkgs:+"cross $cross_pkgs"} |
	sha256sum | cut -c1-12)
root=$cache/chroots/$release-$key
if [ ! -f "$root.ready" ]; then
	command -v mmdebstrap >/dev/null || die "mmdebstrap is needed (make deps)"
	say "creating the $release chroot ($cc${cross_pkgs:+, $cross_pkgs}, dkms) in $root"
	rm -rf "$root"
	mkdir -p "$cache/chroots"
	srcs=()
	for s in $all_suites; do srcs+=("deb [signed-by=$keyring] $uri $s main"); done
	mmdebstrap --variant=apt --mode=root --keyring="$keyring" \
		--include="make,gcc-$ccv,g++-$ccv,kmod,dkms,dwarves,libelf-dev,ca-certificates,xz-utils,zstd${cross_pkgs:+,$cross_pkgs}" \
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
# What the chroot's apt installs: the headers themselves (amd64), or, for a
# foreign architecture, what they need that is not theirs: the arch-all
# -common and the amd64 kbuild tools their scripts/ and tools/ link to.
if [ "$arch" = amd64 ]; then
	inst=("$hdr_pkg=$hdr_ver")
else
	inst=("linux-headers-$abi-common=$hdr_ver" "linux-kbuild-$abi")
fi
# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
have=$(chroot "$root" dpkg-query -W -f='${Status} ${Version}\n' "${inst[@]%%=*}" 2>/dev/null || true)
if [ "$(echo "$have" | grep -c "^install ok installed $hdr_ver\$")" != "${#inst[@]}" ]; then
	say "installing ${inst[*]} in the $release chroot"
	chroot "$root" apt-get -q update >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends \
		"${inst[@]}" >"$root.headers.log" 2>&1 ||
		{ tail -n 30 "$root.headers.log" >&2; die "installing ${inst[*]} in the $release chroot failed"; }
fi
kdir=/usr/src/linux-headers-$krel
if [ "$arch" != amd64 ]; then
	# The foreign headers, unpacked into the chroot (see the top); the
	# stamp says which version is there.
	stamp=$root/var/lib/cxprm/${hdr_pkg}_$hdr_ver
	if [ ! -f "$stamp" ]; then
		say "unpacking $hdr_pkg $hdr_ver ($arch) into the $release chroot"
		apt_unpack "$root" "$hdr_pkg=$hdr_ver"
		mkdir -p "${stamp%/*}"
		touch "$stamp"
	fi
fi
[ -e "$root$kdir/Makefile" ] || die "$hdr_pkg has no $kdir/Makefile"
[ -e "$root$kdir/scripts/Makefile.build" ] || die "$kdir/scripts: no kbuild tools (linux-kbuild-$abi)"

# --- the image, unpacked ----------------------------------------------------------
img_ver=$(apt-cache "${aptx[@]}" show "$img_pkg" | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
[ -n "$img_ver" ] || die "no $img_pkg in $all_suites"
img=$cache/images/${img_pkg}_$img_ver
if [ ! -f "$img.ready" ]; then
	say "unpacking $img_pkg $img_ver ($arch)"
	rm -rf "$img"
	# The image and, where the release splits them out (7.x: linux-binary-*,
	# linux-modules-*, linux-base-*), the packages holding vmlinuz and modules.
	pkgs=("$img_pkg=$img_ver")
	for dep in $(apt-cache "${aptx[@]}" show "$img_pkg=$img_ver" | sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' |
		sed 's/[,|]/\n/g' | awk '$1 ~ /^linux-(modules|image|binary|base)-/ { print $1 }'); do
		pkgs+=("$dep=$img_ver")
	done
	apt_unpack "$img" "${pkgs[@]}"
	[ -d "$img/lib/modules/$krel" ] || [ -d "$img/usr/lib/modules/$krel" ] ||
		die "$img_pkg has no modules"
	# The host's depmod reads any architecture's modules.
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

printf 'KID=%s\nKREL=%s\nCHROOT=%s\nKDIR=%s\nKERNEL=%s\nMODDIR=%s\nCC=%s\nARCH=%s\nCROSS_COMPILE=%s\nPAGE_SIZE=%s\n' \
	"$id" "$krel" "$root" "$kdir" "$vmlinuz" "$moddir" "$cc" "$karch" "$cross" "$(page_size "$root$kdir/.config")"
