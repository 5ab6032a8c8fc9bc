#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs a command in a kernel's build chroot (tools/kernel/kernel-env.sh)
# with a host directory visible inside it, in a private mount namespace:
# the bind mount and /proc vanish when the command ends, nothing to clean
# up, and two runs never see each other's mounts.
#
#   tools/kernel/in-chroot.sh CHROOT HOSTDIR INSIDE -- COMMAND [ARGS...]
#
# HOSTDIR appears as INSIDE (an absolute path in the chroot; created).
# Needs root (mount namespaces), as the chroots do.
set -euo pipefail

if [ $# -lt 5 ] || [ "$4" != -- ]; then
	sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
root=$1 hostdir=$2 inside=$3
shift 4
[ -d "$root/usr" ] || { echo "in-chroot: $root is not a chroot" >&2; exit 2; }
[ -d "$hostdir" ] || { echo "in-chroot: no directory $hostdir" >&2; exit 2; }
mkdir -p "$root$inside"
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare -m --propagation private sh -c '
	root=$1 hostdir=$2 inside=$3
	shift 3
	mount --bind "$hostdir" "$root$inside" || exit 125
	mount -t proc proc "$root/proc" 2>/dev/null || true
	exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
' in-chroot "$root" "$hostdir" "$inside" "$@"
