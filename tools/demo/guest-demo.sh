#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The cxprm demo session, run inside the QEMU guest (busybox sh) once the
# module is loaded and the emulated BlueField-3 (its Arm side: an ECPF, the
# eswitch manager, which is what 'cxprm esw' needs) is bound: what a user types,
# and what they see.
export PATH="/cxprm:$PATH"
dev=$(for d in /dev/cxprm/*; do [ -e "$d" ] && echo "${d##*/}" && break; done)
[ -n "$dev" ] || { echo "demo: no /dev/cxprm device"; exit 1; }
dbg=/sys/kernel/debug/cxprm/$dev
rc=0

run() {
	printf '\n$ %s\n' "$*"
	"$@" || { echo "demo: '$*' failed ($?)"; rc=1; }
}

run cxprm list
run cxprm info "$dev"
# The firmware's 4 KiB pages, cut from the kernel's pages as mlx5 does: on
# a 16 KiB-page arm64 kernel four to a page.
run uname -rm
printf '\n$ tail -n 2 %s/pages\n' "$dbg"
tail -n 2 "$dbg/pages"
printf '\n$ cxprm caps %s | head -n 24\n' "$dev"
cxprm caps "$dev" | head -n 24
# An NVMe-oF namespace to look at: the NVMe side hands over an I/O queue
# pair of its SSD (here the emulated one: 'emuctl nvme-queue 1' prints its
# SQ, CQ and doorbell), then 'nvmf setup' creates the PD, CQ, XRQ, backend
# controller on that queue pair and the namespace on its open file; the
# initiator's I/O (--exec) goes through the backend, the counters follow
# what the SSD completed, and everything is destroyed in dependency order.
printf '\n$ emuctl nvme-queue 1\n'
ssd=$(emuctl nvme-queue 1) || { echo "demo: no SSD queue pair"; rc=1; }
echo "$ssd"
# shellcheck disable=SC2016,SC2086 # --exec expands CXPRM_*; $ssd is several options
run cxprm nvmf setup "$dev" $ssd --nsid 1 --exec 'emuctl nvmf-io $CXPRM_XRQN $CXPRM_NSID 1200 300 8 >/dev/null'
# What the SSD itself saw: every command came to it through the backend.
printf '\n$ emuctl nvme-stat commands   # NVMe commands the emulated SSD completed\n'
emuctl nvme-stat commands
run cxprm esw functions "$dev"
printf '\n$ cxprm esw watch %s --count 1 --timeout 20 &   # then the host side adds 4 VFs\n' "$dev"
cxprm esw watch "$dev" --count 1 --timeout 20 &
watcher=$!
sleep 1
emuctl set-num-vfs 4 >/dev/null
wait "$watcher" || { echo "demo: esw watch saw no event"; rc=1; }
# Without --pd/--cqn/--srqn the DCT gets a PD, CQ and SRQ of its own.
run cxprm dct create "$dev" --key 0xc0ffee --mtu 4096 --rre --rwe --then query,drain,wait,destroy
run cxprm bench connect "$dev" --count 100
run cxprm stats "$dev"
printf '\n$ cat %s/last_cmds | tail -n 8\n' "$dbg"
tail -n 8 "$dbg/last_cmds"
exit $rc
