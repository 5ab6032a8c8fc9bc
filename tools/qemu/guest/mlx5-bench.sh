#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of tools/qemu/run-mlx5.sh --bench (tools/bench/bench-mlx5.sh,
# part of `make bench`): cxprm next to Linux's unmodified mlx5_core on the
# same emulated ConnectX, in one boot.  N rounds (default 5), each: cxprm
# (cmd_mode=poll), then mlx5_core; each a sysfs bind then an unbind.  Per
# bind and unbind: the wall time (printk timestamps of two /dev/kmsg marks
# around the sysfs write: µs), the emulator's command count and pages given
# (emuctl, the control page).  Per command of each bind, the driver's own
# doorbell-to-completion-seen time: cxprm's debugfs last_cmds (latency),
# mlx5_core's "fw exec time" debug line (cmd.c: ts2 - ts1; debug_mask 2
# and dynamic debug).  The emulator's commands of a bind are the trace's
# seq FIRST..LAST (bench_mlx5_table.py matches them), and an unbind's
# likewise.  Per command of each bind, the caller's whole call too: ftrace
# function_graph with set_ftrace_filter on the function every command
# goes through, mlx5_core's mlx5_cmd_do and cxprm's Cmdq::exec (the
# core's entry; tracefs mounted here), one duration per call in order.
# Prints "MLX5-BENCH: ..." lines for the host:
#   MLX5-BENCH: bind|unbind DRV ROUND US COMMANDS PAGES
#   MLX5-BENCH: range|urange DRV ROUND FIRST LAST
#   MLX5-BENCH: cmd DRV ROUND NAME NS
#   MLX5-BENCH: whole DRV ROUND NS   (one traced call of the bind, in order)
#   MLX5-BENCH: traced FUNCTION...   (the functions traced, or "none: WHY")
#   MLX5-BENCH: ioctl-whole NS / ioctl-cmd NAME NS   (ioctl_path below)
#   MLX5-BENCH: inithca DRV ROUND US   (the bind's mark to INIT_HCA done, printk clock)
#   MLX5-BENCH: failed DRV ROUND WHY   (a bind that failed: the round does not count)
#   MLX5-BENCH: perf TEXT
#   MLX5-BENCH: log DMESG-LINE
# exit 0 when every unbind unbound.
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"
rounds=${1:-5}
bdf=${CXPRM_BDF:?no ivshmem device}
rc=0
say() { echo "MLX5-BENCH: $*"; }

# mark NAME: a printk'ed mark, just before or after a sysfs write; stamp
# NAME: its printk timestamp in µs, read afterwards, so that what is timed
# is the write alone, not the tools around it.
mark() { echo "mlx5-bench mark $1" >/dev/kmsg; }
stamp() { dmesg | grep "mlx5-bench mark $1\$" | tail -n 1 | us_of; }
# us_of: the printk timestamp of the dmesg line on stdin, in µs (nothing
# for no line).
us_of() {
	sed 's/^\[ *\([0-9]*\)\.\([0-9]*\)\].*/\1 \2/' | { read -r s u && echo $((s * 1000000 + 1$u - 1000000)); }
}
# elapsed FROM TO: µs between two marks.
elapsed() { echo $(($(stamp "$2") - $(stamp "$1"))); }
# The emulator's command count, and with "pages" the pages given too.
counters() { echo "$(emuctl commands)${1:+ $(emuctl pages-given)}"; }
# samples DRV NAME ROUND: one "cmd" line per command of the bind just
# made, the driver's own doorbell-to-completion time in ns.
samples() {
	if [ "$1" = mlx5_core ]; then
		dmesg | awk -v from="mlx5-bench mark $2-$3-bind" -v to="mlx5-bench mark $2-$3-bound" '
			index($0, from) { on = 1; next }
			index($0, to) { on = 0 }
			on && match($0, /fw exec time for [A-Z0-9_]+ is [0-9]+ nsec/) {
				split(substr($0, RSTART, RLENGTH), w, " "); print w[5], w[7] }'
	else
		last_cmds
	fi | while read -r op ns; do say "cmd $2 $3 $op $ns"; done
}
# last_cmds: "OPCODE NS" per command of cxprm's debugfs last_cmds (the
# last 64, oldest first), NS its latency.
last_cmds() {
	awk '/^#[0-9]+ / { split($3, o, "("); for (i = 4; i < NF; i++) if ($i == "latency") {
			sub(/us$/, "", $(i + 1)); split($(i + 1), a, ".")
			print o[1], a[1] * 1000 + substr(a[2] "000", 1, 3) } }' \
		"/sys/kernel/debug/cxprm/$bdf/last_cmds"
}

# The functions timed for "whole": mlx5_cmd_do (drivers/net/ethernet/
# mellanox/mlx5/core/cmd.c, 6.1: mlx5_cmd_exec and give_pages call it; a
# kernel without it, e.g. Debian's 5.10, whose entry is mlx5_cmd_exec, has
# that one traced, and the "traced" line names it) and cxprm's Cmdq::exec(const
# MsgSource &, ...) (core-cpp/src/cmdq.cpp; the flat overload calls it)
# with Cmdq::exec_split (QUERY_HCA_CAP read straight into the caller's
# image) and Cmdq::exec_reserved (MANAGE_PAGES GIVE, its page list written
# as the pages were mapped: cmdq_page_slot.cpp); none calls another, so
# each command is one traced call, the C++ names as the module's kallsyms
# has them.
TRACE_FUNCS='mlx5_cmd_do|mlx5_cmd_exec _ZN5cxprm4Cmdq4execERKNS_9MsgSource* _ZN5cxprm4Cmdq10exec_split* _ZN5cxprm4Cmdq13exec_reserved*'
tfs=/sys/kernel/tracing
# trace_setup: function_graph on $TRACE_FUNCS alone (each call a leaf with
# its duration; funcgraph-tail names the function when the call's return
# is printed apart, e.g. after it slept and woke on the other CPU).
trace_setup() {
	[ -e $tfs/current_tracer ] || mount -t tracefs nodev $tfs 2>/dev/null ||
		{ say "traced none: no tracefs"; return; }
	grep -qw function_graph $tfs/available_tracers || { say "traced none: no function_graph tracer"; return; }
	echo 0 >$tfs/tracing_on
	: >$tfs/set_ftrace_filter
	set -f	# the names are ftrace globs, not the guest's file names
	for f in $TRACE_FUNCS; do
		# the first of A|B that this kernel has
		for g in $(echo "$f" | tr '|' ' '); do echo "$g" >>$tfs/set_ftrace_filter 2>/dev/null && break; done
	done
	set +f
	grep -q . $tfs/set_ftrace_filter || { say "traced none: no $TRACE_FUNCS"; return; }
	echo 2048 >$tfs/buffer_size_kb
	echo function_graph >$tfs/current_tracer
	echo funcgraph-tail >$tfs/trace_options
	echo nofuncgraph-irqs >$tfs/trace_options 2>/dev/null || true
	l=""
	while read -r f; do l="$l $f"; done <$tfs/set_ftrace_filter
	say "traced$l"
	traced=1
}
traced=0
# trace_on / trace_off DRV NAME ROUND: the buffer emptied and tracing on
# before the bind; after it, one "whole" line per traced call, in ns.
trace_on() { [ "$traced" = 0 ] || { : >$tfs/trace; echo 1 >$tfs/tracing_on; }; }
trace_off() {
	[ "$traced" = 1 ] || return 0
	echo 0 >$tfs/tracing_on
	durations | while read -r ns; do say "whole $2 $3 $ns"; done
}
# durations: the traced calls' durations in ns, in order.
durations() {
	awk '!/^#/ && match($0, /[0-9]+\.[0-9]+ us/) && (/\(\);/ || /} \/\*/) {
		split(substr($0, RSTART, RLENGTH), w, " "); split(w[1], a, ".")
		print a[1] * 1000 + substr(a[2] "000", 1, 3) }' $tfs/trace
}

# ioctl_path: figure 2's ioctl row.  cxprm bound once more, its ioctl
# handler (cxprm_cdev.c's cxprm_ioctl: copies, the core's ioctl entry,
# Cmdq::exec) traced while cxprm-bench-ioctl runs 1 s of QUERY_CAPS then
# 1 s of CXPRM_IOC_RAW QUERY_PAGES; the last 64 calls, paired by the host
# with last_cmds' 64 commands.
#   MLX5-BENCH: ioctl-whole NS        MLX5-BENCH: ioctl-cmd OPCODE NS
ioctl_path() {
	[ "$traced" = 1 ] && [ -x /cxprm/cxprm-bench-ioctl ] || return 0
	echo cxprm >"/sys/bus/pci/devices/$bdf/driver_override"
	echo "$bdf" >/sys/bus/pci/drivers_probe
	[ "$(driver_of "$bdf")" = cxprm ] || { say "failed cxprm ioctl did not bind"; return 0; }
	: >$tfs/set_ftrace_filter
	if echo cxprm_ioctl >$tfs/set_ftrace_filter 2>/dev/null; then
		trace_on
		CXPRM_BDF=$bdf /cxprm/cxprm-bench-ioctl 1 >/dev/null || say "failed cxprm ioctl cxprm-bench-ioctl"
		echo 0 >$tfs/tracing_on
		durations | tail -n 64 | while read -r ns; do say "ioctl-whole $ns"; done
		last_cmds | while read -r op ns; do say "ioctl-cmd $op $ns"; done
	fi
	echo "$bdf" >/sys/bus/pci/drivers/cxprm/unbind
}

# init_hca DRV NAME ROUND: µs from the bind's mark to the driver's message
# just after INIT_HCA (mlx5_core: its "fw exec time" line for INIT_HCA;
# cxprm: "HCA up", printed when INIT_HCA, its bring-up's last command,
# has completed), or nothing.
init_hca() {
	if [ "$1" = mlx5_core ]; then what='fw exec time for INIT_HCA '; else what=': HCA up: '; fi
	t=$(dmesg | awk -v from="mlx5-bench mark $2-$3-bind" -v to="mlx5-bench mark $2-$3-bound" -v what="$what" '
		index($0, from) { on = 1; next }
		index($0, to) { on = 0 }
		on && index($0, what) { print; exit }' | us_of)
	[ -z "$t" ] || say "inithca $2 $3 $((t - $(stamp "$2-$3-bind")))"
}

# round DRV NAME ROUND: bind, statistics, unbind.  $cmds and $pages: the
# emulator's counters before (what the last round left).
round() {
	echo "$1" >"/sys/bus/pci/devices/$bdf/driver_override"
	trace_on
	mark "$2-$3-bind"
	echo "$bdf" >/sys/bus/pci/drivers_probe
	mark "$2-$3-bound"
	trace_off "$1" "$2" "$3"
	c=$(counters pages)
	if [ "$(driver_of "$bdf")" != "$1" ]; then
		# Under a heavily loaded host, e.g. a command the emulator
		# never saw (prm-notes-transport.rst, A2/B2): the round does not count.
		why=$(dmesg | grep -E "^\[ *[0-9.]+\] $1 .* timeout" | tail -n 1)
		say "failed $2 $3 did not bind: ${why:-$(dmesg | grep "$1" | tail -n 1)}"
		cmds=${c% *} pages=${c#* }
		return
	fi
	say "bind $2 $3 $(elapsed "$2-$3-bind" "$2-$3-bound") $((${c% *} - cmds)) $((${c#* } - pages))"
	say "range $2 $3 $((cmds + 1)) ${c% *}"
	cmds=${c% *} pages=${c#* }
	samples "$1" "$2" "$3"
	init_hca "$1" "$2" "$3"
	cmds=$(counters)	# anything sent after the bind returned
	mark "$2-$3-unbind"
	echo "$bdf" >"/sys/bus/pci/drivers/$1/unbind"
	mark "$2-$3-unbound"
	c=$(counters)
	[ -z "$(driver_of "$bdf")" ] || { echo "mlx5-bench: $2 did not unbind" >&2; rc=1; }
	say "unbind $2 $3 $(elapsed "$2-$3-unbind" "$2-$3-unbound") $((c - cmds)) 0"
	say "urange $2 $3 $((cmds + 1)) $c"
	cmds=$c
}

dmesg | grep -E 'Performance Events' | sed 's/^\[[^]]*\] */MLX5-BENCH: perf /'
insmod /cxprm/cxprm.ko || { echo "mlx5-bench: insmod cxprm.ko failed" >&2; exit 1; }
# cxswap once, before the first bind: both drivers then see BAR0 as the
# shared memory (cxprm takes either BAR).
insmod "${CXSWAP_KO:-/cxprm/cxswap.ko}" || { echo "mlx5-bench: insmod cxswap.ko failed" >&2; exit 1; }
echo poll >/sys/module/cxprm/parameters/cmd_mode
# mlx5_core's per-command time (mlx5_cmd_invoke: "fw exec time for NAME is
# N nsec", dev_dbg under debug_mask bit MLX5_CMD_TIME).
echo 2 >/sys/module/mlx5_core/parameters/debug_mask ||
	{ echo "mlx5-bench: no mlx5_core debug_mask" >&2; exit 1; }
echo 'module mlx5_core format "fw exec time" +p' >/proc/dynamic_debug/control ||
	{ echo "mlx5-bench: no dynamic debug for mlx5_core" >&2; exit 1; }
# cxswap's dynamic id lets mlx5_core take the function as soon as it is
# loaded: every round starts from an unbound function.
d=$(driver_of "$bdf")
[ -z "$d" ] || echo "$bdf" >"/sys/bus/pci/drivers/$d/unbind"
[ -z "$(driver_of "$bdf")" ] || { echo "mlx5-bench: $d did not unbind" >&2; exit 1; }
trace_setup
c=$(counters pages)
cmds=${c% *} pages=${c#* }
i=1
while [ "$i" -le "$rounds" ]; do
	round cxprm cxprm "$i"
	round mlx5_core mlx5_core "$i"
	i=$((i + 1))
done
ioctl_path
# The drivers' own messages between the marks, for reading the figures.
dmesg | grep -E 'mlx5-bench mark|cxprm|mlx5_core' | sed 's/^/MLX5-BENCH: log /'
exit $rc
