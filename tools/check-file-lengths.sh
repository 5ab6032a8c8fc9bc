#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CTest no_file_over_600_lines: no text file of the project is over 600
# lines (DEVELOPERS.md: small files with one job each).  In a git checkout
# the tracked files; elsewhere (a source package) every file but hidden
# ones and build trees.  Binary files do not count.
#
#   tools/check-file-lengths.sh [SRC_DIR] [MAX]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
max=${2:-600}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	list() { git ls-files -z; }
else
	list() { find . -type f -not -path '*/.*' -not -path './build*' -not -path './debian/*' -print0; }
fi
bad=$(list | xargs -0 grep -Il . 2>/dev/null | tr '\n' '\0' | xargs -0 wc -l |
	awk -v max="$max" '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
if [ -n "$bad" ]; then
	echo "files over $max lines (split them by job):"
	echo "$bad"
	exit 1
fi
echo "file lengths: none over $max lines"
