#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of tools/qemu/run-mlx5.sh --fwctl (`make check-fwctl`):
# Linux's own mlx5_core keeps the emulated function (cxprm-emud
# --provision: an NVMF offload and a DCT made under uid 0, standing in for
# other software) and mlx5_fwctl gives /dev/fwctl/fwctl0.  The cxprm tool
# reaches it by its PCI address over fwctl: list --all, info, caps of
# every type, probe, nvmf ns (counters that move), esw functions, dct
# query, reg MGIR, and what fwctl refuses (one message naming `cxprm
# bind`).  Then `cxprm bind` takes the function, the same read-only
# commands run over cxprm.ko, `cxprm unbind --restore` gives it back, and
# the two transports' JSON must be the same (but for the counters that
# move and the latencies).  Last, unbind and rmmod.
# Prints "FWCTL: ..." lines; the last is "FWCTL: OK" when all held.
#
# Environment: FWCTL_XRQN, FWCTL_NSIDS, FWCTL_DCTN (the provisioned
# objects, Documentation/prm-notes-uctx.rst), CXPRM_BDF.
bdf=${CXPRM_BDF:?no ivshmem device}
xrqn=${FWCTL_XRQN:?} nsids=${FWCTL_NSIDS:?} dctn=${FWCTL_DCTN:?}
cx=/cxprm/cxprm
drv_of() { basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2>/dev/null)" 2>/dev/null; }
fail() { echo "FWCTL: FAIL: $*"; dmesg | grep -iE 'mlx5|fwctl|cxprm' | tail -n 30; exit 1; }
say() { echo "FWCTL: $*"; }

# The read-only commands, their JSON into directory $1 (both transports).
queries() {
	out=$1
	mkdir -p "$out"
	t=0
	while [ "$t" -le 64 ]; do # every capability type, answered or refused
		$cx caps "$bdf" --type "$t" -j >"$out/caps-$t.json" 2>/dev/null
		echo "rc $?" >>"$out/caps-$t.json"
		t=$((t + 1))
	done
	# The general caps' CUR image is what the function's driver set
	# (SET_HCA_CAP: mlx5_core and cxprm.ko set e.g. log_max_qp unlike):
	# compared as MAX, and left out of probe's comparison below.
	$cx caps "$bdf" --max -j >"$out/caps-0.json" || fail "caps --max over $2"
	$cx probe "$bdf" --all-caps --xrq "$xrqn" --nsid "${nsids%% *}" -j >"$out/probe.json" ||
		fail "probe over $2: status $?: $(grep -E '"(error|message)"' "$out/probe.json" | grep -v '"OK' | head -n 3)"
	for ns in $nsids; do
		$cx nvmf ns "$bdf" --xrq "$xrqn" --nsid "$ns" -j >"$out/nvmf-$ns.json" || fail "nvmf ns $ns over $2"
	done
	$cx esw functions "$bdf" -j >"$out/esw.json" || fail "esw functions over $2"
	$cx dct query "$bdf" "$dctn" -j >"$out/dct.json" || fail "dct query over $2"
	$cx reg "$bdf" MGIR -j >"$out/mgir.json" || fail "reg MGIR over $2"
	$cx raw "$bdf" --opcode QUERY_ADAPTER -j >"$out/adapter.json" || fail "raw QUERY_ADAPTER over $2"
}
# What may differ between two answers: latencies, the NVMF counters and
# MGIR's uptime, which move between two reads, cmdif_rev (not known over
# fwctl), and in probe the elements (lines between "    {" and "    }") of
# the driver-set general CUR caps and of the NVMF counters (their output
# bytes move; nvmf-*.json compares the rest).
steady() {
	awk '/^    \{$/ { buf = $0 "\n"; inel = 1; next }
		inel { buf = buf $0 "\n"; if ($0 ~ /^    \},?$/) { inel = 0; if (buf !~ /general_cur|nvmf_namespace_context/) printf "%s", buf }; next }
		{ print }' "$1" | grep -vE '"(latency_ns|read_cmds|read_blocks|write_cmds|write_blocks|write_inline_cmds|flush_cmds|error_cmds|backend_error_cmds|current_q_depth|last_read_latency|last_write_latency|uptime)"' |
		grep -vE '"(cmdif_rev)"'
}

mlx5-bind "$bdf" >/dev/null || fail "mlx5-bind"
[ "$(drv_of)" = mlx5_core ] || fail "mlx5_core does not hold $bdf"
insmod /cxprm/fwctl.ko || fail "insmod fwctl.ko"
insmod /cxprm/mlx5_fwctl.ko || fail "insmod mlx5_fwctl.ko"
i=0
while [ ! -c /dev/fwctl/fwctl0 ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -c /dev/fwctl/fwctl0 ] || fail "no /dev/fwctl/fwctl0 after loading mlx5_fwctl"
say "mlx5_core holds $bdf, /dev/fwctl/fwctl0 is there"
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"
bad=$(mlx5_failed_lines)
[ -z "$bad" ] || fail "mlx5_core failure lines: $bad"

# --- over fwctl ---------------------------------------------------------------
$cx list --all | grep "$bdf" | grep -q 'fwctl (fwctl0)' || fail "list --all does not show the fwctl reach"
$cx info "$bdf" | grep -q '^transport: *fwctl' || fail "info $bdf is not over fwctl"
$cx info /dev/fwctl/fwctl0 -j >/tmp/info.json || fail "info over fwctl"
grep -q '"uid": [1-9]' /tmp/info.json || fail "info: no user context uid"
grep -q '"TOOLS_RESOURCES"' /tmp/info.json || fail "info: no TOOLS_RESOURCES cap"
say "info: $(grep -E '"(uid|fw_version|driver)"' /tmp/info.json | tr -d ' \n')"
queries /tmp/fw fwctl
answered=$(grep -l '"status_code": 0' /tmp/fw/caps-*.json | wc -l)
say "caps over fwctl: $answered of 65 types answered"
[ "$answered" -ge 10 ] || fail "caps over fwctl: only $answered types answered"
n1=$(grep '"read_cmds"' "/tmp/fw/nvmf-${nsids%% *}.json")
sleep 1
$cx nvmf ns "$bdf" --xrq "$xrqn" --nsid "${nsids%% *}" -j >/tmp/nvmf-again.json || fail "nvmf ns again"
n2=$(grep '"read_cmds"' /tmp/nvmf-again.json)
if [ -z "$n1" ] || [ "$n1" = "$n2" ]; then
	fail "nvmf ns counters did not move over fwctl ($n1 / $n2)"
fi
say "nvmf ns over fwctl: counters moved ($n1 -> $n2)"
# What fwctl refuses: one message naming the alternative, exit 2.
refused() { # PATTERN COMMAND...: exit 2 with PATTERN in the message
	pat=$1
	shift
	"$@" >/tmp/refused.txt 2>&1
	st=$?
	if [ "$st" != 2 ] || ! grep -q -- "$pat" /tmp/refused.txt; then
		fail "$*: status $st, $(cat /tmp/refused.txt)"
	fi
}
refused 'cxprm bind' $cx dct create "$bdf"
say "refused: $(head -c 160 /tmp/refused.txt)"
refused 'cxprm bind' $cx esw watch "$bdf" --count 1 --timeout 1
refused 'cxprm bind' $cx raw "$bdf" --opcode QUERY_ADAPTER --dump
refused '--scope' $cx reg "$bdf" PAOS --write --set admin_status=1
say "refused over fwctl: dct create, esw watch, raw --dump, a write without --scope"

# --- the same over cxprm.ko ---------------------------------------------------------
insmod /cxprm/cxprm.ko || fail "insmod cxprm.ko"
$cx bind "$bdf" >/dev/null || fail "cxprm bind"
[ "$(drv_of)" = cxprm ] || fail "driver after bind: $(drv_of)"
[ -c /dev/fwctl/fwctl0 ] && fail "/dev/fwctl/fwctl0 still there with cxprm holding $bdf"
$cx info "$bdf" | grep -q '^transport: *cxprm.ko' || fail "info $bdf is not over cxprm.ko after bind"
queries /tmp/ko cxprm.ko
$cx unbind "$bdf" --restore >/dev/null || fail "cxprm unbind --restore"
sleep 1
[ "$(drv_of)" = mlx5_core ] || fail "driver after unbind --restore: $(drv_of)"

same=0 differ=0
for f in /tmp/fw/*.json; do
	g=/tmp/ko/${f##*/}
	if [ "$(steady "$f")" = "$(steady "$g")" ]; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "FWCTL: differs: ${f##*/}"
		steady "$f" >/tmp/a.txt
		steady "$g" >/tmp/b.txt
		diff /tmp/a.txt /tmp/b.txt | head -n 10
	fi
done
say "fwctl and cxprm.ko answers: $same the same, $differ different"
[ "$differ" = 0 ] || fail "the transports' decoded answers differ"

i=0
while [ ! -c /dev/fwctl/fwctl0 ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
$cx info "$bdf" | grep -q '^transport: *fwctl' || fail "fwctl not back after --restore"
rmmod cxprm || fail "rmmod cxprm"
mlx5-unbind "$bdf" >/dev/null || fail "mlx5-unbind"
rmmod mlx5_fwctl || fail "rmmod mlx5_fwctl"
rmmod fwctl || fail "rmmod fwctl"
bad=$(mlx5_failed_lines)
[ -z "$bad" ] || fail "mlx5_core failure lines: $bad"
dmesg | grep -iE 'fwctl.*(fail|error)' && fail "fwctl failure lines"
say "OK"
