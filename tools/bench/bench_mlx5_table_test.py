#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""CTest bench_mlx5_table: bench_mlx5_table.py on made-up guest output and trace.

Per opcode both drivers' per-command median and p99, the emulator's
answer time for the same commands (matched by the bind's seq range) and
each sample less the emulator's answer for the same command,
the time to INIT_HCA from the bind less the window (the emulator's ready
line) and in the emulator's clock with the command count, the whole bind
apart, a failed round left out and named.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_test_files import text_files  # noqa: E402

SAMPLE = """\
[emulator] noise that is not ours
[emulator] [   0.001] cxprm-emud: ready: ConnectX-7 (device 0x1021) fw 28.39.1002, init delay 5 ms (20 ms after a queue address), pages boot 32
MLX5-BENCH: inithca cxprm 1 40000
MLX5-BENCH: inithca cxprm 2 50000
MLX5-BENCH: inithca mlx5_core 1 120000
MLX5-BENCH: perf Performance Events: PMU not available due to virtualization, using software events only.
MLX5-BENCH: bind cxprm 1 40000 4 4128
MLX5-BENCH: range cxprm 1 1 6
MLX5-BENCH: cmd cxprm 1 ENABLE_HCA 3000
MLX5-BENCH: cmd cxprm 1 QUERY_HCA_CAP 2000
MLX5-BENCH: cmd cxprm 1 QUERY_HCA_CAP 4000
MLX5-BENCH: cmd cxprm 1 MANAGE_PAGES 7000
MLX5-BENCH: cmd cxprm 1 MANAGE_PAGES 9000
MLX5-BENCH: cmd cxprm 1 INIT_HCA 505000
MLX5-BENCH: unbind cxprm 1 10000 3 0
MLX5-BENCH: bind mlx5_core 1 150000 5 4128
MLX5-BENCH: range mlx5_core 1 8 14
MLX5-BENCH: cmd mlx5_core 1 ENABLE_HCA 3000
MLX5-BENCH: cmd mlx5_core 1 QUERY_HCA_CAP 2000
MLX5-BENCH: cmd mlx5_core 1 QUERY_HCA_CAP 2000
MLX5-BENCH: cmd mlx5_core 1 MANAGE_PAGES 7000
MLX5-BENCH: cmd mlx5_core 1 MANAGE_PAGES 18000
MLX5-BENCH: cmd mlx5_core 1 INIT_HCA 255000
MLX5-BENCH: cmd mlx5_core 1 QUERY_HCA_CAP 8000
MLX5-BENCH: unbind mlx5_core 1 600000 4 0
MLX5-BENCH: bind cxprm 2 60000 4 4128
MLX5-BENCH: unbind cxprm 2 10000 3 0
MLX5-BENCH: failed mlx5_core 2 did not bind: ENABLE_HCA(0x104) timeout
"""
T = "seq={} t=0.000000 slot=0 op={}(0x1) op_mod=0x0 in=16 out=16 fn=- ec=- delivery=0x0 status=0x0 syndrome=0x0 "
TRACE = "".join(T.format(n, op) + f"seen={seen} answer_ns={ans}\n" for n, op, seen, ans in (
    (1, "ENABLE_HCA", "1.000000000", 1000),
    (2, "QUERY_HCA_CAP", "1.001000000", 1000),
    (3, "QUERY_HCA_CAP", "1.002000000", 3000),
    (4, "MANAGE_PAGES", "1.003000000", 6000),
    (5, "MANAGE_PAGES", "1.004000000", 8000),
    (6, "INIT_HCA", "1.010000000", 500000),   # INIT_HCA answered at 1.0105: 10.50 ms, 6 commands
    (7, "TEARDOWN_HCA", "1.100000000", 1000),
    (8, "ENABLE_HCA", "2.000000000", 1000),
    (9, "QUERY_HCA_CAP", "2.001000000", 1000),
    (10, "QUERY_HCA_CAP", "2.002000000", 1000),
    (11, "MANAGE_PAGES", "2.003000000", 6000),
    (12, "MANAGE_PAGES", "2.004000000", 16000),
    (13, "INIT_HCA", "2.020000000", 250000),  # 20.25 ms, 6 commands
    (14, "QUERY_HCA_CAP", "2.030000000", 5000),
))


def row(text, label):
    for line in text.splitlines():
        if line.startswith(label):
            return line[len(label):].split()
    sys.exit(f"no row {label!r} in:\n{text}")


def main():
    with text_files(SAMPLE, TRACE) as files:
        out = subprocess.run([sys.executable, os.path.join(HERE, "bench_mlx5_table.py"), *files, "2", "7"],
                             check=True, capture_output=True, text=True).stdout
    want = {
        # cxprm: 2 samples 2 and 4 us (median: nearest rank, 2.0; p99 4.0), emulator 1.0 and 3.0 us;
        # mlx5_core: 3 samples 2, 2, 8 us, emulator 1, 1, 5 us; ratio of the medians 1.00
        # own: each sample less the emulator's answer for the same command (2-1, 4-3; 2-1, 2-1, 8-5)
        "QUERY_HCA_CAP": ["2", "2.0", "4.0", "1.0", "3.0", "1.0", "3", "2.0", "8.0", "1.0", "5.0", "1.0", "1.00"],
        # the first and second MANAGE_PAGES of a bind: boot and init pages
        "MANAGE_PAGES boot": ["1", "7.0", "7.0", "6.0", "6.0", "1.0", "1", "7.0", "7.0", "6.0", "6.0", "1.0", "1.00"],
        "MANAGE_PAGES init": ["1", "9.0", "9.0", "8.0", "8.0", "1.0", "1", "18.0", "18.0", "16.0", "16.0", "2.0",
                              "0.50"],
        "INIT_HCA": ["1", "505.0", "505.0", "500.0", "500.0", "5.0", "1", "255.0", "255.0", "250.0", "250.0", "5.0",
                     "1.98"],
        # printk: the median of 40 and 50 ms less the 20 ms window; emulator: seq 1 to 6
        "   cxprm ": ["25.00", "ms", "(45.00", "-", "20;", "rounds", "2);", "emulator", "10.50", "ms,", "6",
                      "commands", "(first", "ENABLE_HCA;", "rounds", "1)"],
        "   mlx5_core ": ["100.00", "ms", "(120.00", "-", "20;", "rounds", "1);", "emulator", "20.25", "ms,", "6",
                          "commands", "(first", "ENABLE_HCA;", "rounds", "1)"],
        # the whole bind: cxprm's median of 40 and 60 ms
        "   cxprm      bind": ["50.0", "ms,", "4", "commands,", "4128", "pages;", "unbind", "10.0", "ms,", "3",
                               "commands"],
    }
    bad = 0
    for label, cells in want.items():
        got = row(out, label)
        if got != cells:
            print(f"{label}: got {got}, want {cells}")
            bad += 1
    for needle in ("round left out: mlx5_core 2 did not bind", "PMU not available", "took 7 s",
                   "trace: cxprm 1 of 1, mlx5_core 1 of 1)"):
        if needle not in out:
            print(f"missing: {needle}")
            bad += 1
    if "TEARDOWN_HCA" in out:
        print("TEARDOWN_HCA: not a bind command of both drivers")
        bad += 1
    if bad:
        print(out)
        sys.exit(1)
    print("bench_mlx5_table: ok")


if __name__ == "__main__":
    main()
