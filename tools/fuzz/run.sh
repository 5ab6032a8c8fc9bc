#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the libFuzzer targets (fuzz/, Documentation/fuzzing.rst) with clang
# into build-fuzz/ and runs each for a bounded time, starting from its
# committed corpus (fuzz/corpus/<target>/) and regression inputs
# (fuzz/regressions/<target>/).  Prints one summary line per target:
#
#   fuzz: cmdq_output    executions 91234     exec/s 304    (1950 per CPU s)   corpus 12 committed + 180 found   crashes: 0   ok
#
# then the total (executions, seconds, the load average when it began),
# and exits 1 when any target crashed, leaked, hit UB, hung (-timeout) or
# ran out of memory; the input that did it is copied to
# build-fuzz/artifacts/<target>/ (make it a regression:
# fuzz/regressions/<target>/<name>, see the documentation).
#
#   tools/fuzz/run.sh [--seconds N] [--execs N] [--seed N] [--jobs N] [--parallel N] [--seeds] [TARGET...]
#     --seconds N  per target (default: $FUZZ_SECONDS, else 300); with
#                  --execs, per target and round
#     --execs N    run the targets in rounds, each target --seconds a round,
#                  until all of them together executed N inputs (make fuzz:
#                  10,000,000); every round goes on from the corpus so far
#     --seed N     libFuzzer's random seed (default: a new one each run).
#                  make check-fuzz fixes it, so that a run on the same
#                  corpus tries the same inputs first: a finding there is
#                  reproducible, and the gate does not turn red at random
#                  on inputs an earlier run never reached in its time
#     --jobs N     libFuzzer worker processes per target (default 1; make
#                  fuzz runs one per CPU)
#     --parallel N targets run at the same time (default 1; make check-fuzz
#                  runs one per CPU).  Each target keeps its --jobs workers
#                  and its --seconds; side by side they share the
#                  machine's caches, so each runs somewhat fewer inputs
#                  than alone, in a fraction of the wall time
#     --seeds      first rewrite fuzz/corpus/ with the seed generator
#     TARGET       a subset (default: every target)
#
# New corpus entries stay in build-fuzz/corpus/<target>/ (not committed).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
build=$repo/build-fuzz
# The targets: fuzz/CMakeLists.txt's FUZZ_TARGETS (the one list).
all=$(sed -n 's/^set(FUZZ_TARGETS \(.*\))$/\1/p' "$repo/fuzz/CMakeLists.txt")

seconds=${FUZZ_SECONDS:-300}
want_execs=0
seed_args=()
jobs=1
parallel=1
seeds=0
targets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--seconds) seconds=$2; shift 2 ;;
	--execs) want_execs=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--parallel) parallel=$2; shift 2 ;;
	--seed) seed_args=(-seed="$2"); shift 2 ;;
	--seeds) seeds=1; shift ;;
	-h|--help) sed -n '3,38p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) targets+=("$1"); shift ;;
	esac
done
for n in "$jobs" "$parallel"; do
	case "$n" in '' | *[!0-9]* | 0) echo "run.sh: --jobs and --parallel take a count of at least 1 (got '$n')" >&2; exit 2 ;; esac
done
[ ${#targets[@]} -gt 0 ] || read -r -a targets <<<"$all"
for t in "${targets[@]}"; do
	case " $all " in *" $t "*) ;; *) echo "run.sh: no target '$t' (targets: $all)" >&2; exit 2 ;; esac
done

CXX=${FUZZ_CXX:-clang++}
CC=${FUZZ_CC:-clang}
command -v "$CXX" >/dev/null || { echo "run.sh: $CXX not found (make deps installs clang)" >&2; exit 1; }

if ! grep -qs '^CXPRM_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
	cmake -S "$repo" -B "$build" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCXPRM_FUZZ=ON >"$build.configure.log" 2>&1 ||
		{ cat "$build.configure.log"; exit 1; }
	mv "$build.configure.log" "$build/configure.log"
else
	# Configured before: again, so that a target added since is known.
	cmake "$build" >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
exes=()
for t in "${targets[@]}"; do exes+=("fuzz_$t"); done
echo "fuzz: building ${exes[*]} in build-fuzz/ ($CXX, ASan+UBSan+libFuzzer)"
if ! cmake --build "$build" -j"$(nproc)" --target "${exes[@]}" >"$build/build.log" 2>&1; then
	tail -n 40 "$build/build.log"
	echo "fuzz: build failed (build-fuzz/build.log)" >&2
	exit 1
fi

if [ "$seeds" = 1 ]; then
	# The generator is an ordinary program; build it without sanitizers.
	gen=$build/seeds
	cmake -S "$repo" -B "$gen" >/dev/null
	cmake --build "$gen" -j"$(nproc)" --target fuzz_make_seeds >/dev/null
	rm -rf "$repo/fuzz/corpus"
	"$gen/fuzz/fuzz_make_seeds" "$repo/fuzz/corpus"
	echo "fuzz: seed corpus rewritten ($(find "$repo/fuzz/corpus" -type f | wc -l) files)"
fi

# UBSan reports abort (the targets are built -fno-sanitize-recover); leaks
# are reported at exit of each input's process by LeakSanitizer.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# CPU time of each target's run (user + system, children included).
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -f '%U %S')
failed=0
total_execs=0
started=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg)
declare -A t_execs=() t_cpu=() t_secs=() t_crashes=()
# fuzz_round T: one run of target T, --seconds long, in a directory of its
# own (libFuzzer's -jobs writes fuzz-N.log into the working directory, and
# targets may run side by side); writes "executions cpu-seconds crashes"
# to $build/logs/T.round.
fuzz_round() {
	local t=$1 work=$build/corpus/$1 art=$build/artifacts/$1 log=$build/logs/$1.log
	local rc=0 execs cpu crashes seeds_dirs=("$repo/fuzz/corpus/$1") jobs_args=() timer=()
	local cwd=$build/run/$1
	mkdir -p "$work" "$art" "$(dirname "$log")" "$cwd"
	rm -f "$log.time" "$cwd"/fuzz-*.log
	[ ${#timed[@]} -eq 0 ] || timer=("${timed[@]}" -o "$log.time")
	[ -d "$repo/fuzz/regressions/$t" ] && seeds_dirs+=("$repo/fuzz/regressions/$t")
	[ "$jobs" -gt 1 ] && jobs_args=(-jobs="$jobs" -workers="$jobs")
	(cd "$cwd" && "${timer[@]}" "$build/fuzz/fuzz_$t" "$work" "${seeds_dirs[@]}" -max_total_time="$seconds" \
		-timeout=20 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$art/" "${jobs_args[@]}" "${seed_args[@]}") >"$log" 2>&1 || rc=$?
	cat "$cwd"/fuzz-*.log >>"$log" 2>/dev/null || true
	rm -f "$cwd"/fuzz-*.log
	execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
	cpu=$(awk '{print $1 + $2}' "$log.time" 2>/dev/null || echo 0)
	crashes=$(find "$art" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
		crashes=1 # died without an artifact (e.g. UB before the first input)
	fi
	if grep -qE 'runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$log"; then
		[ "$crashes" -gt 0 ] || crashes=1
	fi
	[ "$crashes" -eq 0 ] || cp "$log" "$log.failed"
	echo "$execs $cpu $crashes" >"$build/logs/$t.round"
}
# add_round T: T's last round into the totals.
add_round() {
	local t=$1 execs=0 cpu=0 crashes=1
	# No line: the round died before it wrote one; a failure.
	[ -s "$build/logs/$t.round" ] && read -r execs cpu crashes <"$build/logs/$t.round"
	t_execs[$t]=$((${t_execs[$t]:-0} + execs))
	t_cpu[$t]=$(awk -v a="${t_cpu[$t]:-0}" -v b="$cpu" 'BEGIN { print a + b }')
	t_secs[$t]=$((${t_secs[$t]:-0} + seconds))
	total_execs=$((total_execs + execs))
	[ "$crashes" -eq 0 ] || t_crashes[$t]=$crashes
}
for t in "${targets[@]}"; do rm -rf "$build/artifacts/$t" "$build/logs/$t.log.failed"; done
rounds=0
while :; do
	rounds=$((rounds + 1))
	# At most --parallel targets at once; a target that failed stays
	# failed (its artifact kept).
	running=()
	for t in "${targets[@]}"; do
		[ -z "${t_crashes[$t]:-}" ] || continue
		rm -f "$build/logs/$t.round"
		fuzz_round "$t" &
		running+=("$t")
		[ ${#running[@]} -ge "$parallel" ] || continue
		wait
		for r in "${running[@]}"; do add_round "$r"; done
		running=()
	done
	wait
	for r in "${running[@]}"; do add_round "$r"; done
	[ "$total_execs" -lt "$want_execs" ] || break
	[ ${#t_crashes[@]} -lt ${#targets[@]} ] || break
	echo "fuzz: round $rounds: $total_execs executions so far, $want_execs wanted"
done
for t in "${targets[@]}"; do
	execs=${t_execs[$t]}
	# Executions per second of the whole target (all workers), on the wall
	# clock, and per CPU second (user + system of all workers): what the
	# machine's load does not change.
	rate=$((execs / (t_secs[$t] > 0 ? t_secs[$t] : 1)))
	cpu_rate=$(awk -v e="$execs" -v c="${t_cpu[$t]}" 'BEGIN { printf "%d", (c > 0 ? e / c : 0) }')
	seeds_dirs=("$repo/fuzz/corpus/$t")
	[ -d "$repo/fuzz/regressions/$t" ] && seeds_dirs+=("$repo/fuzz/regressions/$t")
	nseeds=$(find "${seeds_dirs[@]}" -type f | wc -l)
	grown=$(find "$build/corpus/$t" -type f | wc -l)
	crashes=${t_crashes[$t]:-0}
	result=ok
	if [ "$crashes" -ne 0 ]; then
		result="FAILED (build-fuzz/logs/$t.log.failed, inputs in build-fuzz/artifacts/$t/)"
		failed=1
	fi
	printf 'fuzz: %-14s executions %-9s exec/s %-6s (%s per CPU s)   corpus %s committed + %s found   crashes: %s   %s\n' \
		"$t" "$execs" "$rate" "$cpu_rate" "$nseeds" "$grown" "$crashes" "$result"
done
elapsed=$(($(date +%s) - started))
printf 'fuzz: total          executions %s in %d s (%d targets x %d round(s) x %d s, %d worker(s) each, %d at a time; load average at the start %s, at the end %s)\n' \
	"$total_execs" "$elapsed" "${#targets[@]}" "$rounds" "$seconds" "$jobs" "$parallel" "$load0" "$(cut -d' ' -f1 /proc/loadavg)"
exit "$failed"
