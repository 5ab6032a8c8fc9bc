#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test stage, in order, each a make target; prints a
# summary line per stage as it ends and a table at the end.  Every stage
# runs even when an earlier one failed (CHECK_STOP=1: stop at the first
# failure); the exit status is 0 only if all passed.
#
#   tools/check.sh [STAGE...]        (default: all of them)
#
# Stages (make target):
#   userspace    check-userspace    CTest: core, emulator, tools, corpus replay
#   module       check-module       W=1 + sparse C=2 build, checkpatch, shellcheck
#   arm64        module-arm64       cxprm.ko cross-built for every arm64 kernel
#                                   (bookworm 6.1; the arm64 ids of kernels.list:
#                                   trixie 6.12 4K and 16K pages), W=1, 0 warnings
#   fuzz         check-fuzz         libFuzzer targets, bounded run (ASan+UBSan)
#   kunit        check-kunit        KUnit suites in QEMU on the debug kernel
#   guest        check-guest        kselftests in QEMU, Debian kernel
#   guest-msix   check-guest-msix   the same on MSI-X (ivshmem-doorbell)
#   guest-debug  check-guest-debug  the same kselftests on the debug kernel
#                                   (KASAN, kmemleak, lockdep, DMA-API debug)
#   mlx5         check-mlx5         Linux's own mlx5_core on the emulator (MSI-X)
#   mlx5-vf      check-mlx5-vf      the same on the emulated ConnectX-7 VF
#   handover     check-handover     cxprm bind / unbind --restore with mlx5_core
#   fwctl        check-fwctl        the tool over fwctl beside mlx5_core (7.3 +
#                                   fwctl modules built from linux-source-7.3),
#                                   then over cxprm.ko: the same answers
#   demo         demo               the README's demo session
#   kernels      check-kernels-amd64  the compile matrix: cxprm.ko W=1, vermagic
#                                   and DKMS for every amd64 kernel of
#                                   tools/kernel/kernels.list, in its chroot
#                                   (--matrix: check-kernels, the arm64 ids too)
#   guest-<ID>   check-guest-linux-<ID>  for every amd64 kernel ID of
#                                   kernels.list other than the host's (the
#                                   guest stage above): the kselftests booted
#                                   on it; for an arm64 ID (check-arm64-linux-<ID>)
#                                   under qemu-system-aarch64: the kselftests,
#                                   power-off with the function bound, the demo
#   mlx5-<ID>    check-mlx5-linux-<ID>   that kernel's own mlx5_core on the
#                                   emulator, as the mlx5 stage
#   guest-msix-<ID>  check-guest-msix-linux-<ID>  only with --matrix: the
#                                   kselftests on MSI-X on that kernel
#   mlx5-vf-<ID> check-mlx5-vf-linux-<ID>  only with --matrix: the mlx5-vf
#                                   stage on that kernel
#   deb          check-deb          only when named (root; installs and purges
#                                   the packages): make deb, apt-get install,
#                                   the DKMS-built module in QEMU, purge
#
#   tools/check.sh --matrix          every stage but deb, the matrix-only
#                                   ones too (make check-matrix)
# Logs: .cache/check/<stage>.log (also streamed).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo" || exit 1

# The compile matrix: amd64 ids here (the arm64 stage builds the arm64 ones
# W=1 already); every id, DKMS for arm64 too, with --matrix.
kernels=check-kernels-amd64
[ "${1:-}" != --matrix ] || kernels=check-kernels
all=(userspace:check-userspace module:check-module arm64:module-arm64 "kernels:$kernels" fuzz:check-fuzz kunit:check-kunit
	guest:check-guest guest-msix:check-guest-msix guest-debug:check-guest-debug mlx5:check-mlx5 mlx5-vf:check-mlx5-vf
	handover:check-handover fwctl:check-fwctl demo:demo)
matrix=()
# The other kernels: one kselftest boot and mlx5_core each; MSI-X in the matrix.
# Only amd64 ones (kernel-env.sh --list-arch amd64): these stages boot an
# x86 guest; arm64 guests get stages of their own (--list-arch arm64).
hosts=$(awk '!/^#/ && NF && $2 == "host" { print $1 }' tools/kernel/kernels.list)
while read -r id; do
	all+=("guest-$id:check-guest-linux-$id" "mlx5-$id:check-mlx5-linux-$id")
	matrix+=("guest-msix-$id:check-guest-msix-linux-$id" "mlx5-vf-$id:check-mlx5-vf-linux-$id")
done < <(tools/kernel/kernel-env.sh --list-arch amd64 | grep -vxF "$hosts")
# arm64 kernels: kselftests + power-off + demo session, polling; MSI-X in
# the matrix (qemu-system-aarch64, TCG).
while read -r id; do
	all+=("guest-$id:check-arm64-linux-$id")
	matrix+=("guest-msix-$id:check-arm64-msix-linux-$id")
done < <(tools/kernel/kernel-env.sh --list-arch arm64)
named_only=(deb:check-deb)
if [ "${1:-}" = --matrix ]; then
	shift
	all+=("${matrix[@]}")
else
	named_only+=("${matrix[@]}")
fi
want=("$@")
logs=$repo/.cache/check
mkdir -p "$logs"

summary=()
failed_stages=()
failed=0
t_all=$(date +%s)
for spec in "${all[@]}" "${named_only[@]}"; do
	stage=${spec%%:*} target=${spec#*:}
	if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$stage"; then
		continue
	fi
	if [ ${#want[@]} = 0 ] && printf '%s\n' "${named_only[@]}" | grep -qx "$spec"; then
		continue
	fi
	if [ "$failed" != 0 ] && [ "${CHECK_STOP:-0}" = 1 ]; then
		summary+=("$(printf 'check: %-12s SKIP  (an earlier stage failed)' "$stage")")
		continue
	fi
	echo "=== check: $stage (make $target) ==="
	t0=$(date +%s)
	make --no-print-directory "$target" 2>&1 | tee "$logs/$stage.log"
	rc=${PIPESTATUS[0]}
	dt=$(($(date +%s) - t0))
	if [ "$rc" = 0 ]; then
		line=$(printf 'check: %-12s PASS  %4ds' "$stage" "$dt")
	else
		line=$(printf 'check: %-12s FAIL  %4ds  (status %d, log %s)' "$stage" "$dt" "$rc" ".cache/check/$stage.log")
		failed=1
		failed_stages+=("$stage")
	fi
	echo "$line"
	summary+=("$line")
done
echo "=== check: summary ($(($(date +%s) - t_all))s) ==="
printf '%s\n' "${summary[@]}"
# What made each failed stage fail, at the very end where a truncated CI
# log still shows it: its failing test lines, else its log's last lines.
for stage in "${failed_stages[@]}"; do
	echo "=== check: $stage failed; from .cache/check/$stage.log ==="
	tr -d '\r' <"$logs/$stage.log" | grep -aE 'not ok |FAIL|[Ff]ailed|did not|[Ee]rror|timed out|Timeout|BUG:|WARNING:|Call Trace' |
		grep -av 'check: ' | tail -n 8 | cut -c1-200 | grep . ||
		tr -d '\r' <"$logs/$stage.log" | tail -n 8 | cut -c1-200
done
[ "$failed" = 0 ] && echo "check: all stages passed" || echo "check: FAILED"
exit "$failed"
