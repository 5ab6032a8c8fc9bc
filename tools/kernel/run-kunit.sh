#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit stage: builds the debug test kernel (cached), cxprm.ko and
# cxprm_kunit.ko for it, and a static cxprm-emud; boots the kernel in QEMU
# (TCG) with the emulator behind ivshmem, binds the device to cxprm, loads
# cxprm_kunit.ko (its suites run at load, tools/kernel/kunit-guest.sh) and
# parses the KTAP with the kernel's own kunit.py.
#
#   tools/kernel/run-kunit.sh [--mutate KIND] [--kdir DIR] [--timeout S]
#                             [--keep] [-v]
#
# Fails when a test failed or crashed, when no test ran, when a suite is
# missing from the results, on any compiler or modpost warning in the W=1
# module build, on any kernel report or bad taint (run-guest.sh: the whole
# console log, bring-up included), kmemleak report, DMA-API debug error,
# lockdep switching itself off, or a buffer the shim had to free for the
# core.
#
# --mutate KIND       builds from a temporary copy of the sources with the
#                     core deliberately broken; the stage must then FAIL:
#                     it proves the gate catches it.  Exits 0 only when the
#                     mutant was caught.  KIND:
#                       signature          entries XOR to 0x00 (wire.cpp)
#                       mailbox-signature  blocks XOR to 0x00 (mailbox.cpp)
#                       token-zero         token 0 is used (cmdq.cpp)
# --kdir DIR          a debug kernel tree already built (its build/ dir,
#                     with ../src), instead of build-test-kernel.sh --print
# --timeout S         QEMU run limit (default 900)
# --keep              keep the guest work directory
# -v                  stream the guest console
#
# Output: <repo>/.cache/kunit/ (console.log, ktap.txt, kunit.json; a
# mutant's module build in mutant/, with --kdir in mod/); the modules in
# <repo>/.cache/debug-mod/ (build-test-kernel.sh's MODOUT, shared with the
# kselftests on the debug kernel).  Documentation/kunit.rst.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$repo/.cache/kunit
# shellcheck source=tools/kernel/say.sh
. "$here/say.sh"
me=run-kunit mutate="" kdir="" timeout_s=900 rg_opts=(-q)
while [ $# -gt 0 ]; do
	case "$1" in
	--mutate) mutate=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--kdir) kdir=$2; shift ;;
	--keep) rg_opts+=(--keep) ;;
	-v) rg_opts=() ;;
	-h | --help) usage 34 ;;
	*) unknown_option "$1" ;;
	esac
	shift
done
# KIND: file of core-cpp/src, sed expression.
case "$mutate" in
"") ;;
signature) mfile=wire.cpp msed='s/(u8)~xor8(e, ENTRY_BYTES)/(u8)xor8(e, ENTRY_BYTES)/' ;;
mailbox-signature) mfile=mailbox.cpp msed='s/b\[SIG\] = (u8)~xor8(b, SIG)/b[SIG] = (u8)xor8(b, SIG)/' ;;
token-zero) mfile=cmdq.cpp msed='s/if (++next_token_ == 0)/if (++next_token_ == 256)/' ;;
*) echo "run-kunit: --mutate KIND: signature, mailbox-signature or token-zero" >&2; exit 2 ;;
esac

t0=$(date +%s)
mkdir -p "$cache"

# --- kernel ------------------------------------------------------------------
if [ -n "$kdir" ]; then
	kdir=$(cd "$kdir" && pwd)
	kvars="KDIR=$kdir
KERNEL=$kdir/arch/x86/boot/bzImage
KSRC=$(dirname "$kdir")/src
MODOUT=$cache/mod"
else
	kvars=$("$here/build-test-kernel.sh" --print --quiet)
fi
KDIR=$(sed -n 's/^KDIR=//p' <<<"$kvars")
KERNEL=$(sed -n 's/^KERNEL=//p' <<<"$kvars")
KSRC=$(sed -n 's/^KSRC=//p' <<<"$kvars")
MODOUT=$(sed -n 's/^MODOUT=//p' <<<"$kvars")
if [ ! -d "$KDIR" ] || [ ! -f "$KERNEL" ] || [ ! -f "$KSRC/tools/testing/kunit/kunit.py" ]; then
	say "no usable test kernel ($kvars)"
	exit 1
fi

# --- modules -----------------------------------------------------------------
src=$repo
# Shared with the kselftests on the debug kernel (run.sh --debug-kernel,
# same make arguments): after one of the two stages the other only relinks.
out=$MODOUT
if [ -n "$mutate" ]; then
	# A throw-away copy of what build-module.sh copies, then the mutation.
	# A fresh build each time: the copies keep their mtimes, so objects of
	# another mutant would look up to date.
	src=$cache/mutant-src
	out=$cache/mutant
	rm -rf "$src" "$out"
	mkdir -p "$src/tools/kernel" "$src/tools/emulator/daemon" "$src/core-cpp"
	cp -a "$repo/Kbuild" "$repo/drivers" "$repo/kunit" "$repo/include" "$src/"
	"$repo/tools/ifcgen/gen-core-layouts.sh" >/dev/null
	cp -a "$repo/core-cpp/include" "$repo/core-cpp/src" "$repo/core-cpp/generated" "$src/core-cpp/"
	cp -a "$repo/tools/emulator/daemon/control.h" "$src/tools/emulator/daemon/"
	cp -a "$repo/tools/kernel/build-module.sh" "$src/tools/kernel/"
	f=$src/core-cpp/src/$mfile
	sed -i "$msed" "$f"
	if cmp -s "$f" "$repo/core-cpp/src/$mfile"; then
		say "mutation '$mutate' did not apply to core-cpp/src/$mfile"
		exit 1
	fi
	say "mutant ($mfile): $(diff "$repo/core-cpp/src/$mfile" "$f" | grep '^>' | sed 's/^> *//')"
fi
# W=1: the only build of kunit/core/*.c, kunit/shim/*.c and
# kunit/core/*.cpp (tools/lint.sh builds against Debian's headers,
# without CONFIG_KUNIT); any warning fails the stage.  (W=1 adds to the C
# flags; the C++ files get the Kbuild C++ rule's -Wall -Wextra either way.)  The build is
# incremental, and an object that warned is not compiled again while its
# source stays the same: after a build that warned, the next one starts
# from scratch, so the warning is not lost.
log=$cache/build.log
warned=$out.build-warned
if [ -e "$warned" ]; then
	say "the last build had warnings: rebuilding $out from scratch"
	rm -rf "$out" "$warned"
fi
say "building cxprm.ko and cxprm_kunit.ko (W=1) for $(basename "$(dirname "$KDIR")") into $out"
if ! "$src/tools/kernel/build-module.sh" --kdir "$KDIR" --out "$out" -j"$(nproc)" W=1 >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	say "module build failed (log: $log)"
	exit 1
fi
for m in cxprm.ko cxprm_kunit.ko; do
	[ -f "$out/$m" ] || { say "no $out/$m (is CONFIG_KUNIT set in $KDIR?)"; exit 1; }
done
# Compiler (C, C++, objtool) warnings and modpost's "WARNING: modpost:".
# Not restricted to our files: the W=1 build of these sources against this
# kernel's headers has none from the headers either.
build_warnings=$(grep -E '(warning|WARNING):' "$log" || true)
if [ -n "$build_warnings" ]; then
	printf '%s\n' "$build_warnings" >&2
	say "the module build is not warning-free (log: $log)"
	: >"$warned"
fi

# --- emulator ----------------------------------------------------------------
say "building cxprm-emud (static)"
sbuild=$("$repo/tools/qemu/build-static.sh" cxprm-emud)
emud=$sbuild/tools/emulator/daemon/cxprm-emud
t1=$(date +%s)

# --- guest run ---------------------------------------------------------------
# The bzImage through the BIOS: the KASAN kernel's vmlinux dies silently at
# its PVH entry (nothing on the console, not even with earlyprintk).
bzimage=$KDIR/arch/x86/boot/bzImage
[ -f "$bzimage" ] || { say "no $bzimage"; exit 1; }
console=$cache/console.log
# BlueField-3, as the kselftests: an ECPF eswitch manager is the only
# function ESW_FUNCTIONS_CHANGED goes to (cxprm_shim_eq_phase_across_wraps).
say "booting $bzimage with cxprm-emud --profile bf3"
rc=0
"$repo/tools/qemu/run-guest.sh" --kernel "$bzimage" --no-pvh --ko "$out/cxprm.ko" \
	--file "$out/cxprm_kunit.ko:/cxprm/cxprm_kunit.ko" \
	--emud --emud-bin "$emud" --profile bf3 --mem 1024 --timeout "$timeout_s" \
	--modparams "cmd_timeout_ms=3000" --append "kunit.enable=1 log_buf_len=4M" --console-log "$console" \
	--script "$here/kunit-guest.sh" "${rg_opts[@]}" >"$cache/run-guest.log" 2>&1 || rc=$?
t2=$(date +%s)
if [ ! -s "$console" ]; then
	cat "$cache/run-guest.log" >&2
	say "no console log (run-guest status $rc)"
	exit 1
fi

# --- results -----------------------------------------------------------------
clean=$cache/console.txt
tr -d '\r' <"$console" >"$clean"
marker() { sed -n "s/^$1 //p" "$clean" | tail -n 1; }
nsuites=$(marker CXPRM-KUNIT-SUITES)
# The suites' output (dmesg, timestamps off) under a top-level KTAP header:
# a module's suites print no plan of their own.
ktap=$cache/ktap.txt
{
	echo "KTAP version 1"
	echo "1..${nsuites:-0}"
	# KUnit's lines only; the message lines of an expectation (printed
	# without the indent) stay with it.
	sed -n '/^CXPRM-KTAP-BEGIN$/,/^CXPRM-KTAP-END$/p' "$clean" |
		sed 's/^\[ *[0-9.]*\] //' |
		awk '/^(    |ok |not ok |# )/ { print; msg = /FAILED at /; next }
		     msg { print "        " $0 }'
} >"$ktap"
json=$cache/kunit.json
parse_rc=0
python3 "$KSRC/tools/testing/kunit/kunit.py" parse --json="$json" "$ktap" \
	>"$cache/kunit-parse.txt" 2>&1 || parse_rc=$?
grep -E '\[(PASSED|FAILED|CRASHED|SKIPPED)\]|Testing complete|ERROR' "$cache/kunit-parse.txt" |
	sed 's/^\[[0-9:]*\] //' >&2 || true

fail=0
counts=$(python3 - "$json" <<'EOF'
import json, sys
try:
    top = json.load(open(sys.argv[1]))
except Exception:
    print("0 0 0 0 0 0 0")
    sys.exit(0)
suites = top.get("sub_groups", [])
tests = [c for s in suites for c in s.get("test_cases", [])]
st = [c["status"] for c in tests]
sfail = sum(1 for s in suites if any(c["status"] not in ("PASS", "SKIP") for c in s.get("test_cases", [])) or not s.get("test_cases"))
print(len(suites), len(suites) - sfail, sfail, len(tests), st.count("PASS"),
      sum(1 for x in st if x not in ("PASS", "SKIP")), st.count("SKIP"))
EOF
)
read -r s_all s_pass s_fail t_all t_pass t_fail t_skip <<<"$counts"
echo "kunit: suites: $s_all ($s_pass passed, $s_fail failed) of ${nsuites:-?} registered; tests: $t_all ($t_pass passed, $t_fail failed or crashed, $t_skip skipped)"

[ -z "$build_warnings" ] || { say "module build warnings (W=1): see above and $log"; fail=1; }
[ "$parse_rc" = 0 ] || { say "kunit.py parse: FAILED (status $parse_rc; $cache/kunit-parse.txt)"; fail=1; }
[ "${t_all:-0}" -gt 0 ] || { say "no test ran"; fail=1; }
[ "${t_fail:-0}" = 0 ] || fail=1
if [ -z "$nsuites" ] || [ "$s_all" != "$nsuites" ]; then
	say "suites parsed ($s_all) != registered (${nsuites:-none})"
	fail=1
fi
grep -q '^CXPRM-KUNIT-INSMOD-FAILED' "$clean" && { say "insmod cxprm_kunit.ko failed"; fail=1; }
grep -q '^CXPRM-KUNIT-GUEST-DONE$' "$clean" || { say "the guest script did not finish"; fail=1; }
leaks=$(marker CXPRM-KMEMLEAK)
[ "$leaks" = 0 ] || { say "kmemleak: ${leaks:-no report} (see $console)"; fail=1; }
dma=$(marker CXPRM-DMA-API-ERRORS)
[ "$dma" = 0 ] || { say "DMA-API debug errors: ${dma:-no report}"; fail=1; }
read -r lock0 lock1 <<<"$(marker CXPRM-LOCKDEP)"
if [ "${lock0:-}" = 1 ] && [ "${lock1:-}" != 1 ]; then
	say "lockdep reported a problem and switched itself off"
	fail=1
elif [ "${lock0:-}" != 1 ]; then
	say "lockdep was not active (debug_locks ${lock0:-?}): no lock checking"
	fail=1
fi
if grep -qE 'freeing leaked [0-9]+-byte DMA buffer|DMA buffers allocated' "$clean"; then
	say "the shim freed DMA buffers the core leaked"
	fail=1
fi
case "$rc" in
0) ;;
120) say "kernel WARNING/BUG/KASAN/lockdep report or bad taint in the guest (see $console and $cache/run-guest.log)"; fail=1 ;;
*) say "run-guest.sh status $rc (see $cache/run-guest.log)"; fail=1 ;;
esac

verdict=PASS
[ "$fail" = 0 ] || verdict=FAIL
echo "kunit: $verdict (build ${t1}-${t0}: $((t1 - t0))s, guest $((t2 - t1))s, total $(($(date +%s) - t0))s; logs in $cache)" |
	sed 's/build [0-9]*-[0-9]*: /build /'
if [ -n "$mutate" ]; then
	if [ "$fail" = 1 ] && [ "${t_fail:-0}" -gt 0 ]; then
		echo "kunit: mutant '$mutate' caught: $t_fail of $t_all tests failed"
		exit 0
	fi
	echo "kunit: mutant '$mutate' NOT caught"
	exit 1
fi
exit "$fail"
