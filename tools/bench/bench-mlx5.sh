#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cxprm side by side with Linux's unmodified mlx5_core (`make bench`, the
# part after the guest ioctl rate; Documentation/performance-mlx5.rst): one
# QEMU guest (TCG, MSI-X on ivshmem-doorbell), one cxprm-emud spinning
# (--spin-us SPIN, default 1 s: a doorbell is seen at once, not after an
# idle sleep) and tracing each command, ROUNDS rounds of bind and unbind
# for cxprm (cmd_mode=poll) and mlx5_core (tools/qemu/run-mlx5.sh --bench,
# tools/qemu/guest/mlx5-bench.sh), with ftrace function_graph on each
# driver's command entry (mlx5_cmd_do; Cmdq::exec and exec_split) during the binds.
# Figures 1 (device time per command), 2 (software time per command), 4
# (driver ns per firmware page given and reclaimed) and 5 (time to
# INIT_HCA) of issue 33, each with its reference and ratio.
#
#   tools/bench/bench-mlx5.sh [--rounds N] [--spin-us SPIN] [--emud-bin PATH]
#                             [--ioctl-bin PATH] [--out DIR]
#
# --ioctl-bin: the static cxprm-bench-ioctl (default build/'s, when it is
# there) for figure 2's ioctl row: cxprm bound once more after the rounds,
# its ioctl handler traced while the program runs.
#
# Prints the tables on stdout (tools/bench/bench_mlx5_table.py); keeps the
# guest's figures in DIR/mlx5-bench.txt and the emulator's trace in
# DIR/emud-trace.txt (default: a temporary directory).  Exit status 1 when
# the guest run failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=20 spin_us=1000000 emud_bin="" out="" ioctl_bin=$repo/build/tools/bench/cxprm-bench-ioctl
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift ;;
	--spin-us) spin_us=$2; shift ;;
	--emud-bin) emud_bin=$2; shift ;;
	--ioctl-bin) ioctl_bin=$2; shift ;;
	--out) out=$2; shift ;;
	-h | --help) sed -n '3,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-mlx5: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
case "$rounds" in '' | *[!0-9]* | 0) echo "bench-mlx5: --rounds needs a number > 0" >&2; exit 2 ;; esac
case "$spin_us" in '' | *[!0-9]*) echo "bench-mlx5: --spin-us needs a number" >&2; exit 2 ;; esac
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/cxprm-bench-mlx5.XXXXXXXX")
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
t0=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg)
echo "bench: cxprm and mlx5_core in one guest, $rounds rounds, cxprm-emud --spin-us $spin_us" >&2
rc=0
files=()
[ ! -x "$ioctl_bin" ] || files=(--file "$ioctl_bin:/cxprm/cxprm-bench-ioctl")
"$repo/tools/qemu/run-mlx5.sh" --bench "$rounds" -q ${emud_bin:+--emud-bin "$emud_bin"} "${files[@]}" \
	--emud-args "--spin-us $spin_us --trace $out/emud-trace.txt" \
	--timeout $((120 + 40 * rounds)) >"$out/mlx5-bench.txt" 2>"$out/mlx5-bench.err" || rc=$?
if [ "$rc" != 0 ]; then
	cat "$out/mlx5-bench.txt" "$out/mlx5-bench.err" >&2
	echo "bench-mlx5: guest run failed ($rc)" >&2
	exit 1
fi
took=$(($(date +%s) - t0))
load1=$(cut -d' ' -f1 /proc/loadavg)

python3 "$repo/tools/bench/bench_mlx5_table.py" "$out/mlx5-bench.txt" "$out/emud-trace.txt" "$rounds" "$took"
# The emulator's doorbell line: a failed bind's dropped doorbell shows there.
tr -d '\r' <"$out/mlx5-bench.txt" | grep -a 'cxprm-emud: doorbells:' | sed 's/^.*cxprm-emud: /(emulator: /; s/$/)/' || true
echo "(host load average: $load0 at the start, $load1 at the end, on $(nproc) CPUs: TCG and the emulator share them)"
