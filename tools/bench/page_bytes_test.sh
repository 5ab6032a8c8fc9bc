#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CTest page_mailbox_bytes: one MANAGE_PAGES(GIVE) of 2^18 pages stores
# exactly 9.00 bytes a page into its mailbox chain (each byte of each
# 576-byte block once; Documentation/performance.rst, "Bytes written").
# DHAT counts the bytes written per allocation site; give_pages_bytes.py
# subtracts a run of one GIVE from a run of two.  About 15 s.
#
#   page_bytes_test.sh CXPRM_BENCH GIVE_PAGES_BYTES_PY
set -euo pipefail
bench=$1 script=$2
command -v valgrind >/dev/null || { echo "page_bytes_test: no valgrind (make deps installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 1 2; do
	if ! valgrind --tool=dhat --dhat-out-file="$tmp/dhat.$n" "$bench" --count pages "$n" >/dev/null 2>"$tmp/err.$n"; then
		tail -n 20 "$tmp/err.$n"
		exit 1
	fi
done
python3 "$script" --check "$tmp/dhat.1" "$tmp/dhat.2" 262144
