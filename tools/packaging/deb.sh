#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make deb`: dist/cxprm-dkms_<ver>_all.deb and dist/cxprm-tools_<ver>_<arch>.deb
# with Debian's own tooling (dpkg-buildpackage, debhelper, dh-dkms), built
# from a copy of the working tree (tracked and untracked, not ignored files)
# in .cache/deb/, then lintian (remaining tags: Documentation/packaging.rst).
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
ver=$(dpkg-parsechangelog -S Version)
cmake_ver=$(sed -n 's/^project(cxprm VERSION \([0-9.]*\) .*/\1/p' CMakeLists.txt)
if [ "$ver" != "$cmake_ver" ]; then
	echo "deb: debian/changelog says $ver, CMakeLists.txt says $cmake_ver" >&2
	exit 1
fi

stage=$repo/.cache/deb
rm -rf "$stage"
mkdir -p "$stage/cxprm-$ver" dist
git ls-files -co --exclude-standard -z | grep -zv '^dist/' |
	xargs -0 cp --parents -t "$stage/cxprm-$ver"
(cd "$stage/cxprm-$ver" &&
	CXPRM_DEB_CMAKE_ARGS="${CMAKE_ARGS:-}" DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=${JOBS:-2}" \
	dpkg-buildpackage -b -us -uc >"$stage/build.log" 2>&1) || {
	tail -40 "$stage/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log $stage/build.log)" >&2
	exit 1
}
rm -f dist/cxprm-*.deb
mv "$stage"/cxprm-*.deb dist/
ls -l dist/*.deb
if command -v lintian >/dev/null; then
	lintian --fail-on error,warning dist/*.deb
	echo "deb: lintian clean (warnings and errors; overrides in debian/*.lintian-overrides)"
fi
