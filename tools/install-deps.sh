#!/bin/sh
# Installs everything cxprm needs on a fresh Debian bookworm machine (root).
# Idempotent: packages already present are left alone.
set -eu

# python3 and linux-headers-amd64 (which pulls linux-headers-*-common with
# include/linux/mlx5/mlx5_ifc.h, Linux 6.1 on bookworm) also generate the
# core's PRM layouts, for CMake and the module (tools/ifcgen/README.md).
# libc6-dev-arm64-cross (static arm64 libc for the guest programs) by name:
# gcc-12-aarch64-linux-gnu only recommends it, and recommends are not installed.
PKGS="build-essential g++ cmake make libgtest-dev googletest
      linux-headers-amd64 linux-source-6.1 linux-image-amd64
      qemu-system-x86 busybox-static cpio sparse shellcheck
      bc flex bison libelf-dev libssl-dev dwarves python3 xz-utils kmod
      libbenchmark-dev gnuplot-nox valgrind
      clang libclang-rt-14-dev llvm
      debhelper dh-dkms dkms openssl lintian help2man man-db
      mmdebstrap
      gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross file qemu-system-arm"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all installed"
	exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
