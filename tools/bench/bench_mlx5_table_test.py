#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""CTest bench_mlx5_table: bench_mlx5_table.py on made-up guest output.

Medians over the rounds, per-command figures from the drivers' counts and
averages, time per page, the ratio cxprm/mlx5_core on each row, a failed
round left out and named.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = """\
[emulator] noise that is not ours
MLX5-BENCH: perf Performance Events: PMU not available due to virtualization, using software events only.
MLX5-BENCH: bind cxprm-poll 1 100000 15 4128
MLX5-BENCH: lat cxprm-poll 1 QUERY_HCA_CAP 3 100000
MLX5-BENCH: lat cxprm-poll 1 QUERY_PAGES 2 50000
MLX5-BENCH: lat cxprm-poll 1 MANAGE_PAGES 2 1032000
MLX5-BENCH: lat cxprm-poll 1 ioctl-QUERY_HCA_CAP 10 300000
MLX5-BENCH: unbind cxprm-poll 1 50000 10 0
MLX5-BENCH: bind cxprm-events 1 90000 15 4128
MLX5-BENCH: lat cxprm-events 1 QUERY_HCA_CAP 3 100000
MLX5-BENCH: lat cxprm-events 1 QUERY_PAGES 2 50000
MLX5-BENCH: lat cxprm-events 1 MANAGE_PAGES 2 1032000
MLX5-BENCH: unbind cxprm-events 1 40000 10 0
MLX5-BENCH: bind mlx5_core 1 400000 53 4128
MLX5-BENCH: lat mlx5_core 1 QUERY_HCA_CAP 30 400000
MLX5-BENCH: lat mlx5_core 1 QUERY_PAGES 2 100000
MLX5-BENCH: lat mlx5_core 1 MANAGE_PAGES 2 2064000
MLX5-BENCH: unbind mlx5_core 1 1000000 14 0
MLX5-BENCH: bind cxprm-poll 2 300000 15 4128
MLX5-BENCH: lat cxprm-poll 2 QUERY_HCA_CAP 3 300000
MLX5-BENCH: lat cxprm-poll 2 QUERY_PAGES 2 70000
MLX5-BENCH: lat cxprm-poll 2 MANAGE_PAGES 2 1032000
MLX5-BENCH: unbind cxprm-poll 2 50000 10 0
MLX5-BENCH: bind cxprm-events 2 90000 15 4128
MLX5-BENCH: unbind cxprm-events 2 40000 10 0
MLX5-BENCH: failed mlx5_core 2 did not bind: ENABLE_HCA(0x104) timeout
MLX5-BENCH: bind cxprm-poll 3 200000 15 4128
MLX5-BENCH: lat cxprm-poll 3 QUERY_HCA_CAP 3 200000
MLX5-BENCH: unbind cxprm-poll 3 50000 10 0
"""


def row(text, label):
    for line in text.splitlines():
        if line.startswith(label):
            return line[len(label):].split()
    sys.exit(f"no row {label!r} in:\n{text}")


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(SAMPLE)
    try:
        out = subprocess.run([sys.executable, os.path.join(HERE, "bench_mlx5_table.py"), f.name, "3", "7"],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    want = {
        # cxprm poll: median of 100, 300, 200 ms; events 90; mlx5_core 400 (round 2 failed)
        "bring-up (bind->ready), ms": ["200.0", "90.0", "400.0", "cxprm/mlx5_core:", "0.50", "0.23"],
        "bring-up (bind->ready), us/command": ["13333", "6000", "7547", "cxprm/mlx5_core:", "1.77", "0.79"],
        "QUERY_HCA_CAP, us/command": ["200.0", "100.0", "400.0", "cxprm/mlx5_core:", "0.50", "0.25"],
        "QUERY_PAGES, us/command": ["60.0", "50.0", "100.0", "cxprm/mlx5_core:", "0.60", "0.50"],
        # 2 x 1032 us over 4128 pages = 0.5 us a page; mlx5_core 1.0
        "page giving, us/page": ["0.50", "0.50", "1.00", "cxprm/mlx5_core:", "0.50", "0.50"],
        "QUERY_HCA_CAP by ioctl, us/command": ["300.0", "-", "-", "cxprm/mlx5_core:", "nan", "nan"],
    }
    bad = 0
    for label, cells in want.items():
        got = row(out, label)
        if got != cells:
            print(f"{label}: got {got}, want {cells}")
            bad += 1
    for needle in ("round left out: mlx5_core 2 did not bind", "PMU not available", "took 7 s"):
        if needle not in out:
            print(f"missing: {needle}")
            bad += 1
    if bad:
        print(out)
        sys.exit(1)
    print("bench_mlx5_table: ok")


if __name__ == "__main__":
    main()
