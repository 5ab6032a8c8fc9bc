#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cxprm_docs_agree: the built cxprm(8) says what the tool's --help says.
# Renders the page (man -l) and checks every line of `cxprm --help` and of
# each `cxprm COMMAND --help` is in it, that every command has its section
# and its completion entry, and that the page is what cxprm-docgen makes now.
#   docs_test.sh CXPRM CXPRM_DOCGEN MAN_PAGE BASH_COMPLETION
set -euo pipefail
cli=$1 docgen=$2 page=$3 comp=$4
fails=0
fail() { echo "docs: $*" >&2; fails=$((fails + 1)); }

ver=$("$cli" --version | cut -d' ' -f2)
cmp -s <("$docgen" man "$ver") "$page" || fail "$page is stale (cxprm-docgen man $ver differs)"
rendered=$(MANWIDTH=300 man -l "$page" 2>/dev/null | col -bx | sed 's/^ *//; s/ *$//')
check_help() { # words...
	local l
	while IFS= read -r l; do
		l=$(echo "$l" | sed 's/^ *//; s/ *$//')
		[ -z "$l" ] && continue
		grep -qxF -- "$l" <<<"$rendered" || fail "'cxprm $* --help' line not in the man page: $l"
	done < <("$cli" "$@" --help)
}
check_help
# The commands: the page's sections; every row of --help's command list
# must be one of them (so none is missing from the page).
cmds=$(sed -n 's/^\.SS //p' "$page" | sed 's/\\-/-/g')
while IFS= read -r row; do
	ok=0
	while IFS= read -r c; do
		case "$row " in "$c "*) ok=1 ;; esac
	done <<<"$cmds"
	[ "$ok" = 1 ] || fail "--help lists '$row', the page has no section for it"
done < <("$cli" --help | sed -n '/^commands:/,/^$/p' | sed '1d;/^$/d; s/^ *//')
n=0
while IFS= read -r c; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	check_help $c
	grep -qxF "$c" <<<"$rendered" || fail "no section for '$c'"
	grep -qF "'$c')" "$comp" || fail "no completion entry for '$c'"
done <<<"$cmds"
[ "$n" -ge 15 ] || fail "only $n commands found in cxprm --help"
bash -n "$comp" || fail "$comp is not valid bash"
[ "$fails" = 0 ] || exit 1
echo "docs: cxprm(8) and the completion agree with --help ($n commands)"
