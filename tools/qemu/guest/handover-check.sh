#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of tools/qemu/run-mlx5.sh --handover (`make
# check-handover`): Linux's mlx5_core holds the emulated ConnectX; `cxprm
# bind` takes it (driver_override), cxprm answers a query, `cxprm unbind
# --restore` gives it back to mlx5_core, which binds again.
# Prints "HANDOVER: ..." lines; the last is "HANDOVER: OK" when all held.
bdf=${CXPRM_BDF:?no ivshmem device}
drv_of() { basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2>/dev/null)" 2>/dev/null; }
fail() { echo "HANDOVER: FAIL: $*"; dmesg | tail -n 30; exit 1; }

mlx5-bind "$bdf" >/dev/null || fail "mlx5-bind"
[ "$(drv_of)" = mlx5_core ] || fail "mlx5_core does not hold $bdf"
insmod /cxprm/cxprm.ko || fail "insmod cxprm.ko"
/cxprm/cxprm bind "$bdf" || fail "cxprm bind"
[ "$(drv_of)" = cxprm ] || fail "driver after bind: $(drv_of)"
echo "HANDOVER: bound to $(drv_of)"
/cxprm/cxprm list || fail "cxprm list"
/cxprm/cxprm info "$bdf" >/dev/null || fail "cxprm info"
/cxprm/cxprm caps "$bdf" >/dev/null || fail "cxprm caps (QUERY_HCA_CAP)"
echo "HANDOVER: cxprm answered"
/cxprm/cxprm bind "$bdf" | grep -q 'already bound' || fail "second bind"
/cxprm/cxprm unbind "$bdf" --restore || fail "cxprm unbind --restore"
sleep 1
[ "$(drv_of)" = mlx5_core ] || fail "driver after unbind --restore: $(drv_of)"
[ -e "/dev/cxprm/$bdf" ] && fail "/dev/cxprm/$bdf still there"
echo "HANDOVER: given back to $(drv_of)"
mlx5-unbind "$bdf" >/dev/null || fail "mlx5-unbind"
rmmod cxprm || fail "rmmod cxprm"
echo "HANDOVER: OK"
