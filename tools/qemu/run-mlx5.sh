#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Linux's own mlx5_core on the emulated ConnectX: boots the Debian kernel
# in QEMU (TCG) with cxprm-emud behind ivshmem-doorbell (MSI-X, the
# emulator its ivshmem server), loads mlx5_core and its dependencies from
# /lib/modules/<kver> (or a mlx5_core.ko of your own), puts the shared
# memory at BAR0 (cxswap.ko) and binds mlx5_core (/bin/mlx5-bind).
#
#   tools/qemu/run-mlx5.sh [options] [--] [GUEST COMMAND...]
#
#   (default)          bind, print mlx5_core's dmesg and /proc/interrupts,
#                      or run GUEST COMMAND after the bind (e.g.
#                      "mlx5-faults crash|gone|stuck": the emulator's
#                      faults, tools/qemu/guest/mlx5-faults.sh)
#   --check            the `make check` stage mlx5: bind, unbind, bind
#                      again, unbind, rmmod (tools/qemu/guest/mlx5-check.sh);
#                      passes only when mlx5_core was bound, its MSI-X
#                      vectors interrupted, no "mlx5_core ... failed" line
#                      (but the harmless ones that script lists), no kernel
#                      report, and the emulator's exit line has 0 unknown
#                      opcodes, 0 delivery errors and 0 pages held; prints
#                      one summary line
#   --handover         `make check-handover`: mlx5_core bound, then `cxprm
#                      bind` takes the function, a query answers, `cxprm
#                      unbind --restore` gives it back to mlx5_core
#                      (tools/qemu/guest/handover-check.sh; builds cxprm.ko
#                      and the static CLI)
#   --fwctl            `make check-fwctl`: on --linux ID (default 7.3, whose
#                      fwctl.ko and mlx5_fwctl.ko tools/kernel/build-fwctl.sh
#                      builds) and profile bf3 with --provision, mlx5_core
#                      keeps the function and the cxprm tool reaches it over
#                      fwctl, then over cxprm.ko after `cxprm bind`; both
#                      answers must match (tools/qemu/guest/fwctl-check.sh;
#                      Documentation/fwctl.rst); passes with "FWCTL: OK",
#                      0 unknown opcodes and 0 pages held at the end
#   --bench [ROUNDS]   tools/bench/bench-mlx5.sh (`make bench`): cxprm
#                      (cmd_mode=poll) and mlx5_core, bound and unbound
#                      ROUNDS times each (default 5), with each bind's
#                      per-command times (tools/qemu/guest/mlx5-bench.sh)
#   --mlx5-ko PATH     your mlx5_core.ko (built for the same kernel) instead
#                      of Debian's; its dependencies still come from
#                      /lib/modules/<kver>
#   --kver VERSION     kernel release (default: the newest /boot/vmlinuz-*)
#   --linux ID         another supported kernel (tools/kernel/kernels.list)
#                      with its own mlx5_core, unmodified: the Debian image
#                      unpacked by tools/kernel/kernel-env.sh, cxswap.ko
#                      built in its chroot (not with --handover/--bench)
#   --profile NAME     the emulated adapter (cxprm-emud --profile, default
#                      cx7; cx7vf: mlx5_core takes it for a VF by its own id
#                      table, see cxswap.c; `make check-mlx5-vf`)
#   --vectors N        MSI-X vectors (default 8)
#   --emud-args STR    more cxprm-emud options, e.g. "--trace --verbose"
#   --emud-bin PATH    cxprm-emud (default build/tools/emulator/daemon/cxprm-emud)
#   --no-build         use the cxprm-emud and cxswap.ko already built
#   -q                 do not stream the console
#   anything else      passed to tools/qemu/run-guest.sh (--keep, --verbose,
#                      --timeout S, --emulator-log FILE, ...)
#
# Exit status: run-guest.sh's (the guest command's; 120 kernel report,
# 124 timeout, 125/126 setup), with --check 1 when a condition failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

profile_given=0 check=0 rounds=5 mlx5_ko="" kver="" linux="" vectors=8 emud_args="" emud_bin="" build=1 rg_opts=() cmd=()
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1 ;;
	--handover) check=2 ;;
	--fwctl) check=4 ;;
	--bench)
		check=3
		case "${2:-}" in [0-9]*) rounds=$2; shift ;; esac
		;;
	--mlx5-ko) mlx5_ko=$2; shift ;;
	--kver) kver=$2; shift ;;
	--linux) linux=$2; shift ;;
	--vectors) vectors=$2; shift ;;
	--emud-args) emud_args=$2; shift ;;
	--emud-bin) emud_bin=$2; shift ;;
	--no-build) build=0 ;;
	-h | --help) sed -n '3,53p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; cmd=("$@"); break ;;
	-*)
		rg_opts+=("$1")
		case "$1" in
		--timeout | --emulator-log | --console-log | --mem | --smp | --append | --file | --bar-size | --profile)
			rg_opts+=("$2"); shift ;;
		esac
		case "$1" in --profile) profile_given=1 ;;
		esac
		;;
	*) cmd=("$@"); break ;;
	esac
	shift
done
say() { echo "run-mlx5: $*" >&2; }
[ "$check" = 0 ] || [ ${#cmd[@]} = 0 ] || { say "--check runs its own guest script"; exit 125; }
if [ "$check" = 4 ]; then
	linux=${linux:-7.3}
	[ "$profile_given" = 1 ] || rg_opts+=(--profile bf3)
	emud_args="--provision${emud_args:+ $emud_args}"
fi

kernel_opts=()
if [ -n "$linux" ]; then
	[ "$check" -lt 2 ] || [ "$check" = 4 ] || { say "--linux: not with --handover or --bench"; exit 125; }
	kenv=$("$repo/tools/kernel/kernel-env.sh" -q "$linux") || { say "no kernel $linux"; exit 125; }
	kver=$(echo "$kenv" | sed -n 's/^KREL=//p')
	moddir=$(echo "$kenv" | sed -n 's/^MODDIR=//p')
	kernel_opts=(--kernel "$(echo "$kenv" | sed -n 's/^KERNEL=//p')" --moddir "$moddir")
else
	if [ -z "$kver" ]; then
		kver=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
		kver=${kver#/boot/vmlinuz-}
	fi
	[ -n "$kver" ] || { say "no /boot/vmlinuz-*"; exit 125; }
	moddir=/lib/modules/$kver
fi

# --- host side: cxprm-emud and cxswap.ko ------------------------------------
own_emud=0
[ -n "$emud_bin" ] || { emud_bin=$repo/build/tools/emulator/daemon/cxprm-emud; own_emud=1; }
if [ "$build" = 1 ]; then
	say "building cxprm-emud and cxswap.ko"
	if [ "$own_emud" = 1 ] && [ ! -f "$repo/build/CMakeCache.txt" ]; then
		cmake -S "$repo" -B "$repo/build" >/dev/null || { say "cmake configure failed"; exit 125; }
	fi
	[ "$own_emud" = 0 ] || cmake --build "$repo/build" --target cxprm-emud -j"$(nproc)" >/dev/null ||
		{ say "cxprm-emud did not build"; exit 125; }
	if [ -n "$linux" ]; then
		cxswap=$("$here/build-cxswap.sh" --linux "$linux") || exit 125
	else
		cxswap=$(KVER=$kver KDIR=${KDIR:-} "$here/build-cxswap.sh") || exit 125
	fi
elif [ -n "$linux" ]; then
	cxswap=$repo/.cache/cxswap/linux-$linux/cxswap.ko
else
	cxswap=$(find "$repo/.cache/cxswap" -path '*/linux-*' -prune -o -name cxswap.ko -print 2>/dev/null | head -n 1)
fi
[ -x "$emud_bin" ] || { say "no cxprm-emud at $emud_bin"; exit 125; }
[ -f "${cxswap:-}" ] || { say "no cxswap.ko (run without --no-build)"; exit 125; }

# mlx5_core and what it needs, from modules.dep (or a .ko of your own last).
mods=(--module mlx5_core)
if [ -n "$mlx5_ko" ]; then
	[ -f "$mlx5_ko" ] || { say "--mlx5-ko $mlx5_ko: no such file"; exit 125; }
	deps=$(awk -F: '$1 ~ /\/mlx5_core\.ko(\.[a-z]+)?$/ { print $2; exit }' "$moddir/modules.dep")
	mods=()
	for d in $deps; do mods=(--module "$moddir/$d" "${mods[@]+"${mods[@]}"}"); done
	mods+=(--module "$mlx5_ko")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cxprm-mlx5.XXXXXXXX")
trap 'rm -rf "$work"' EXIT
emu_log=$work/emulator.log
console=$work/console.log
ko=(--no-module)
if [ "$check" = 2 ] || [ "$check" = 3 ]; then
	# Both cxprm and mlx5_core: cxprm.ko (make module), loaded by the guest
	# script, and for the hand-over the static CLI.
	[ "$build" = 0 ] || make -s -C "$repo" module KVER="$kver" >/dev/null || { say "cxprm.ko did not build"; exit 125; }
	ko=(--ko "$repo/cxprm.ko" --no-load)
	if [ "$check" = 2 ]; then
		sbuild=$("$here/build-static.sh" cxprm) || { say "static cxprm did not build"; exit 125; }
		ko+=(--file "$sbuild/tools/cxprm/cxprm:/cxprm/cxprm")
	fi
fi
if [ "$check" = 4 ]; then
	# cxprm.ko for that kernel (the tree selftests/cxprm/run.sh --linux
	# builds), the static CLI, and fwctl.ko + mlx5_fwctl.ko.
	kmod=$repo/.cache/kernels/$linux/mod/cxprm.ko
	if [ "$build" = 1 ]; then
		"$repo/tools/kernel/build-module.sh" --linux "$linux" --out "$(dirname "$kmod")" W=1 -s >"$work/mod.log" 2>&1 ||
			{ cat "$work/mod.log" >&2; say "cxprm.ko did not build for Linux $linux"; exit 125; }
	fi
	fw=$("$repo/tools/kernel/build-fwctl.sh" --linux "$linux" --print) || { say "fwctl modules did not build"; exit 125; }
	sbuild=$("$here/build-static.sh" cxprm) || { say "static cxprm did not build"; exit 125; }
	ko=(--ko "$kmod" --no-load --file "$sbuild/tools/cxprm/cxprm:/cxprm/cxprm"
		--file "$(echo "$fw" | sed -n 's/^FWCTL_KO=//p'):/cxprm/fwctl.ko"
		--file "$(echo "$fw" | sed -n 's/^MLX5_FWCTL_KO=//p'):/cxprm/mlx5_fwctl.ko")
	# The objects cxprm-emud --provision makes on a BlueField-3 (the first
	# XRQ and DCT numbers of its model; Documentation/prm-notes-uctx.rst).
	FWCTL_XRQN=0x80 FWCTL_NSIDS="1 2" FWCTL_DCTN=0x1000
	script=(--file "$here/guest/fwctl-check.sh:/bin/fwctl-check"
		--cmd "FWCTL_XRQN=$FWCTL_XRQN FWCTL_NSIDS='$FWCTL_NSIDS' FWCTL_DCTN=$FWCTL_DCTN sh /bin/fwctl-check")
elif [ "$check" = 1 ]; then
	script=(--file "$here/guest/mlx5-check.sh:/bin/mlx5-check" --cmd "sh /bin/mlx5-check")
elif [ "$check" = 2 ]; then
	script=(--file "$here/guest/handover-check.sh:/bin/handover-check" --cmd "sh /bin/handover-check")
elif [ "$check" = 3 ]; then
	script=(--file "$here/guest/mlx5-bench.sh:/bin/mlx5-bench" --cmd "sh /bin/mlx5-bench $rounds")
elif [ ${#cmd[@]} -gt 0 ]; then
	script=(--cmd "mlx5-bind && ${cmd[*]}")
else
	script=(--cmd "mlx5-bind; dmesg | grep -E 'mlx5|cxswap'; grep mlx5_ /proc/interrupts; true")
fi

rc=0
"$here/run-guest.sh" "${ko[@]}" --kver "$kver" "${kernel_opts[@]+"${kernel_opts[@]}"}" "${mods[@]}" --cxswap "$cxswap" \
	--file "$here/guest/mlx5-faults.sh:/bin/mlx5-faults" \
	--msix "$vectors" --emud --emud-bin "$emud_bin" ${emud_args:+--emud-args "$emud_args"} \
	--timeout 180 --emulator-log "$emu_log" --console-log "$console" \
	"${script[@]}" "${rg_opts[@]+"${rg_opts[@]}"}" || rc=$?
if [ "$check" = 3 ]; then
	tr -d '\r' <"$console" | grep -a '^MLX5-BENCH:' || true
	exit "$rc"
fi
if [ "$check" = 4 ]; then
	tr -d '\r' <"$console" | grep -a '^FWCTL:' || true
	exit_line=$(grep 'cxprm-emud: summary:' "$emu_log" 2>/dev/null | tail -n 1 || true)
	unknown=$(echo "$exit_line" | grep -oE 'unknown_opcodes=[0-9]+' | cut -d= -f2)
	held=$(echo "$exit_line" | grep -oE 'pages_held=[0-9]+' | cut -d= -f2)
	verdict=PASS
	tr -d '\r' <"$console" | grep -aqx 'FWCTL: OK' || verdict=FAIL
	[ "$rc" = 0 ] && [ "${unknown:-?}" = 0 ] && [ "${held:-?}" = 0 ] || verdict=FAIL
	[ "$verdict" = PASS ] || sed 's/^/[emulator] /' "$emu_log" | tail -n 20 >&2
	echo "fwctl: $verdict: guest status $rc; emulator: ${unknown:-?} unknown opcodes, pages held ${held:-?}"
	[ "$verdict" = PASS ]
	exit
fi
if [ "$check" = 2 ]; then
	tr -d '\r' <"$console" | grep -a '^HANDOVER:' || true
	tr -d '\r' <"$console" | grep -aqx 'HANDOVER: OK' || { say "hand-over check failed (status $rc)"; exit 1; }
	exit "$rc"
fi
[ "$check" = 1 ] || exit "$rc"

# --- the stage's verdict ---------------------------------------------------------
num() { # the number before the words $2 in line $1, or "?"
	local v
	v=$(echo "$1" | grep -oE "[0-9]+ $2" | head -n 1 | cut -d' ' -f1)
	echo "${v:-?}"
}
exit_line=$(grep 'cxprm-emud: exiting on' "$emu_log" 2>/dev/null | tail -n 1 || true)
guest=$(tr -d '\r' <"$console" | grep -a '^MLX5-CHECK: bound=' | tail -n 1 || true)
commands=$(num "$exit_line" commands)
unknown=$(num "$exit_line" 'unknown opcode')
delivery=$(num "$exit_line" 'delivery error')
held=$(echo "$exit_line" | grep -oE 'pages held [0-9]+' | grep -oE '[0-9]+' || echo '?')
# The machine-readable summary line, where the emulator prints one
# ("summary: ... unknown_opcodes=N delivery_errors=N pages_held=N").
summary=$(grep 'cxprm-emud: summary:' "$emu_log" 2>/dev/null | tail -n 1 || true)
key() { echo "$summary" | grep -oE "(^| )$1=[0-9]+" | cut -d= -f2; }
if [ -n "$summary" ]; then
	commands=$(key commands) unknown=$(key unknown_opcodes)
	delivery=$(key delivery_errors) held=$(key pages_held)
fi
irqs=$(echo "$guest" | sed -n 's/.* irqs=\([0-9]*\).*/\1/p')
rebind=$(echo "$guest" | sed -n 's/.* irqs_rebind=\([0-9]*\).*/\1/p')
bound=$(echo "$guest" | sed -n 's/.*bound=\([a-z]*\).*/\1/p')
failed=$(echo "$guest" | sed -n 's/.* failed_lines=\([0-9]*\).*/\1/p')
function=$(echo "$guest" | sed -n 's/.* function=\([A-Z]*\).*/\1/p')
splat=0
[ "$rc" != 120 ] || splat=1

why=()
[ -n "$exit_line" ] || why+=("no emulator exit line")
[ "$rc" = 0 ] || why+=("guest status $rc")
[ "$bound" = yes ] || why+=("mlx5_core not bound")
[ "${irqs:-0}" -gt 0 ] || why+=("no MSI-X interrupts")
[ "${failed:-?}" = 0 ] || why+=("mlx5_core failure lines")
[ "$unknown" = 0 ] || why+=("unknown opcodes: $unknown")
[ "$delivery" = 0 ] || why+=("delivery errors: $delivery")
[ "$held" = 0 ] || why+=("pages held: $held")
verdict=PASS
if [ ${#why[@]} -gt 0 ]; then
	verdict=FAIL
	tr -d '\r' <"$console" | grep -a '^MLX5-CHECK: ' >&2 || true
	sed 's/^/[emulator] /' "$emu_log" | tail -n 20 >&2
fi
echo "mlx5: $verdict: mlx5_core bound ${bound:-?} (as a ${function:-?}), MSI-X interrupts ${irqs:-?} (rebind ${rebind:-?})," \
	"failed lines ${failed:-?}, kernel reports $splat; emulator: $commands commands, $unknown unknown opcodes," \
	"$delivery delivery errors, pages held $held${why[0]:+ -- ${why[*]}}"
[ "$verdict" = PASS ]
