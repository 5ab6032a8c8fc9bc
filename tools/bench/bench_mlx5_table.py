#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The side-by-side table of tools/bench/bench-mlx5.sh.

    bench_mlx5_table.py GUEST_OUTPUT ROUNDS SECONDS

GUEST_OUTPUT holds the "MLX5-BENCH: ..." lines of tools/qemu/guest/mlx5-bench.sh:
    bind|unbind DRIVER ROUND US COMMANDS PAGES
    lat DRIVER ROUND NAME N AVG_NS  (NAME ioctl-QUERY_HCA_CAP: cxprm after the bring-up)
    failed DRIVER ROUND WHY
    perf TEXT
Prints one row per figure: cxprm (poll), cxprm (events), mlx5_core, and the
ratios cxprm/mlx5_core; every figure is the median over the rounds.
"""
import sys
from collections import defaultdict
from statistics import median

DRIVERS = ("cxprm-poll", "cxprm-events", "mlx5_core")
OPS = ("QUERY_HCA_CAP", "QUERY_PAGES", "MANAGE_PAGES")
NAN = float("nan")


def parse(path):
    phases = defaultdict(dict)  # (phase, driver) -> {round: (us, commands, pages)}
    lat = defaultdict(dict)     # (driver, op) -> {round: (n, avg ns)}
    perf, failed = [], []
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) < 2 or f[0] != "MLX5-BENCH:":
            continue
        if f[1] in ("bind", "unbind") and len(f) == 7:
            phases[(f[1], f[2])][f[3]] = tuple(int(x) for x in f[4:7])
        elif f[1] == "lat" and len(f) == 7:
            lat[(f[2], f[4])][f[3]] = (int(f[5]), int(f[6]))
        elif f[1] == "failed":
            failed.append(" ".join(f[2:]))
        elif f[1] == "perf":
            perf.append(" ".join(f[2:]))
    return phases, lat, perf, failed


def med(v):
    v = [x for x in v if x == x]
    return median(v) if v else NAN


def ratio(a, b):
    return a / b if b and a == a and b == b else NAN


def rows(phases, lat):
    def phase(p, d, k):  # ms, commands, us per command
        return med([(x[0] / 1000, x[1], x[0] / x[1] if x[1] else NAN)[k]
                    for x in phases[(p, d)].values()])

    def op(d, o, k):     # us per command, commands per bind
        return med([(a / 1000 if n else NAN, n)[k] for n, a in lat[(d, o)].values()])

    def per_page(d):     # MANAGE_PAGES time at the bind / pages given
        b = phases[("bind", d)]
        return med([n * a / 1000 / b[r][2] for r, (n, a) in lat[(d, "MANAGE_PAGES")].items()
                    if r in b and b[r][2]])

    out = []
    for p, what in (("bind", "bring-up (bind->ready)"), ("unbind", "teardown (unbind)")):
        out.append((f"{what}, ms", [phase(p, d, 0) for d in DRIVERS], "%.1f"))
        out.append((f"{what}, commands", [phase(p, d, 1) for d in DRIVERS], "%.0f"))
        out.append((f"{what}, us/command", [phase(p, d, 2) for d in DRIVERS], "%.0f"))
    for o in OPS:
        out.append((f"{o}, us/command", [op(d, o, 0) for d in DRIVERS], "%.1f"))
        out.append((f"{o}, commands/bind", [op(d, o, 1) for d in DRIVERS], "%.0f"))
    out.append(("QUERY_HCA_CAP by ioctl, us/command", [op(d, "ioctl-QUERY_HCA_CAP", 0) for d in DRIVERS], "%.1f"))
    out.append(("boot+init pages given/bind",
                [med([x[2] for x in phases[("bind", d)].values()]) for d in DRIVERS], "%.0f"))
    out.append(("page giving, us/page", [per_page(d) for d in DRIVERS], "%.2f"))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    phases, lat, perf, failed = parse(sys.argv[1])
    for d in DRIVERS:
        for p in ("bind", "unbind"):
            if not phases[(p, d)]:
                sys.exit(f"bench_mlx5_table: no {p} figures for {d} in {sys.argv[1]}")
    print()
    print("side by side with mlx5_core: Linux 6.1 mlx5_core (Debian, unmodified) and cxprm.ko in one")
    print(f"QEMU guest (TCG, MSI-X), one cxprm-emud; {sys.argv[2]} rounds of sysfs bind + unbind each,")
    print("medians.  Latency: each driver's own statistics, doorbell to completion seen (cxprm debugfs")
    print("cmd_stats, mlx5_core debugfs commands/<NAME>/average); commands, pages: the emulator's counters.")
    print(f"{'':34} {'cxprm poll':>10} {'cxprm events':>12} {'mlx5_core':>10}   cxprm/mlx5_core: poll events")
    for label, v, fmt in rows(phases, lat):
        cells = [fmt % x if x == x else "-" for x in v]
        print(f"{label:34} {cells[0]:>10} {cells[1]:>12} {cells[2]:>10}   cxprm/mlx5_core: "
              f"{ratio(v[0], v[2]):4.2f} {ratio(v[1], v[2]):6.2f}")
    print("instructions per command in the guest: " +
          (perf[0] + " (TCG): no instruction counts" if perf else "no PMU line in the guest's dmesg"))
    for f in failed:
        print(f"round left out: {f}")
    print(f"(this part took {sys.argv[3]} s: one guest boot)")


if __name__ == "__main__":
    main()
