# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the tools/kernel/ scripts for their messages, after they set
# me (the messages' prefix) and quiet (1: say is silent):
#   say MSG...        "$me: MSG..." on stderr, unless quiet
#   die MSG...        "$me: MSG..." on stderr, then exit 1
#   usage N           the script's header comment (lines 3 to N), then exit 0
#   unknown_option O  "<script>: unknown option O" on stderr, then exit 2
say() { [ "${quiet:-0}" = 1 ] || echo "${me:?}: $*" >&2; }
die() { echo "${me:?}: $*" >&2; exit 1; }
usage() { sed -n "3,${1}p" "$0" | sed 's/^# \{0,1\}//'; exit 0; }
unknown_option() {
	local name=${0##*/}
	echo "${name%.sh}: unknown option $1" >&2
	exit 2
}
