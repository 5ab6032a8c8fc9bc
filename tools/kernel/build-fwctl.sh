#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fwctl for a Debian kernel that does not enable it: builds fwctl.ko and
# mlx5_fwctl.ko (drivers/fwctl/, CONFIG_FWCTL=m CONFIG_FWCTL_MLX5=m) from
# that kernel's own linux-source package, against its headers, with its
# compiler, in its release's chroot (tools/kernel/kernel-env.sh).
#
#   tools/kernel/build-fwctl.sh [--linux ID] [--print] [--quiet]
#
# ID defaults to 7.3 (tools/kernel/kernels.list).  Why modules and not a
# whole kernel (Documentation/fwctl.rst): Debian's mlx5_core already
# creates the "mlx5_core.fwctl" auxiliary device whenever the firmware
# offers uctx_cap (core/dev.c is_fwctl_supported; no Kconfig test), and
# drivers/fwctl/ uses no symbol the kernel's config leaves out.  So the
# unmodified Debian kernel and mlx5_core -- the reference client -- stay
# what is tested, and a cold build is seconds, not the half hour of a
# kernel (measured: Documentation/fwctl.rst).
#
# The source must be the kernel's own version (linux-source-<series> at
# the headers' version), else this fails.  Cached under
# $CXPRM_FWCTL_CACHE (default ~/.cache/cxprm/fwctl)/<ID>-<key>, the key
# hashing the recipe below, the kernel release, the headers' and the
# source's versions and the compiler; a finished directory has "ready",
# fwctl.ko, mlx5_fwctl.ko and build-seconds.
#
# --print prints FWCTL_KO=... MLX5_FWCTL_KO=... KREL=... (shell
# assignments), building first if needed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/kernel/say.sh
. "$here/say.sh"
me=build-fwctl id=7.3 print=0 quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	--linux) id=$2; shift ;;
	--print) print=1 ;;
	--quiet | -q) quiet=1 ;;
	-h | --help) usage 28 ;;
	*) unknown_option "$1" ;;
	esac
	shift
done

env=$("$here/kernel-env.sh" -q "$id") || die "no kernel $id"
val() { echo "$env" | sed -n "s/^$1=//p"; }
krel=$(val KREL) root=$(val CHROOT) kdir=$(val KDIR) cc=$(val CC)
[ -n "$root" ] || die "$id: a host kernel; fwctl is built for the chroot kernels (7.x)"
[ "$(val ARCH)" = x86_64 ] || die "$id: amd64 kernels only"
series=${id%%-*}
src_pkg=linux-source-$series
in_chroot() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
# shellcheck disable=SC2016 # dpkg-query's format
hdr_ver=$(in_chroot dpkg-query -W -f='${Version}' "linux-headers-$krel") || die "no linux-headers-$krel in the chroot"
src_ver=$(in_chroot apt-cache madison "$src_pkg" 2>/dev/null | awk -F'|' -v v="$hdr_ver" \
	'{ gsub(/ /, "", $2) } $2 == v { print $2; exit }')
[ -n "$src_ver" ] || die "no $src_pkg $hdr_ver (the headers' version) in the chroot's suites"
# Bump when the way the modules are built changes (not for comments).
recipe=1
key=$(printf '%s\n' "recipe $recipe" "$krel" "$hdr_ver" "$src_ver" "$cc" | sha256sum | cut -c1-12)
cache=${CXPRM_FWCTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cxprm/fwctl}
dir=$cache/$id-$key

report() {
	[ "$print" = 0 ] || printf 'FWCTL_KO=%s\nMLX5_FWCTL_KO=%s\nKREL=%s\n' "$dir/fwctl.ko" "$dir/mlx5_fwctl.ko" "$krel"
}
if [ -f "$dir/ready" ]; then
	say "cached: $dir ($krel)"
	report
	exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
[ ! -f "$dir/ready" ] || { report; exit 0; }

t0=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir/src"
work=$(mktemp -d "$root/var/tmp/cxprm-fwctl.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "downloading $src_pkg $src_ver"
(cd "$work" && in_chroot sh -c "cd /var/tmp/${work##*/} && apt-get -q download $src_pkg=$src_ver" \
	>"$dir/download.log" 2>&1) || { cat "$dir/download.log" >&2; die "apt-get download $src_pkg failed"; }
deb=$(find "$work" -maxdepth 1 -name "${src_pkg}_*.deb" | head -n 1)
[ -n "$deb" ] || die "no $src_pkg .deb downloaded"
# Only drivers/fwctl/ is needed: the headers package has include/.
say "extracting drivers/fwctl/ from $(basename "$deb")"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards '*/linux-source-*.tar.xz'
tarball=$(find "$work" -name "linux-source-$series.tar.xz" | head -n 1)
[ -n "$tarball" ] || die "$src_pkg has no linux-source-$series.tar.xz"
tar -xJf "$tarball" -C "$dir/src" --strip-components=3 --wildcards '*/drivers/fwctl/*'
rm -rf "$work"
trap - EXIT
for f in main.c mlx5/main.c; do
	[ -f "$dir/src/$f" ] || die "$src_pkg has no drivers/fwctl/$f"
done

say "building fwctl.ko and mlx5_fwctl.ko for $krel ($cc)"
if ! "$here/in-chroot.sh" "$root" "$dir/src" /build/fwctl -- make -C "$kdir" M=/build/fwctl \
	CONFIG_FWCTL=m CONFIG_FWCTL_MLX5=m CC="$cc" modules >"$dir/build.log" 2>&1; then
	tail -n 40 "$dir/build.log" >&2
	die "the build failed (log: $dir/build.log)"
fi
cp "$dir/src/fwctl.ko" "$dir/src/mlx5/mlx5_fwctl.ko" "$dir/"
for m in fwctl mlx5_fwctl; do
	modinfo -F vermagic "$dir/$m.ko" | grep -q "^$krel " || die "$m.ko: vermagic is not $krel"
done
echo "$(($(date +%s) - t0))" >"$dir/build-seconds"
touch "$dir/ready"
say "built in $(cat "$dir/build-seconds")s: $dir"
# Older keys of this kernel go.
find "$cache" -mindepth 1 -maxdepth 1 -type d -name "$id-*" ! -name "$id-$key" -exec rm -rf {} +
report
