#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The cxprm binaries as a script (or a kselftest) sees them: exit codes,
# messages on stderr, --help of every subcommand, JSON validity checked by
# python3 -m json.tool, device-missing and not-a-device errors from the real
# binary, and every JSON-printing subcommand of the fake-device build.
#
# usage: cli_test.sh CXPRM CXPRM_FAKE TMPDIR
set -u
CXPRM=$1
FAKE=$2
TMP=$3
rm -rf "$TMP"
mkdir -p "$TMP/dev"
export CXPRM_DEV_DIR="$TMP/dev"

fails=0
checks=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# expect RC CMD...: run, keep stdout/stderr in $TMP/out $TMP/err.
expect() {
	local want=$1
	shift
	checks=$((checks + 1))
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	local rc=$?
	if [ "$rc" != "$want" ]; then
		fail "exit $rc (want $want): $*"
		sed 's/^/    /' "$TMP/err" >&2
	fi
}
err_has() { grep -qF -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(head -c 400 "$TMP/err")"; }
out_has() { grep -qF -- "$1" "$TMP/out" || fail "stdout lacks '$1'"; }

have_python=0
command -v python3 >/dev/null && have_python=1
json_ok() { # file
	[ $have_python = 1 ] || return 0
	python3 -m json.tool "$1" >/dev/null 2>"$TMP/jerr" || fail "invalid JSON ($(head -c 200 "$TMP/jerr")): $(head -c 300 "$1")"
}
json_lines_ok() { # file
	[ $have_python = 1 ] || return 0
	python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    json.loads(l); n+=1
assert n>0, "no lines"' "$1" 2>"$TMP/jerr" || fail "invalid JSON lines: $(head -c 300 "$TMP/jerr")"
}

# --- help ------------------------------------------------------------------
expect 0 "$CXPRM" --help
out_has "usage: cxprm"
expect 0 "$CXPRM" --version
expect 1 "$CXPRM"
for c in list info caps "nvmf ns" "esw functions" "esw watch" "dct create" "dct query" "dct drain" \
	"dct destroy" "dct session" "qp connect" raw stats probe decode reg; do
	# shellcheck disable=SC2086
	expect 0 "$CXPRM" $c --help
	out_has "usage: cxprm $c"
	out_has "--help"
done

# --- usage errors: exit 1 and a message --------------------------------------
expect 1 "$CXPRM" frobnicate;                 err_has "unknown command 'frobnicate'"
expect 1 "$CXPRM" info;                       err_has "missing argument"
expect 1 "$CXPRM" info 00:03.0 --frob;        err_has "unknown option '--frob'"
expect 1 "$CXPRM" info xyz;                   err_has "is not a device"
expect 1 "$CXPRM" caps 00:03.0 --type frob;   err_has "unknown capability type"
expect 1 "$CXPRM" nvmf ns 00:03.0;            err_has "--xrq and --nsid are required"
expect 1 "$CXPRM" dct create 00:03.0 --pd 1 --cqn 1 --mtu 3000; err_has "256, 512, 1024, 2048, 4096"
expect 1 "$CXPRM" qp connect 00:03.0 --mtu 1000; err_has "256, 512, 1024, 2048, 4096"
expect 1 "$CXPRM" qp connect 00:03.0 --flow-label 0x100000; err_has "--flow-label: 0x100000 is out of range"
expect 1 "$CXPRM" qp connect 00:03.0 --rgid fe80::zz; err_has "is not a GID"
expect 1 "$CXPRM" qp connect 00:03.0 --rmac aa:bb:cc;  err_has "is not a MAC address"
expect 1 "$CXPRM" raw 00:03.0;                err_has "--opcode is required"
expect 1 "$CXPRM" raw 00:03.0 --opcode QUERY_DCT --set dctn=1 --set nope=2; err_has "has no field 'nope'"
expect 1 "$CXPRM" decode --opcode QUERY_DCT;  err_has "give one of"
expect 1 "$CXPRM" stats 00:03.0 --json=1;     err_has "takes no value"

# --- device missing / not a device: exit 2 -----------------------------------
expect 2 "$CXPRM" info 0000:00:09.0
err_has "no cxprm device 0000:00:09.0"
err_has "is it bound to cxprm?"
err_has "README"
expect 2 "$CXPRM" caps 00:09.0 -j;            err_has "no cxprm device 0000:00:09.0"
expect 2 "$CXPRM" dct session 00:09.0;        err_has "no cxprm device 0000:00:09.0"
CXPRM_DEV_DIR="$TMP/none" expect 2 "$CXPRM" info 00:09.0
err_has "does not exist either: is the module loaded?"
echo "not a device" >"$TMP/dev/0000:00:07.0"
expect 2 "$CXPRM" info 00:07.0;               err_has "ENOTTY"
expect 2 "$CXPRM" list -j;                    json_ok "$TMP/out"
rm "$TMP/dev/0000:00:07.0"
expect 0 "$CXPRM" list -j
json_ok "$TMP/out"
out_has "[]"

# --- decode: no device -------------------------------------------------------
# QUERY_DCT output: status OK, then the dctc: state 2 (DRAINED, dword 0 bits 4-7),
# pd 7 (dword 6), mtu 3 (2048; dword 10 bits 5-7).
out=$(printf '%s' "00000000 00000000 00000000 00000000" \
	"02000000 00000000 00000000 00000000 00000000 00000000 00000007 00000000" \
	"00000000 00000000 03000000 00000000 00000000 00000000 00000000 00000000" \
	"00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000" \
	"00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000")
expect 0 "$CXPRM" decode --opcode QUERY_DCT --out "$out" -j
json_ok "$TMP/out"
out_has '"pd": 7'
out_has '"mtu": 3'
out_has '"state": 2'
expect 0 "$CXPRM" decode --opcode QUERY_DCT --out "$out"
out_has "pd:"
echo "$out" >"$TMP/out.hex"
expect 0 "$CXPRM" decode --opcode query_dct --out "@$TMP/out.hex" --hex -j
json_ok "$TMP/out"
expect 0 "$CXPRM" decode --layout dctc --data 00 -j
json_ok "$TMP/out"

# --- every subcommand on a fake device (cxprm-fake) --------------------------
# 00:03.0 is a BlueField's ECPF (the eswitch functions exist there only)
printf 'cxprm-fake\nprofile=bluefield3\nesw_events=2\n' >"$TMP/dev/0000:00:03.0"
printf 'cxprm-fake\nprofile=connectx5\n' >"$TMP/dev/0000:00:04.0"
for args in "list" "info 00:03.0" "caps 00:03.0" "caps 00:03.0 --max --hex" "caps 00:04.0 --type nvmf" \
	"caps 00:03.0 --type roce" "nvmf ns 00:03.0 --xrq 0x80 --nsid 1" "esw functions 00:03.0" \
	"stats 00:03.0" "raw 00:03.0 --opcode QUERY_HCA_CAP --op-mod 1 --dump" \
	"raw 00:03.0 --opcode QUERY_ADAPTER" "probe 00:03.0 --xrq 0x80" "probe 00:04.0 --xrq 0x40 --with-latency"; do
	# shellcheck disable=SC2086
	expect 0 "$FAKE" $args -j
	json_ok "$TMP/out"
	# shellcheck disable=SC2086
	expect 0 "$FAKE" $args
done
# --- reg: registers by name, ACCESS_REG through the raw path; a read is a
# query (no allow_raw_write), a write needs what a raw write needs.
expect 2 "$FAKE" reg 00:04.0 PAOS --set admin_status=1 --set ase=1 --write
err_has "allow_raw_write"
printf 'allow_raw_write=1\n' >>"$TMP/dev/0000:00:04.0"
expect 0 "$FAKE" reg 00:04.0 PAOS --set admin_status=1 --set ase=1 --write -j
json_ok "$TMP/out"
expect 3 "$FAKE" reg 00:04.0 MGIR --write
err_has "REG_READ_ONLY"
printf 'allow_raw_write=0\n' >>"$TMP/dev/0000:00:04.0"
for args in "reg 00:04.0 MGIR" "reg 00:04.0 PTYS --port 1" "reg 00:04.0 mcia" "reg 00:04.0 PPCNT --hex" \
	"reg 00:04.0 0x5003"; do
	# shellcheck disable=SC2086
	expect 0 "$FAKE" $args -j
	json_ok "$TMP/out"
	# shellcheck disable=SC2086
	expect 0 "$FAKE" $args
done
expect 0 "$FAKE" reg 00:04.0 MGIR -j
out_has '"register": "MGIR"'
out_has '"device_id": 4119'
out_has '"extended_major": 16'
out_has '"psid": "4d545f30303030303030303038000000"'
expect 0 "$FAKE" reg 00:04.0 mgir
out_has "register MGIR (0x9020), layout mgir_reg"
out_has "extended_sub_minor"
expect 0 "$FAKE" reg 00:04.0 PTYS --port 1 -j
out_has '"local_port": 1'
out_has '"eth_proto_oper": 1048576'
expect 0 "$FAKE" reg 00:04.0 PTYS --port 1
out_has "eth_proto_capability"
expect 0 "$FAKE" reg 00:04.0 MCIA -j
out_has '"data": "1108'
expect 0 "$FAKE" reg 00:04.0 MCIA --set device_address=148 --set size=16
out_has "CXPRM EMU"
expect 0 "$FAKE" reg 00:04.0 PPCNT -j
out_has '"a_frames_transmitted_ok": '
expect 3 "$FAKE" reg 00:04.0 PTYS --port 2
err_has "REG_BAD_PORT"
expect 3 "$FAKE" reg 00:04.0 0x5002 --len 16
err_has "REG_UNKNOWN"
expect 1 "$FAKE" reg 00:04.0 0x5002;           err_has "not in the table: give --len"
expect 1 "$FAKE" reg 00:04.0 MGIR --port 1;    err_has "not indexed by local_port"
expect 1 "$FAKE" reg 00:04.0 PTYS --set nope=1; err_has "has no field 'nope'"
expect 1 "$FAKE" reg 00:04.0 FROB;             err_has "no register 'FROB'"
# reg --dry-run: no DEV, nothing opened; the ACCESS_REG as it would be posted
# (PTYS: 16 + 64 bytes in, one input mailbox block; READ, local_port 1).
expect 0 "$FAKE" reg PTYS --port 1 --dry-run
out_has "command: ACCESS_REG (0x805), op_mod 0x1"
out_has "lengths: input 80 bytes, output 80 bytes"
out_has "dry run: nothing sent, no device opened"
out_has "  0000: 08050000 00000001 00005004 00000000"
out_has "  0010: 00010004 00000000 00000000 00000000"
expect 0 "$FAKE" reg MGIR --write --dry-run --checksum -j
json_ok "$TMP/out"
out_has '"opcode_name": "ACCESS_REG"'
out_has '"op_mod": 0'
expect 1 "$FAKE" reg PTYS;                      err_has "DEV is required (but with --dry-run)"
expect 1 "$FAKE" reg 00:04.0 PTYS --checksum;   err_has "--checksum goes with --dry-run"
expect 0 "$FAKE" dct create 00:03.0 -j
json_lines_ok "$TMP/out"
expect 3 "$FAKE" dct create 00:03.0 --pd 1 --cqn 2 --srqn 3 -j
json_ok "$TMP/out"
err_has "names an object that does not exist"
# The emulated SSD's I/O queue pair 1 (what 'emuctl nvme-queue 1' prints).
SSD_Q1="--sq-addr 0xf000010000 --cq-addr 0xf000011000 --sq-doorbell 0xf000001008"
# shellcheck disable=SC2086
expect 2 "$FAKE" nvmf setup 00:03.0 $SSD_Q1 -j
err_has "allow_raw_write"
printf 'allow_raw_write=1\n' >>"$TMP/dev/0000:00:03.0"
# shellcheck disable=SC2086
expect 0 "$FAKE" nvmf setup 00:03.0 $SSD_Q1 -j
json_lines_ok "$TMP/out"
expect 1 "$FAKE" nvmf setup 00:03.0 -j
err_has "required"
expect 0 "$FAKE" qp connect 00:03.0 --rgid 10.0.0.2 --rmac 02:00:00:00:00:01 -j
json_lines_ok "$TMP/out"
out_has '"transition": "RTR2RTS", "state": "RTS"'
expect 0 "$FAKE" qp connect 00:03.0
out_has "INIT2RTR -> RTR"
expect 3 "$FAKE" qp connect 00:03.0 --port 2
err_has "syndrome 0xe309000c (emulator QP_BAD_PORT"
expect 0 "$FAKE" bench connect 00:03.0 --count 5 -j
json_ok "$TMP/out"
expect 3 "$FAKE" caps 00:03.0 --type 0x55 -j
json_ok "$TMP/out"
err_has "BAD_PARAM_ERR"
expect 3 "$FAKE" probe 00:03.0 -j
json_ok "$TMP/out"
expect 0 "$FAKE" esw watch 00:03.0 --count 2 --timeout 20 -j
json_lines_ok "$TMP/out"
expect 4 "$FAKE" esw watch 00:03.0 --event DCT_DRAINED --count 1 --timeout 0.2 -j
err_has "timed out"
expect 2 "$FAKE" esw watch 00:04.0 --count 1 --timeout 0.2 -j
err_has "not an ECPF eswitch manager"
expect 2 "$FAKE" esw functions 00:04.0
err_has "not an ECPF eswitch manager"
expect 0 "$FAKE" dct create 00:03.0 --then query,drain,wait,destroy -j
json_lines_ok "$TMP/out"
checks=$((checks + 1))
printf 'create\nquery last\ndrain last\nwait last\ndestroy last\n' |
	"$FAKE" dct session 00:03.0 -j >"$TMP/out" 2>"$TMP/err" || fail "dct session: $(cat "$TMP/err")"
json_lines_ok "$TMP/out"
# its PD, CQ and SRQ: created before, destroyed after
[ "$(wc -l <"$TMP/out")" = 11 ] || fail "dct session: $(wc -l <"$TMP/out") lines, want 11"

# A DCT held by one process (--keep-open) and released by SIGINT.
checks=$((checks + 1))
"$FAKE" dct create 00:03.0 --keep-open -j >"$TMP/hold.out" 2>"$TMP/hold.err" &
pid=$!
for _ in $(seq 400); do grep -q '"op": "create"' "$TMP/hold.out" && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 0 ] || fail "dct create --keep-open: exit $rc after SIGINT"
grep -q '"op": "create"' "$TMP/hold.out" || fail "dct create --keep-open printed no create line"

# Probes are diffable: two runs, same JSON.
"$FAKE" probe 00:03.0 --xrq 0x80 -j >"$TMP/p1" 2>/dev/null
"$FAKE" probe 00:03.0 --xrq 0x80 -j >"$TMP/p2" 2>/dev/null
checks=$((checks + 1))
diff -u "$TMP/p1" "$TMP/p2" >/dev/null || fail "probe JSON differs between two runs"
# ... and a raw output saved by one command decodes offline.
python3 - "$TMP/p1" >"$TMP/caps.hex" <<'PY' 2>/dev/null || true
import json, sys
p = json.load(open(sys.argv[1]))
print("\n".join(p["commands"][2]["output"]))
PY
if [ -s "$TMP/caps.hex" ]; then
	expect 0 "$CXPRM" decode --opcode QUERY_HCA_CAP --op-mod 1 --out "@$TMP/caps.hex" -j
	out_has '"log_max_qp": 20'
fi

rm -rf "$TMP"
echo "cli_test.sh: $checks checks, $fails failures"
[ $fails = 0 ]
