#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # rst literals (``name``) in grep and sed patterns, not expansions
#
# The documented contracts against the code (a CTest, docs_contracts, so
# part of `make check`'s userspace stage): each list is read from the code
# and from the document that promises it, and they must be the same.
#   module parameters  drivers/cxprm_params.c module_param_*(),
#                      CXPRM_UINT_PARAM(), CXPRM_BOOL_PARAM()     vs the
#                      table of Documentation/kernel-module.rst "Module parameters"
#   debugfs files      drivers/cxprm_debugfs.c cxprm_dbg_names[]  vs its table "debugfs"
#   ioctls             include/uapi/linux/cxprm.h CXPRM_IOC_*     vs every one named
#                      in Documentation/ and README.md (each documented, none unknown)
#   exit codes         tools/cxprm/src/errors.h EXIT_*            vs the table of
#                      tools/cxprm/README.md "Exit codes and errors"
#   make targets       every `make TARGET` in README.md, Documentation/, the
#                      Makefile's own header and tools/check.sh's stages is a
#                      target of the Makefile (a rule, or a pattern rule's stem)
#
#   tools/check-docs.sh [REPO]
set -uo pipefail

repo=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$repo" || exit 2
fails=0
fail() { echo "check-docs: $*" >&2; fails=$((fails + 1)); }
# same WHAT CODE-LIST DOC-LIST: one name a line each.
same() {
	local what=$1 code doc
	code=$(echo "$2" | sort -u | grep .) doc=$(echo "$3" | sort -u | grep .)
	[ -n "$code" ] || fail "$what: none found in the code (did the code move?)"
	while read -r n; do fail "$what '$n' is in the code but not documented"; done < <(comm -23 <(echo "$code") <(echo "$doc") | grep .)
	while read -r n; do fail "$what '$n' is documented but not in the code"; done < <(comm -13 <(echo "$code") <(echo "$doc") | grep .)
}
# The lines of an rst section: from its title to the next title.
rst_section() { # FILE TITLE
	awk -v t="$2" '$0 == t { on = 1; next }
		on && /^(---+|===+|~~~+)$/ && prev != t { if (seen) exit; seen = 1; next }
		on { if (/^(---+|===+|~~~+)$/ && n) exit; print; n++ } { prev = $0 }' "$1" |
		sed '$d'
}

# --- module parameters ----------------------------------------------------------------
# (not the lines of a macro's definition: CXPRM_UINT_PARAM, CXPRM_BOOL_PARAM)
code=$(grep -vE '\\$' drivers/cxprm_params.c |
	grep -oE '(module_param(_cb|_named)?|CXPRM_(UINT|BOOL)_PARAM)\(([a-z_0-9]+)' | sed 's/.*(//')
doc=$(rst_section Documentation/kernel-module.rst 'Module parameters' | grep -oE '^``[a-z_0-9]+``' | tr -d '`')
same "module parameter" "$code" "$doc"

# --- debugfs files --------------------------------------------------------------------
code=$(sed -n '/cxprm_dbg_names\[/,/^};/p' drivers/cxprm_debugfs.c | grep -oE '= "[a-z_]+"' | tr -d '= "')
code="$code
$(grep -oE 'debugfs_create_file\("[a-z_]+"' drivers/cxprm_debugfs.c | grep -oE '"[a-z_]+"' | tr -d '"')"
doc=$(rst_section Documentation/kernel-module.rst 'debugfs' | grep -oE '^``[a-z_]+``' | tr -d '`')
same "debugfs file" "$code" "$doc"

# --- ioctls ---------------------------------------------------------------------------
# Documented as CXPRM_IOC_FOO, or in kernel-module.rst's ioctl section as
# ``FOO`` or a group ``DCT_*``.
code=$(grep -oE '^#define (CXPRM_IOC_[A-Z_]+)[[:space:]]+_IO' include/uapi/linux/cxprm.h | awk '{ print $2 }')
named=$(grep -ohE 'CXPRM_IOC_[A-Z_]+[A-Z]' README.md Documentation/*.rst | grep -v '^CXPRM_IOC_MAGIC$' | sort -u)
short=$(rst_section Documentation/kernel-module.rst 'Device node and ioctls' | grep -oE '``[A-Z_]+\*?``' | tr -d '`' | sort -u)
while read -r n; do
	grep -qx "$n" <<<"$code" || fail "ioctl '$n' is documented but not in the UAPI"
done <<<"$named"
while read -r n; do
	b=${n#CXPRM_IOC_}
	grep -qx "$n" <<<"$named" && continue
	grep -qx "$b" <<<"$short" && continue
	grep -qx "${b%%_*}_\*" <<<"$short" && continue
	fail "ioctl '$n' is in the UAPI but not documented (Documentation/kernel-module.rst)"
done <<<"$code"

# --- exit codes -----------------------------------------------------------------------
code=$(grep -oE 'EXIT_[A-Z]+ = [0-9]+' tools/cxprm/src/errors.h | awk '{ print $3 }')
doc=$(sed -n '/^## Exit codes and errors/,/^## /p' tools/cxprm/README.md | grep -oE '^\| [0-9]+ \|' | tr -d '| ')
same "exit code" "$code" "$doc"

# --- make targets ---------------------------------------------------------------------
# Rules: "name:" lines (not variables), and pattern rules "prefix-%:".
rules=$(grep -oE '^[a-z][a-z0-9_.-]*(-%)?:' Makefile | grep -v ':=' | tr -d ':' | sort -u)
is_target() {
	local t=$1 r
	while read -r r; do
		case "$r" in
		*-%) [[ "$t" == "${r%\%}"?* ]] && return 0 ;;
		*) [ "$t" = "$r" ] && return 0 ;;
		esac
	done <<<"$rules"
	return 1
}
# `make TARGET` as the docs quote it (``make x`` in rst, `make x` or a
# code block line in markdown, "#   make x" in the Makefile's header); an
# upper-case part is a placeholder (check-guest-linux-ID: a pattern rule).
mentioned=$( { grep -ohE '``make [a-z][A-Za-z0-9_.-]*' Documentation/*.rst | sed 's/^``//';
	grep -ohE '`make [a-z][A-Za-z0-9_.-]*' README.md tools/cxprm/README.md | sed 's/^`//';
	grep -ohE '^make [a-z][A-Za-z0-9_.-]*' README.md tools/cxprm/README.md;
	sed -n '1,/^[^#]/p' Makefile | grep -oE '^#   make [a-z][A-Za-z0-9_.-]*' | sed 's/^#   //'; } |
	sed -E 's/^make //; s/[.]$//' | sort -u)
while read -r t; do
	[ -n "$t" ] || continue
	case "$t" in *[A-Z]*) t=${t%%[A-Z]*}%PLACEHOLDER ;; esac
	if [ "${t%%PLACEHOLDER}" != "$t" ]; then
		grep -qxF "${t%%%PLACEHOLDER}%" <<<"$rules" ||
			fail "'make ${t%%%PLACEHOLDER}...' is documented but the Makefile has no such pattern rule"
		continue
	fi
	is_target "$t" || fail "'make $t' is documented but the Makefile has no such target"
done <<<"$mentioned"
# Every stage of tools/check.sh runs a target that exists.
while read -r t; do
	case "$t" in
	*-) grep -qxF "$t%" <<<"$rules" || fail "tools/check.sh stage target '$t\$id' has no pattern rule '$t%'" ;;
	*) is_target "$t" || fail "tools/check.sh stage target '$t' is not a Makefile target" ;;
	esac
done < <(grep -oE '[a-z0-9.-]+:(check|module|demo)[a-z0-9-]*' tools/check.sh | cut -d: -f2 | sort -u)
for t in deps check install uninstall; do is_target "$t" || fail "'make $t' is documented but missing"; done

if [ "$fails" != 0 ]; then
	echo "check-docs: $fails mismatch(es) between the documentation and the code" >&2
	exit 1
fi
echo "check-docs: module parameters, debugfs files, ioctls, exit codes and make targets match their documentation"
