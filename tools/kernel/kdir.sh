# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the build/test scripts: sets KDIR (the kernel build tree to
# build cxprm.ko against) unless the caller set it.  KVER defaults to the
# newest installed Debian kernel image (never `uname -r`: the host kernel
# is not the one we build for or boot in QEMU).  KDIR stays empty when no
# tree is found; the caller says so.
if [ -z "${KDIR:-}" ]; then
	if [ -z "${KVER:-}" ]; then
		KVER=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
		KVER=${KVER#/boot/vmlinuz-}
	fi
	for d in "/lib/modules/$KVER/build" "/usr/src/linux-headers-$KVER"; do
		if [ -e "$d/Makefile" ]; then KDIR=$d; break; fi
	done
fi
