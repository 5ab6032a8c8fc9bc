#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# emuctl: talk to cxprm-emud (the firmware emulator behind QEMU) from inside
# the guest, through the test control page in the last 4 KiB of the ivshmem
# BAR2 (tools/emulator/daemon/control.h, README.md there).  busybox sh +
# busybox devmem; run-guest.sh installs it as /bin/emuctl.
#
#   emuctl [--bdf BDF] [--timeout S] COMMAND [ARGS...]
#
# Needs /dev/mem access to the BAR while cxprm.ko holds it: the harness boots
# with iomem=relaxed (CONFIG_IO_STRICT_DEVMEM would refuse it otherwise).
#
# Test overrides: EMUCTL_BASE (physical address of the control page: skips
# the sysfs lookup), EMUCTL_DEVMEM (devmem command), EMUCTL_SYSFS (default
# /sys/bus/pci/devices).

usage() {
	cat <<'EOF'
usage: emuctl [--bdf BDF] [--timeout S] COMMAND [ARGS...]

Emulator
  ping                      check that cxprm-emud answers (prints its version)
  info                      magic, version, pid, device id, firmware, BAR2 address
  wait [S]                  wait up to S seconds (default 10) for the emulator
  mark N                    write "guest mark N" into the emulator's log
Hooks
  set-num-vfs N             eswitch VF count -> ESW_FUNCTIONS_CHANGED event
  request-pages N           PAGE_REQUEST event (N < 0: firmware returns pages)
  nvmf-io XRQN NSID READS WRITES [BLOCKS_PER_IO]
  post-event TYPE SUBTYPE [D0..D6]   D = big-endian data dwords; prints #EQs
Faults
  fault KNOB [VALUE [VALUE2]] [--only-opcode OP] [--once]
        never-complete on|off        corrupt-signature entry|blocks|both|off
        wrong-token entry|blocks|both|off
        delivery-status STATUS [COUNT]   (STATUS 0 = off)
        output-length-lie N          broken-chain on|off
        slow-ms N                    crash [int-err] (sticky)
        device-gone (sticky)         crash-int-err on|off
        only-opcode OP|any           once on|off
        health-stall on|off          (health counter stops, no syndrome)
        health-syndrome N            (syndrome without rfr, 0 clears)
        sw-reset (sticky)            (nic_interface SW_RESET until function reset)
  fault-clear                clear every per-command knob and the selectors
  function-reset             the host resets the function: crash/gone/stall end,
                             HCA DISABLED, pages and objects dropped
Queries (print the value)
  pages-held  commands  hca-state  num-vfs  issi  initializing  crashed  gone
  health-counter  pages-given  pages-taken  pages-wanted boot|init|regular
  opcode-count OP  last-status  last-syndrome  last-delivery  uars  eqs  dcts
  namespaces  faults-fired  checksums  counter NAME  nvmf-counter XRQN NSID FIELD
  query WHAT [A1 A2 A3]      raw query number
  raw CMD [ARGS...]          raw command: prints "status result"
OP is a number or a name (ENABLE_HCA, MANAGE_PAGES, ...).  Counter NAMEs:
commands-processed commands-executed delivery-errors ignored-doorbells
unreachable-entries eqes-written eq-overruns eqe-dma-errors bad-eq-doorbells
irqs-raised pages-leaked objects-leaked dma-refused.  NVMF FIELDs: read-cmds
read-blocks write-cmds write-blocks flush-cmds error-cmds.

Exit status: 0 ok, 1 the emulator refused (status printed on stderr),
2 usage, 3 no emulator, 4 no answer in time.
EOF
}

# --- control page map (control.h) -------------------------------------------
CTRL_SIZE=4096
O_MAGIC=0x000 O_VERSION=0x004 O_HEARTBEAT=0x008 O_PID=0x00c
O_SEQ=0x010 O_CMD=0x014 O_ACK=0x018 O_STATUS=0x01c
O_RES_LO=0x020 O_RES_HI=0x024 O_DEVICE_ID=0x028 O_FW_REV=0x02c O_ARG0=0x040
MAGIC=0x4d455843
C_NOP=0x00 C_SET_NUM_VFS=0x01 C_NVMF_IO=0x02 C_REQUEST_PAGES=0x03
C_POST_EVENT=0x04 C_FAULT=0x10 C_FAULT_CLEAR=0x11 C_FUNCTION_RESET=0x12 C_QUERY=0x20 C_MARK=0x30

die() { echo "emuctl: $*" >&2; exit 2; }

devmem_cmd=${EMUCTL_DEVMEM:-devmem}
sysfs=${EMUCTL_SYSFS:-/sys/bus/pci/devices}
# In a guest /cxprm/lib.sh; run from the tree (the host tests), the one beside it.
lib=${CXPRM_LIB:-/cxprm/lib.sh}
[ -r "$lib" ] || lib=$(dirname "$0")/lib.sh
# shellcheck source=tools/qemu/guest/lib.sh
. "$lib"
PCI_SYSFS=$sysfs
bdf=${CXPRM_BDF:-}
timeout_s=5

while [ $# -gt 0 ]; do
	case "$1" in
	--bdf) [ $# -ge 2 ] || die "--bdf needs a value"; bdf=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs a value"; timeout_s=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { usage >&2; exit 2; }

# --- where the control page is ----------------------------------------------
find_base() {
	if [ -n "${EMUCTL_BASE:-}" ]; then
		base=$((EMUCTL_BASE))
		return 0
	fi
	[ -n "$bdf" ] || bdf=$(find_ivshmem | head -n 1)
	[ -n "$bdf" ] || { echo "emuctl: no ivshmem device (1af4:1110)" >&2; exit 3; }
	# resource: one line per BAR, "start end flags"; the shared memory is
	# BAR2 (line 3), or BAR0 (line 1) once cxswap.ko swapped them for
	# mlx5_core: the one of at least 64 KiB (the register BAR has 256 bytes).
	line=$(sed -n 3p "$sysfs/$bdf/resource" 2>/dev/null)
	[ -n "$line" ] || { echo "emuctl: $sysfs/$bdf/resource unreadable" >&2; exit 3; }
	# shellcheck disable=SC2086 # split the line into its fields
	set -- $line
	start=$(($1)) end=$(($2))
	if [ $((end - start + 1)) -lt 65536 ]; then
		# shellcheck disable=SC2046 # split the line into its fields
		set -- $(sed -n 1p "$sysfs/$bdf/resource")
		if [ $(($2 - $1 + 1)) -ge 65536 ]; then
			start=$(($1)) end=$(($2))
		fi
	fi
	[ "$start" -ne 0 ] || { echo "emuctl: $bdf has no BAR2" >&2; exit 3; }
	bar_start=$start
	bar_size=$((end - start + 1))
	base=$((start + bar_size - CTRL_SIZE))
}

rd() {
	v=$($devmem_cmd "$(printf '0x%x' $((base + $1)))" 32) || return 1
	echo $((v))
}
wr() {
	$devmem_cmd "$(printf '0x%x' $((base + $1)))" 32 "$(printf '0x%x' $(($2 & 0xffffffff)))" >/dev/null
}

# The memory decode bit may be off while no driver has the device.
check_magic() {
	m=$(rd $O_MAGIC 2>/dev/null) || m=unreadable
	[ "$m" = $((MAGIC)) ] && return 0
	if [ "$m" != unreadable ] && [ -n "$bdf" ] && [ -z "${EMUCTL_BASE:-}" ] &&
		[ -w "$sysfs/$bdf/enable" ] && [ "$(cat "$sysfs/$bdf/enable")" = 0 ]; then
		echo 1 >"$sysfs/$bdf/enable" 2>/dev/null
		m=$(rd $O_MAGIC 2>/dev/null) || m=unreadable
		[ "$m" = $((MAGIC)) ] && return 0
	fi
	return 1
}
no_emulator() {
	if [ "$m" = unreadable ]; then
		echo "emuctl: $devmem_cmd cannot read $(printf '0x%x' "$base") (a driver holds the BAR and the kernel runs without iomem=relaxed?)" >&2
	else
		echo "emuctl: no cxprm-emud behind the control page at $(printf '0x%x' "$base") (magic $(printf '0x%x' "$m"))" >&2
	fi
	exit 3
}

now_ms() {
	read -r up _ </proc/uptime 2>/dev/null || up=$(date +%s)
	# uptime has two decimals: seconds * 100, then * 10
	echo $(( $(echo "$up" | tr -d .) * 10 ))
}

# ctl CMD [ARGS...]: runs a command; sets status, result (64-bit decimal).
ctl() {
	cmd=$1
	shift
	[ $# -le 16 ] || die "too many arguments"
	ack=$(rd $O_ACK) || exit 3
	seq=$(((ack + 1) & 0xffffffff))
	[ "$seq" -ne 0 ] || seq=1
	i=0
	for a in "$@"; do
		wr $((O_ARG0 + 4 * i)) "$a"
		i=$((i + 1))
	done
	wr $O_CMD "$cmd"
	wr $O_SEQ "$seq"
	deadline=$(($(now_ms) + timeout_s * 1000))
	while :; do
		[ "$(rd $O_ACK)" = "$seq" ] && break
		if [ "$(now_ms)" -gt "$deadline" ]; then
			echo "emuctl: no answer from the emulator in ${timeout_s}s (seq $seq)" >&2
			exit 4
		fi
		usleep 1000 2>/dev/null || sleep 0.001
	done
	status=$(rd $O_STATUS)
	lo=$(rd $O_RES_LO)
	hi=$(rd $O_RES_HI)
	result=$(((hi << 32) | lo))
}

status_name() {
	case "$1" in
	0) echo ok ;; 1) echo "unknown command" ;; 2) echo "bad argument" ;;
	3) echo "refused by the emulator" ;; 4) echo "timeout" ;; *) echo "status $1" ;;
	esac
}

# run CMD [ARGS...]: ctl, fail on a non-ok status.
run() {
	ctl "$@"
	if [ "$status" != 0 ]; then
		echo "emuctl: $what: $(status_name "$status")" >&2
		exit 1
	fi
}

# Value converters: print the number, or fail (the caller dies: a die in
# a command substitution would only leave the subshell).
num() {
	case "$1" in
	0[xX]*) case "${1#0[xX]}" in '' | *[!0-9a-fA-F]*) return 1 ;; esac ;;
	-*) case "${1#-}" in '' | *[!0-9]*) return 1 ;; esac ;;
	*) case "$1" in '' | *[!0-9]*) return 1 ;; esac ;;
	esac
	echo $(($1))
}
N() { num "$1" || die "not a number: $1"; }
# nums A B...: sets $args to the numbers, or dies.
nums() {
	args=
	for a in "$@"; do
		num "$a" >/dev/null || die "not a number: $a"
		args="$args $((a))"
	done
}

opcode() {
	case "$1" in
	QUERY_HCA_CAP) echo 256 ;; QUERY_ADAPTER) echo 257 ;; INIT_HCA) echo 258 ;;
	TEARDOWN_HCA) echo 259 ;; ENABLE_HCA) echo 260 ;; DISABLE_HCA) echo 261 ;;
	QUERY_PAGES) echo 263 ;; MANAGE_PAGES) echo 264 ;; SET_HCA_CAP) echo 265 ;;
	QUERY_ISSI) echo 266 ;; SET_ISSI) echo 267 ;; SET_DRIVER_VERSION) echo 269 ;;
	CREATE_EQ) echo 769 ;; DESTROY_EQ) echo 770 ;; QUERY_EQ) echo 771 ;;
	CREATE_DCT) echo 1808 ;; DESTROY_DCT) echo 1809 ;; DRAIN_DCT) echo 1810 ;;
	QUERY_DCT) echo 1811 ;; ARM_DCT_FOR_KEY_VIOLATION) echo 1812 ;;
	ATTACH_NVMF_NAMESPACE) echo 1827 ;; DETACH_NVMF_NAMESPACE) echo 1828 ;;
	QUERY_NVMF_NAMESPACE_CONTEXT) echo 1832 ;; QUERY_ESW_FUNCTIONS) echo 1856 ;;
	ALLOC_UAR) echo 2050 ;; DEALLOC_UAR) echo 2051 ;; NOP) echo 2061 ;;
	*) num "$1" ;;
	esac
}

onoff() {
	case "${1:-on}" in
	on | 1 | yes | true) echo 1 ;; off | 0 | no | false) echo 0 ;;
	*) return 1 ;;
	esac
}

target() {
	case "${1:-entry}" in
	entry) echo 1 ;; blocks) echo 2 ;; both) echo 3 ;; off | 0) echo 0 ;; *) num "$1" ;;
	esac
}

query() {
	what="query $1"
	run $C_QUERY "$@"
	echo "$result"
}

what=$1
shift
find_base
if [ "$what" = wait ]; then
	limit=$(( ${1:-10} * 1000 ))
	deadline=$(($(now_ms) + limit))
	until check_magic; do
		[ "$(now_ms)" -le "$deadline" ] || no_emulator
		sleep 0.1
	done
	exit 0
fi
check_magic || no_emulator

case "$what" in
ping)
	run $C_NOP
	echo "cxprm-emud control version $result"
	;;
info)
	fw=$(rd $O_FW_REV)
	echo "magic       $(printf '0x%08x' "$(rd $O_MAGIC)")"
	echo "version     $(rd $O_VERSION)"
	echo "pid         $(rd $O_PID)"
	echo "device id   $(printf '0x%04x' "$(rd $O_DEVICE_ID)")"
	echo "firmware    $((fw >> 24)).$(((fw >> 16) & 0xff)).$((fw & 0xffff))"
	echo "heartbeat   $(rd $O_HEARTBEAT)"
	[ -z "${bar_start:-}" ] || echo "bar2        $(printf '0x%x' "$bar_start") ($((bar_size / 1024)) KiB, $bdf)"
	echo "control     $(printf '0x%x' "$base")"
	;;
mark)
	[ $# = 1 ] || die "mark N"
	n=$(N "$1") || exit 2
	run $C_MARK "$n"
	;;
set-num-vfs)
	[ $# = 1 ] || die "set-num-vfs N"
	n=$(N "$1") || exit 2
	run $C_SET_NUM_VFS "$n"
	;;
request-pages)
	[ $# = 1 ] || die "request-pages N"
	n=$(N "$1") || exit 2
	run $C_REQUEST_PAGES "$n"
	;;
nvmf-io)
	if [ $# -lt 4 ] || [ $# -gt 5 ]; then die "nvmf-io XRQN NSID READS WRITES [BLOCKS_PER_IO]"; fi
	nums "$1" "$2" "$3" "$4" "${5:-0}"
	# shellcheck disable=SC2086 # numbers only
	run $C_NVMF_IO $args
	;;
post-event)
	if [ $# -lt 2 ] || [ $# -gt 9 ]; then die "post-event TYPE SUBTYPE [D0..D6]"; fi
	nums "$@"
	# shellcheck disable=SC2086 # numbers only
	run $C_POST_EVENT $args
	echo "$result"
	;;
fault)
	[ $# -ge 1 ] || die "fault KNOB [VALUE [VALUE2]] [--only-opcode OP] [--once]"
	knob=$1
	shift
	vals='' only='' once=''
	while [ $# -gt 0 ]; do
		case "$1" in
		--only-opcode) [ $# -ge 2 ] || die "--only-opcode OP"; only=$(opcode "$2") || die "bad opcode $2"; shift 2 ;;
		--once) once=1; shift ;;
		*) vals="$vals $1"; shift ;;
		esac
	done
	# shellcheck disable=SC2086 # split the values
	set -- $vals
	case "$knob" in
	never-complete) k=1 v=$(onoff "${1:-on}") || v= ;;
	corrupt-signature) k=2 v=$(target "${1:-entry}") || v= ;;
	wrong-token) k=3 v=$(target "${1:-entry}") || v= ;;
	delivery-status) [ $# -ge 1 ] || die "delivery-status STATUS [COUNT]"; k=4 v=$(num "$1") || v= ;;
	output-length-lie) [ $# -ge 1 ] || die "output-length-lie N"; k=5 v=$(num "$1") || v= ;;
	broken-chain) k=6 v=$(onoff "${1:-on}") || v= ;;
	slow-ms) [ $# -ge 1 ] || die "slow-ms N"; k=7 v=$(num "$1") || v= ;;
	crash)
		k=8 v=1
		case "${1:-}" in
		int-err) set -- 1 1 ;; off) v=0; set -- 0 ;; *) set -- 1 0 ;;
		esac
		;;
	device-gone) k=9 v=$(onoff "${1:-on}") || v= ;;
	only-opcode)
		[ $# -ge 1 ] || die "only-opcode OP|any"
		k=10
		if [ "$1" = any ]; then v=4294967295; else v=$(opcode "$1") || v=; fi
		;;
	once) k=11 v=$(onoff "${1:-on}") || v= ;;
	crash-int-err) k=12 v=$(onoff "${1:-on}") || v= ;;
	health-stall) k=13 v=$(onoff "${1:-on}") || v= ;;
	health-syndrome) k=14 v=$(N "${1:-16}") || v= ;;
	sw-reset) k=15 v=$(onoff "${1:-on}") || v= ;;
	*) die "unknown fault knob $knob" ;;
	esac
	[ -n "$v" ] || die "fault $knob: bad value ${1:-}"
	v2=$(N "${2:-0}") || exit 2
	what="fault $knob"
	# Selectors first: a knob is live as soon as it is set.
	[ -z "$only" ] || run $C_FAULT 10 "$only"
	[ -z "$once" ] || run $C_FAULT 11 1
	run $C_FAULT "$k" "$v" "$v2"
	;;
fault-clear)
	run $C_FAULT_CLEAR
	;;
function-reset)
	run $C_FUNCTION_RESET
	;;
pages-held) query 1 ;;
commands) query 2 ;;
hca-state)
	s=$(query 3) || exit $?
	case "$s" in
	0) echo DISABLED ;; 1) echo ENABLED ;; 2) echo INITIALIZED ;; 3) echo TORN_DOWN ;; *) echo "$s" ;;
	esac
	;;
num-vfs) query 4 ;;
issi) query 5 ;;
initializing) query 6 ;;
crashed) query 7 ;;
gone) query 8 ;;
health-counter) query 9 ;;
pages-given) query 10 ;;
pages-taken) query 11 ;;
pages-wanted)
	case "${1:-}" in
	boot) m=1 ;; init) m=2 ;; regular) m=3 ;; *) die "pages-wanted boot|init|regular" ;;
	esac
	query 12 $m	# signed: the 64-bit result arithmetic prints it as such
	;;
opcode-count)
	[ $# = 1 ] || die "opcode-count OP"
	op=$(opcode "$1") || die "bad opcode $1"
	query 13 "$op"
	;;
last-status) s=$(query 14) || exit $?; echo $((s & 0xff)) ;;
last-syndrome) s=$(query 14) || exit $?; printf '0x%x\n' $(((s >> 32) & 0xffffffff)) ;;
last-delivery) query 15 ;;
uars) query 16 ;;
eqs) query 17 ;;
dcts) query 18 ;;
namespaces) query 19 ;;
counter)
	case "${1:-}" in
	commands-processed) c=0 ;; commands-executed) c=1 ;; delivery-errors) c=2 ;;
	ignored-doorbells) c=3 ;; unreachable-entries) c=4 ;; eqes-written) c=5 ;;
	eq-overruns) c=6 ;; eqe-dma-errors) c=7 ;; bad-eq-doorbells) c=8 ;;
	irqs-raised) c=9 ;; pages-leaked) c=10 ;; objects-leaked) c=11 ;; dma-refused) c=12 ;;
	*) die "unknown counter ${1:-}" ;;
	esac
	query 20 $c
	;;
faults-fired) query 21 ;;
checksums) query 22 ;;
nvmf-counter)
	[ $# = 3 ] || die "nvmf-counter XRQN NSID FIELD"
	case "$3" in
	read-cmds) f=0 ;; read-blocks) f=1 ;; write-cmds) f=2 ;; write-blocks) f=3 ;;
	flush-cmds) f=4 ;; error-cmds) f=5 ;; *) die "unknown NVMF field $3" ;;
	esac
	nums "$1" "$2"
	# shellcheck disable=SC2086 # numbers only
	query 23 $args $f
	;;
query)
	[ $# -ge 1 ] || die "query WHAT [A1 A2 A3]"
	nums "$@"
	# shellcheck disable=SC2086 # numbers only
	query $args
	;;
raw)
	[ $# -ge 1 ] || die "raw CMD [ARGS...]"
	nums "$@"
	# shellcheck disable=SC2086 # numbers only
	ctl $args
	echo "$status $result"
	;;
*)
	die "unknown command $what (emuctl --help)"
	;;
esac
exit 0
