#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make -C <kernel build tree> M=DIR for a kernel of tools/kernel/kernels.list:
# on the host for the host's own kernel, else in that release's chroot
# (tools/kernel/kernel-env.sh) with DIR bind-mounted into it
# (tools/kernel/in-chroot.sh), so that the kernel's own compiler builds it.
#
#   tools/kernel/kmake.sh ID DIR [MAKE ARGS...]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 2 ]; then
	sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
id=$1 dir=$2
shift 2
env=$("$here/kernel-env.sh" -q "$id") || exit 1
kdir=$(echo "$env" | sed -n 's/^KDIR=//p')
root=$(echo "$env" | sed -n 's/^CHROOT=//p')
[ -e "$root$kdir/Makefile" ] || { echo "kmake: $kdir is not a kernel build tree" >&2; exit 1; }
if [ -z "$root" ]; then
	exec make -C "$kdir" M="$dir" "$@"
fi
exec "$here/in-chroot.sh" "$root" "$dir" /build/m -- make -C "$kdir" M=/build/m "$@"
