#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Figure 6 of make bench: connection setup at the firmware's rate.

Runs `cxprm bench connect DEV --count N --batch B -j` from one process on
the CLI's fake device (cxprm-fake: the core and the firmware emulator
in-process) with the firmware latency model on, K engines and the given
service times, once at the seed's times (RC 5+2+3+2 = 12 us a connection,
DCT 4 us) and once at ten times them, and prints per path and mode the
rate, the batch's speedup over serial (same run), the model's bound
K / (service time of a connection) and the ratio to it.

usage: bench_connect.py CXPRM_FAKE WORKDIR [COUNT] [BATCH[,BATCH...]]

With several batch sizes, the serial rows are run with the first and the
batch rows once per size (B), each batch's speedup against that serial.
"""
import json
import os
import subprocess
import sys

ENGINES = 4
# The seed's per-command service times (us): one definition for the
# fake device's model and for the bound.
SEED = {"CREATE_QP": 5, "RST2INIT_QP": 2, "INIT2RTR_QP": 3, "RTR2RTS_QP": 2, "CREATE_DCT": 4}
PATH_OPS = {"RC QP": ["CREATE_QP", "RST2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP"], "DCT": ["CREATE_DCT"]}


def run(fake, workdir, bdf, scale, count, batch, mode="both"):
    os.makedirs(workdir, exist_ok=True)
    lines = ["cxprm-fake", "profile=connectx7", "fw_latency=1", f"fw_engines={ENGINES}"]
    lines += [f"fw_latency_us={op}={us * scale}" for op, us in SEED.items()]
    with open(os.path.join(workdir, bdf), "w") as f:
        f.write("\n".join(lines) + "\n")
    env = dict(os.environ, CXPRM_DEV_DIR=workdir)
    out = subprocess.run([fake, "bench", "connect", bdf, "--count", str(count), "--batch", str(batch),
                          "--mode", mode, "-j"],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    fake, workdir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    batches = [int(b) for b in sys.argv[4].split(",")] if len(sys.argv) > 4 else [16]
    print(f"figure 6: connection setup from one process, cxprm bench connect --count {count}"
          f" --batch {'/'.join(map(str, batches))}"
          f" (cxprm-fake: core and emulator in-process, latency model K = {ENGINES}, {os.cpu_count()} CPUs)")
    print(f"{'model':14} {'path':6} {'mode':6} {'B':>3} {'conn/s':>9} {'xserial':>8} {'bound/s':>9} {'ratio':>6}"
          f" {'fw p50 us':>9}")
    for name, scale, bdf in (("seed 12/4 us", 1, "0000:00:06.0"), ("x10 120/40 us", 10, "0000:00:07.0")):
        rows, serial = [], {}
        for k, batch in enumerate(batches):
            for r in run(fake, workdir, bdf, scale, count, batch, "both" if k == 0 else "batch")["rows"]:
                if r["mode"] == "serial":
                    serial[r["path"]] = r["per_second"]
                rows.append((batch, r))
        for batch, r in sorted(rows, key=lambda br: (br[1]["path"], br[1]["mode"] == "batch", br[0])):
            service_us = sum(SEED[op] for op in PATH_OPS[r["path"]]) * scale
            # Serial: one command at a time, 1 / service; batch: K engines.
            batched = r["mode"] == "batch"
            bound = (ENGINES if batched else 1) * 1e6 / service_us
            sp = f"{r['per_second'] / serial[r['path']]:.2f}" if batched and serial.get(r["path"]) else "-"
            print(f"{name:14} {r['path']:6} {r['mode']:6} {(batch if batched else '-'):>3} {r['per_second']:9d}"
                  f" {sp:>8} {bound:9.0f} {r['per_second'] / bound:6.3f}"
                  f" {r['fw_ns']['p50'] / 1000:9.1f}")


if __name__ == "__main__":
    main()
