#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of tools/qemu/run-mlx5.sh --bench (tools/bench/bench-mlx5.sh,
# part of `make bench`): cxprm next to Linux's unmodified mlx5_core on the
# same emulated ConnectX, in one boot.  N rounds (default 5), each: cxprm
# with cmd_mode=poll, cxprm with cmd_mode=events, mlx5_core; each a sysfs
# bind then an unbind.  Per bind and unbind: the wall time (printk
# timestamps of two /dev/kmsg marks around the sysfs write: µs), the
# emulator's command count and pages given (emuctl, the control page);
# before the unbind, each driver's own per-command statistics: cxprm's
# debugfs cmd_stats (avg_us, count), mlx5_core's debugfs
# commands/<NAME>/{average,n} (ns).  Both time a command from its doorbell
# to the completion seen.  Prints "MLX5-BENCH: ..." lines for the host:
#   MLX5-BENCH: bind|unbind DRV ROUND US COMMANDS PAGES
#   MLX5-BENCH: lat DRV ROUND NAME N AVG_NS
#   MLX5-BENCH: failed DRV ROUND WHY   (a bind that failed: the round does not count)
#   MLX5-BENCH: perf TEXT
#   MLX5-BENCH: log DMESG-LINE
# exit 0 when every unbind unbound.
# shellcheck source=tools/qemu/guest/lib.sh
. "${CXPRM_LIB:-/cxprm/lib.sh}"
rounds=${1:-5}
bdf=${CXPRM_BDF:?no ivshmem device}
OPS='QUERY_HCA_CAP QUERY_PAGES MANAGE_PAGES'
rc=0
say() { echo "MLX5-BENCH: $*"; }

# mark NAME: a printk'ed mark, just before or after a sysfs write; stamp
# NAME: its printk timestamp in µs, read afterwards, so that what is timed
# is the write alone, not the tools around it.
mark() { echo "mlx5-bench mark $1" >/dev/kmsg; }
stamp() {
	dmesg | grep "mlx5-bench mark $1\$" | tail -n 1 |
		sed 's/^\[ *\([0-9]*\)\.\([0-9]*\)\].*/\1 \2/' | { read -r s u; echo $((s * 1000000 + 1$u - 1000000)); }
}
# elapsed FROM TO: µs between two marks.
elapsed() { echo $(($(stamp "$2") - $(stamp "$1"))); }
# The emulator's command count, and with "pages" the pages given too.
counters() { echo "$(emuctl commands)${1:+ $(emuctl pages-given)}"; }
# stat DRV OP: "N AVG_NS", the driver's own figures for OP so far.
stat() {
	if [ "$1" = mlx5_core ]; then
		d=/sys/kernel/debug/mlx5/$bdf/commands/$2
		if [ -r "$d/n" ]; then echo "$(cat "$d/n") $(cat "$d/average")"; else echo "0 0"; fi
	else
		awk -v op="$2" 'index($1, op "(") == 1 { split($5, a, "."); f = 1
				print $2, a[1] * 1000 + substr(a[2] "000", 1, 3) }
			END { if (!f) print "0 0" }' "/sys/kernel/debug/cxprm/$bdf/cmd_stats"
	fi
}
# stats DRV ROUND: the bring-up's per-command figures, before the unbind.
# For cxprm also $IOCTLS QUERY_HCA_CAP by ioctl after the bring-up (cxprm
# caps: polled or by event, as cmd_mode says), apart: "ioctl-QUERY_HCA_CAP".
IOCTLS=10
stats() {
	for op in $OPS; do
		say "lat $1 $2 $op $(stat "$1" "$op")"
	done
	[ "$1" != mlx5_core ] || return 0
	# shellcheck disable=SC2046 # "N AVG" before, then after
	set -- "$1" "$2" $(stat "$1" QUERY_HCA_CAP)
	k=0
	while [ $k -lt $IOCTLS ]; do
		/cxprm/cxprm caps "$bdf" >/dev/null || { echo "mlx5-bench: cxprm caps failed" >&2; rc=1; }
		k=$((k + 1))
	done
	# shellcheck disable=SC2046
	set -- "$@" $(stat "$1" QUERY_HCA_CAP)
	[ "$5" -gt "$3" ] || { say "lat $1 $2 ioctl-QUERY_HCA_CAP 0 0"; return 0; }
	say "lat $1 $2 ioctl-QUERY_HCA_CAP $(($5 - $3)) $((($5 * $6 - $3 * $4) / ($5 - $3)))"
}

# round DRV NAME ROUND: bind, statistics, unbind.  $cmds and $pages: the
# emulator's counters before (what the last round left).
round() {
	echo "$1" >"/sys/bus/pci/devices/$bdf/driver_override"
	mark "$2-$3-bind"
	echo "$bdf" >/sys/bus/pci/drivers_probe
	mark "$2-$3-bound"
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
	cmds=${c% *} pages=${c#* }
	stats "$2" "$3"
	[ "$1" = mlx5_core ] || cmds=$(counters)	# after cxprm's ioctls
	mark "$2-$3-unbind"
	echo "$bdf" >"/sys/bus/pci/drivers/$1/unbind"
	mark "$2-$3-unbound"
	c=$(counters)
	[ -z "$(driver_of "$bdf")" ] || { echo "mlx5-bench: $2 did not unbind" >&2; rc=1; }
	say "unbind $2 $3 $(elapsed "$2-$3-unbind" "$2-$3-unbound") $((c - cmds)) 0"
	cmds=$c
}

dmesg | grep -E 'Performance Events' | sed 's/^\[[^]]*\] */MLX5-BENCH: perf /'
insmod /cxprm/cxprm.ko || { echo "mlx5-bench: insmod cxprm.ko failed" >&2; exit 1; }
# cxswap once, before the first bind: both drivers then see BAR0 as the
# shared memory (cxprm takes either BAR).
insmod "${CXSWAP_KO:-/cxprm/cxswap.ko}" || { echo "mlx5-bench: insmod cxswap.ko failed" >&2; exit 1; }
m=/sys/module/cxprm/parameters/cmd_mode
c=$(counters pages)
cmds=${c% *} pages=${c#* }
i=1
while [ "$i" -le "$rounds" ]; do
	echo poll >$m
	round cxprm cxprm-poll "$i"
	echo events >$m
	round cxprm cxprm-events "$i"
	round mlx5_core mlx5_core "$i"
	i=$((i + 1))
done
echo poll >$m
# The drivers' own messages between the marks, for reading the figures.
dmesg | grep -E 'mlx5-bench mark|cxprm|mlx5_core' | sed 's/^/MLX5-BENCH: log /'
exit $rc
