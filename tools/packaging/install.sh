#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The install layout of cxprm, in one place: `make install` and the Debian
# packages (debian/rules) both use it.
#
#   install.sh dkms  DESTDIR VERSION [BUILD]  module sources -> /usr/src/cxprm-VERSION
#   install.sh tools DESTDIR BUILD [PREFIX]   CLI, emulator, man pages,
#                                             completion, udev rule, modprobe.d
#   install.sh tools-remove DESTDIR BUILD [PREFIX]   removes those again
# dkms also writes dkms.conf unless NO_DKMS_CONF=1 (dh_dkms writes its own),
# and ships the core's generated PRM layouts (core-cpp/generated/cxprm/prm/
# layouts_gen.h), so a DKMS build needs neither python3 nor a particular
# mlx5_ifc.h: the CMake build's (BUILD/generated/) when BUILD is given, so
# the module's layouts are those the shipped tools were built with, else
# tools/ifcgen/gen-core-layouts.sh's (the host's newest header, >= 6.1).
set -eu

what=$1 dest=$2
src=$(cd "$(dirname "$0")/../.." && pwd)

case $what in
dkms)
	ver=$3 build=${4:-}
	d=$dest/usr/src/cxprm-$ver
	install -d "$d"
	layouts=core-cpp/generated/cxprm/prm/layouts_gen.h
	if [ -n "$build" ]; then
		gen=$build/generated/cxprm/prm/layouts_gen.h
		[ -f "$gen" ] || { echo "install.sh: no $gen (build the tools first)" >&2; exit 1; }
	else
		"$src/tools/ifcgen/gen-core-layouts.sh" >/dev/null
		gen=$src/$layouts
	fi
	install -D -m 0644 "$gen" "$d/$layouts"
	(cd "$src" && for f in Kbuild drivers/*.[ch] \
		drivers/compat/*.c drivers/compat/conftest.sh \
		core-cpp/include/cxprm/*.h core-cpp/include/cxprm/*.def core-cpp/include/cxprm/*/*.h \
		core-cpp/src/*.cpp core-cpp/src/*.h kunit/*/*.[ch] \
		kunit/core/*.cpp include/uapi/linux/*.h \
		tools/emulator/daemon/control.h; do
		install -D -m 0644 "$f" "$d/$f"
	done)
	if [ "${NO_DKMS_CONF:-0}" != 1 ]; then
		sed "s/#MODULE_VERSION#/$ver/" "$src/dkms.conf" >"$d/dkms.conf"
	fi
	;;
tools | tools-remove)
	build=$3 prefix=${4:-/usr}
	# mode source destination
	while read -r mode from to; do
		if [ "$what" = tools ]; then
			install -D -m "$mode" "$from" "$dest$to"
		else
			rm -f "$dest$to"
		fi
	done <<-LIST
	0755 $build/tools/cxprm/cxprm $prefix/sbin/cxprm
	0755 $build/tools/emulator/daemon/cxprm-emud $prefix/bin/cxprm-emud
	0644 $build/tools/cxprm/cxprm.8 $prefix/share/man/man8/cxprm.8
	0644 $build/tools/emulator/daemon/cxprm-emud.1 $prefix/share/man/man1/cxprm-emud.1
	0644 $build/tools/cxprm/cxprm.bash $prefix/share/bash-completion/completions/cxprm
	0644 $src/tools/packaging/60-cxprm.rules /lib/udev/rules.d/60-cxprm.rules
	0644 $src/tools/packaging/cxprm.conf /etc/modprobe.d/cxprm.conf
	LIST
	;;
*)
	echo "usage: install.sh dkms DESTDIR VERSION [BUILD] | install.sh tools DESTDIR BUILD [PREFIX]" >&2
	exit 1
	;;
esac
