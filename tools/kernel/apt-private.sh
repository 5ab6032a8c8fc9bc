# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by tools/kernel/kernel-env.sh and arm64-headers.sh: apt with
# package lists and downloads of its own, the machine's apt setup and
# state untouched.  The caller defines say and die.
#
#   apt_private DIR [APT OPTIONS...]  sets the array aptx: the options that
#                                     keep lists and archives in DIR, then
#                                     the caller's (sources, architecture)
#   apt_private_update DIR WHAT       apt-get update with them, at most
#                                     every 12 hours (a new point release
#                                     then gives new versions, unpacked
#                                     beside the old)
#   apt_machine_arm64 DIR             apt_private + apt_private_update for
#                                     the arm64 packages of the machine's
#                                     own sources (arm64-headers.sh and
#                                     guest-busybox.sh share DIR)
#   apt_unpack DEST PKG[=VER]...      apt-get download them with aptx into
#                                     DEST.debs and unpack each with
#                                     dpkg-deb -x into DEST (created; what
#                                     it holds already stays)

apt_private() {
	local dir=$1
	shift
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	aptx=(-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir" -o Dir::Cache::archives="$dir/archives"
		-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@")
}

apt_private_update() {
	local dir=$1 what=$2
	[ -z "$(find "$dir/updated" -mmin -720 2>/dev/null)" ] || return 0
	say "apt-get update ($what) into $dir"
	apt-get "${aptx[@]}" -q update >"$dir/update.log" 2>&1 ||
		{ cat "$dir/update.log" >&2; die "apt-get update failed for $what"; }
	touch "$dir/updated"
}

apt_machine_arm64() {
	# status=/dev/null: the host's installed amd64 packages are not ours.
	apt_private "$1" -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o Dir::State::status=/dev/null
	apt_private_update "$1" "arm64 lists of the machine's sources"
}

apt_unpack() {
	local dest=$1 deb
	shift
	rm -rf "$dest.debs"
	mkdir -p "$dest" "$dest.debs"
	(cd "$dest.debs" && apt-get "${aptx[@]}" -q download "$@" >download.log 2>&1) ||
		{ cat "$dest.debs/download.log" >&2; die "apt-get download $* failed"; }
	for deb in "$dest.debs"/*.deb; do dpkg-deb -x "$deb" "$dest"; done
	rm -rf "$dest.debs"
}
