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
printf '\n$ cxprm caps %s | head -n 24\n' "$dev"
cxprm caps "$dev" | head -n 24
# An NVMe-oF namespace to look at: attach one with a raw command (write
# scope: the module was loaded with allow_raw_write=1).
run cxprm raw "$dev" --opcode ATTACH_NVMF_NAMESPACE --set xrqn=0x80 --set frontend_namespace=1 \
	--set backend_namespace=1 --set lba_data_size=512 --out-len 16
emuctl nvmf-io 0x80 1 1200 300 8 >/dev/null 2>&1 || true
run cxprm nvmf ns "$dev" --xrq 0x80 --nsid 1
run cxprm esw functions "$dev"
printf '\n$ cxprm esw watch %s --count 1 --timeout 20 &   # then the host side adds 4 VFs\n' "$dev"
cxprm esw watch "$dev" --count 1 --timeout 20 &
watcher=$!
sleep 1
emuctl set-num-vfs 4 >/dev/null
wait "$watcher" || { echo "demo: esw watch saw no event"; rc=1; }
run cxprm dct create "$dev" --pd 1 --cqn 2 --srqn 3 --key 0xc0ffee --mtu 4096 --rre --rwe \
	--then query,drain,wait,destroy
run cxprm stats "$dev"
printf '\n$ cat %s/last_cmds | tail -n 8\n' "$dbg"
tail -n 8 "$dbg/last_cmds"
exit $rc
