#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host entry of the cxprm kselftests: builds cxprm.ko, cxprm-emud, a static
# cxprm CLI and the test programs, boots the QEMU guest (TCG) with the
# firmware emulator behind the ivshmem device, runs run_guest_tests.sh in
# it, and exits with the guest's status (0 = every test passed).
#
#   selftests/cxprm/run.sh [options] [-- TEST...]
#
#   --no-build         use what is built
#   --profile NAME     emulated adapter (names: cxprm-emud --list-profiles;
#                      default bf3: the BlueField-3 Arm side, an ECPF
#                      eswitch manager -- the tests use
#                      QUERY_ESW_FUNCTIONS and ESW_FUNCTIONS_CHANGED, which
#                      exist only there; cx7/cx5 are plain PFs)
#   --emud-args STR    more cxprm-emud options (e.g. "--nvmf-auto-io-ms 0")
#   --modparams STR    insmod parameters (default "allow_raw_write=1
#                      cmd_timeout_ms=3000")
#   --timeout S        whole guest run (default 300)
#   --tool PATH        a static cxprm CLI (default: built into .cache)
#   --no-tool          do not build/ship the CLI (its tests SKIP)
#   --msix N           MSI-X mode: ivshmem-doorbell with N vectors, the
#                      emulator its ivshmem server (run-guest.sh --msix);
#                      the guest runs its MSI-X step list
#   --debug-kernel     boot the cxprm debug test kernel (KASAN, kmemleak,
#                      lockdep, DMA-API debug; tools/kernel/build-test-kernel.sh,
#                      cached) with cxprm.ko built for it in .cache/debug-mod
#                      (W=1, the KUnit stage's tree)
#                      and a 4 MiB kernel log buffer; the guest runner must
#                      run its checker steps (debug-start, debug-check):
#                      the run fails if debug-check did not run and pass
#                      (with TEST... given, only if debug-check is one)
#   --linux ID         boot another supported kernel (tools/kernel/kernels.list:
#                      its Debian image, unpacked and cached by
#                      tools/kernel/kernel-env.sh) with cxprm.ko built for
#                      it in its chroot into .cache/kernels/<ID>/mod (W=1,
#                      the compile matrix's tree);
#                      an arm64 id (6.12-arm64, 6.12-arm64-16k) boots under
#                      qemu-system-aarch64 (run-guest.sh --arch arm64) with
#                      the CLI, emuctl and the tests cross-built
#                      (tools/qemu/build-guest-tools.sh --arch arm64)
#   --arch ARCH --kernel IMAGE --ko KO
#                      any other kernel: an arm64 one (e.g. bookworm's 6.1
#                      arm64 image with make module-arm64's cxprm.ko) with
#                      the guest programs cross-built as for --linux
#   --shutdown         then boot again and power off with the function
#                      bound: shutdown_check.sh (the PCI shutdown callback)
#   --vf               then boot a VF as a VM sees it (cx7vf) and do the
#                      same there: shutdown_check.sh --vf
#   -q                 do not stream the console
#   anything else      passed to tools/qemu/run-guest.sh (--keep, --verbose, ...)
#   TEST...            steps of run_guest_tests.sh (default: all)
#
# Environment: KDIR (kernel build tree, default /lib/modules/<kver>/build),
# KVER, CXPRM_EMUD (a cxprm-emud binary to use instead of building one).
# Builds go to <repo>/.cache/selftests/ (git-ignored): the CMake tree
# build/ (static cxprm-emud and cxprm), the test binaries cxprm/, the
# last console log console.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$repo/.cache/selftests
out=$cache/cxprm

arch=x86_64 build=1 profile=bf3 emud_args="" modparams="allow_raw_write=1 cmd_timeout_ms=3000" timeout_s=300
tool="" with_tool=1 user_ko="" rg_opts=() tests=() debug=0 shutdown=0 vf=0 linux=""
while [ $# -gt 0 ]; do
	case "$1" in
	--no-build) build=0 ;;
	--profile) profile=$2; shift ;;
	--emud-args) emud_args=$2; shift ;;
	--modparams) modparams=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--tool) tool=$2; shift ;;
	--no-tool) with_tool=0 ;;
	--msix) rg_opts+=(--msix "$2"); shift ;;
	--debug-kernel) debug=1 ;;
	--linux) linux=$2; shift ;;
	--arch) arch=$2; rg_opts+=(--arch "$2"); shift ;;
	--ko) user_ko=$2; shift ;;
	--shutdown) shutdown=1 ;;
	--vf) vf=1 ;;
	-h | --help) sed -n '3,57p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; tests=("$@"); break ;;
	*) rg_opts+=("$1") ;;
	esac
	shift
done

say() { echo "selftests/cxprm: $*" >&2; }
t0=$(date +%s.%N)

# --- cxprm.ko ------------------------------------------------------------------
ko=$repo/cxprm.ko
if [ "$debug" = 1 ]; then
	# The debug kernel is slower under TCG (KASAN, lockdep): more memory
	# for KASAN's shadow and kmemleak, more time.
	kvars=$("$repo/tools/kernel/build-test-kernel.sh" --print)
	KDIR=$(echo "$kvars" | sed -n 's/^KDIR=//p')
	kernel=$(echo "$kvars" | sed -n 's/^KERNEL=//p')
	# The KUnit stage's tree and make arguments (run-kunit.sh): after
	# that stage this build only relinks.
	modout=$(echo "$kvars" | sed -n 's/^MODOUT=//p')
	ko=$modout/cxprm.ko
	if [ "$build" = 1 ]; then
		say "building cxprm.ko for the debug kernel ($KDIR)"
		mkdir -p "$cache"
		if ! "$repo/tools/kernel/build-module.sh" --kdir "$KDIR" --out "$modout" \
			-j"$(nproc)" W=1 -s >"$cache/debug-mod.log" 2>&1; then
			cat "$cache/debug-mod.log" >&2
			say "cxprm.ko did not build for the debug kernel"
			exit 1
		fi
		# An object that warned is not compiled again: tell the KUnit
		# stage, whose gate the W=1 warnings are, to start afresh.
		if grep -qE '(warning|WARNING):' "$cache/debug-mod.log"; then
			touch "$modout.build-warned"
		fi
	fi
	# A 4 MiB log buffer (the default is 128 KiB): the checker step
	# greps dmesg after the whole run.
	rg_opts=(--kernel "$kernel" --mem 1024 --append "log_buf_len=4M" "${rg_opts[@]+"${rg_opts[@]}"}")
	timeout_s=$((timeout_s * 3))
elif [ -n "$linux" ]; then
	kenv=$("$repo/tools/kernel/kernel-env.sh" -q "$linux") || { say "no kernel $linux"; exit 1; }
	# The compile matrix's tree and flags (check-kernels.sh, build-arm64.sh:
	# W=1), so after those stages this build only relinks.
	ko=$repo/.cache/kernels/$linux/mod/cxprm.ko
	if [ "$build" = 1 ]; then
		say "building cxprm.ko for Linux $linux (its chroot)"
		mkdir -p "$cache"
		if ! "$repo/tools/kernel/build-module.sh" --linux "$linux" --out "$(dirname "$ko")" \
			W=1 -s >"$cache/linux-mod.log" 2>&1; then
			cat "$cache/linux-mod.log" >&2
			say "cxprm.ko did not build for Linux $linux"
			exit 1
		fi
	fi
	arch=$(echo "$kenv" | sed -n 's/^ARCH=//p')
	arch=${arch:-x86_64}
	rg_opts=(--arch "$arch" --kernel "$(echo "$kenv" | sed -n 's/^KERNEL=//p')" --kver "$(echo "$kenv" | sed -n 's/^KREL=//p')"
		--moddir "$(echo "$kenv" | sed -n 's/^MODDIR=//p')" "${rg_opts[@]+"${rg_opts[@]}"}")
elif [ -n "$user_ko" ]; then
	ko=$user_ko
elif [ "$build" = 1 ]; then
	# shellcheck source=tools/kernel/kdir.sh
	. "$repo/tools/kernel/kdir.sh"
	if make -C "$repo" -n module >/dev/null 2>&1; then
		say "make module"
		make -s -C "$repo" module
	else
		[ -n "${KDIR:-}" ] || { say "no kernel build tree; set KDIR"; exit 1; }
		say "building cxprm.ko against $KDIR"
		"$repo/tools/ifcgen/gen-core-layouts.sh" >/dev/null
		make -s -C "$KDIR" M="$repo" modules 2>&1 | grep -v 'Skipping BTF generation' || true
	fi
fi
[ -f "$ko" ] || { say "no $ko"; exit 1; }

# --- cxprm-emud and the CLI -----------------------------------------------------
# Linked static: the CLI runs in the busybox guest (tools/qemu/build-static.sh).
sbuild=${CXPRM_STATIC_BUILD:-$repo/.cache/static-build}
if [ "$arch" != x86_64 ]; then
	# The guest's programs for its architecture; the emulator stays the
	# host's (below).
	if [ "$build" = 1 ]; then
		say "building the CLI, emuctl and the tests for $arch (tools/qemu/build-guest-tools.sh)"
		gvars=$("$repo/tools/qemu/build-guest-tools.sh" --arch "$arch") || { say "the $arch guest programs did not build"; exit 1; }
	else
		gvars=$(printf 'CLI=%s\nSELFTESTS_DIR=%s\n' "$repo/.cache/static-build-$arch/tools/cxprm/cxprm" \
			"$repo/.cache/guest-$arch/selftests")
	fi
	out=$(echo "$gvars" | sed -n 's/^SELFTESTS_DIR=//p')
	[ "$with_tool" = 0 ] || [ -n "$tool" ] || tool=$(echo "$gvars" | sed -n 's/^CLI=//p')
fi
if [ "$build" = 1 ]; then
	[ -n "${CXPRM_EMUD:-}" ] || { say "building cxprm-emud (static)"; "$repo/tools/qemu/build-static.sh" cxprm-emud >/dev/null; }
	if [ "$with_tool" = 1 ] && [ -z "$tool" ] && [ "$arch" = x86_64 ]; then
		say "building the cxprm CLI (static)"
		"$repo/tools/qemu/build-static.sh" cxprm >/dev/null ||
			say "the cxprm CLI did not build: its tests will SKIP"
	fi
fi
emud=${CXPRM_EMUD:-$sbuild/tools/emulator/daemon/cxprm-emud}
[ -x "$emud" ] || { say "no cxprm-emud at $emud"; exit 1; }
if [ "$with_tool" = 1 ] && [ -z "$tool" ] && [ -x "$sbuild/tools/cxprm/cxprm" ]; then
	tool=$sbuild/tools/cxprm/cxprm
fi
if [ -n "$tool" ] && [ "$arch" = x86_64 ] && ldd "$tool" >/dev/null 2>&1; then
	say "$tool is not static: not shipping it (its tests will SKIP)"
	tool=""
fi

# --- the tests ----------------------------------------------------------------
if [ "$build" = 1 ] && [ "$arch" = x86_64 ]; then
	say "building the tests into $out"
	make -s -C "$here" OUTPUT="$out" -j"$(nproc)"
fi
files=()
while read -r f; do
	[ -e "$f" ] || { say "missing $f (build first)"; exit 1; }
	files+=(--file "$f:/cxprm/selftests/$(basename "$f")")
done < <(make -s -C "$here" OUTPUT="$out" list)
[ -n "$tool" ] && files+=(--file "$tool:/cxprm/selftests/cxprm")

script=$(mktemp "${TMPDIR:-/tmp}/cxprm-selftests.XXXXXXXX")
trap 'rm -f "$script"' EXIT
{
	printf 'CXPRM_MODPARAMS=%q\nexport CXPRM_MODPARAMS\n' "$modparams"
	# The debug kernel's checkers are required, not just used if found.
	[ "$debug" = 0 ] || printf 'CXPRM_REQUIRE_DEBUG=1\nexport CXPRM_REQUIRE_DEBUG\n'
	printf 'exec sh /cxprm/selftests/run_guest_tests.sh'
	printf ' %q' "${tests[@]+"${tests[@]}"}"
	printf '\n'
} >"$script"

t1=$(date +%s.%N)
say "booting the guest (cxprm-emud --profile $profile${emud_args:+ $emud_args})"
console=$cache/console.log
mkdir -p "$cache"
rc=0
"$repo/tools/qemu/run-guest.sh" --no-load --ko "$ko" --emud --emud-bin "$emud" --profile "$profile" \
	${emud_args:+--emud-args "$emud_args"} --timeout "$timeout_s" --console-log "$console" \
	"${files[@]}" --script "$script" "${rg_opts[@]+"${rg_opts[@]}"}" || rc=$?
t2=$(date +%s.%N)
# The outer TAP lines and the summary, whatever the console streaming.
if [ -s "$console" ]; then
	say "results (full console: $console):"
	tr -d '\r' <"$console" | grep -aE '^(ok|not ok) [0-9]+ selftests: |^# cxprm selftests: ' >&2 || true
fi
# Why a test failed, from the console: the inner harness's failing lines
# and any kernel report (the stage log then holds the cause, not just the
# verdict).
if [ -s "$console" ] && tr -d '\r' <"$console" | grep -aqE '^not ok [0-9]+ selftests: '; then
	say "failure details (console):"
	tr -d '\r' <"$console" | grep -aE '^# +(not ok|FAIL|.*Expected|kmemleak: [1-9]|unreferenced object|dma-api: error_count [1-9]|lockdep: debug_locks 0)|BUG:|WARNING:|KASAN|possible (circular|recursive)|DMA-API:' |
		tail -n 20 | cut -c1-240 >&2 || true
fi
# On the debug kernel the checkers must have run and passed: a guest
# runner that left its debug-check step out must not pass silently.
if [ "$debug" = 1 ] && { [ ${#tests[@]} = 0 ] || printf '%s\n' "${tests[@]}" | grep -qx debug-check; }; then
	if ! tr -d '\r' <"$console" 2>/dev/null | grep -aqE '^ok [0-9]+ selftests: cxprm: debug-check # [0-9.]+s$'; then
		say "--debug-kernel: the debug-check step did not run or did not pass"
		[ "$rc" != 0 ] || rc=1
	fi
fi
if [ "$shutdown" = 1 ]; then
	say "powering off with the function bound (shutdown_check.sh)"
	"$here/shutdown_check.sh" --ko "$ko" --emud-bin "$emud" --profile "$profile" \
		"${rg_opts[@]+"${rg_opts[@]}"}" || { [ "$rc" != 0 ] || rc=1; }
fi
if [ "$vf" = 1 ]; then
	say "a VF as a VM sees it, bound and powered off (shutdown_check.sh --vf)"
	"$here/shutdown_check.sh" --vf --ko "$ko" --emud-bin "$emud" \
		"${rg_opts[@]+"${rg_opts[@]}"}" || { [ "$rc" != 0 ] || rc=1; }
fi
awk -v a="$t0" -v b="$t1" -v c="$t2" -v rc="$rc" 'BEGIN {
	printf "selftests/cxprm: build %.1fs, guest run %.1fs: %s (status %d)\n", b - a, c - b,
		rc == 0 ? "PASS" : "FAIL", rc }' >&2
exit "$rc"
