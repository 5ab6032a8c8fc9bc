#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make -C <kernel build tree> M=DIR for a kernel of tools/kernel/kernels.list:
# on the host for the host's own kernel, else in that release's chroot
# (tools/kernel/kernel-env.sh) with DIR bind-mounted into it
# (tools/kernel/in-chroot.sh), so that the kernel's own compiler builds it.
# For a foreign-architecture kernel (arm64) it adds ARCH= and
# CROSS_COMPILE= from kernel-env.sh: aarch64-linux-gnu-gcc-14 of the chroot
# cross-builds, with the chroot's amd64 kbuild tools.
#
#   tools/kernel/kmake.sh ID DIR [MAKE ARGS...]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 2 ]; then
	sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
id=$1 dir=$2
shift 2
env=$("$here/kernel-env.sh" -q "$id") || exit 1
kdir=$(echo "$env" | sed -n 's/^KDIR=//p')
root=$(echo "$env" | sed -n 's/^CHROOT=//p')
cross=$(echo "$env" | sed -n 's/^CROSS_COMPILE=//p')
# Native builds get no ARCH=, exactly as before.
[ -z "$cross" ] || set -- ARCH="$(echo "$env" | sed -n 's/^ARCH=//p')" CROSS_COMPILE="$cross" "$@"
[ -e "$root$kdir/Makefile" ] || { echo "kmake: $kdir is not a kernel build tree" >&2; exit 1; }
if [ -z "$root" ]; then
	exec make -C "$kdir" M="$dir" "$@"
fi
exec "$here/in-chroot.sh" "$root" "$dir" /build/m -- make -C "$kdir" M=/build/m "$@"
