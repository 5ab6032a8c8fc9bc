#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The side-by-side tables of tools/bench/bench-mlx5.sh.

    bench_mlx5_table.py GUEST_OUTPUT TRACE ROUNDS SECONDS

GUEST_OUTPUT holds the "MLX5-BENCH: ..." lines of tools/qemu/guest/mlx5-bench.sh:
    bind|unbind DRIVER ROUND US COMMANDS PAGES
    range DRIVER ROUND FIRST LAST   (the bind's commands: the trace's seq FIRST..LAST)
    urange DRIVER ROUND FIRST LAST  (the unbind's)
    whole DRIVER ROUND NS           (one traced call of the bind: bench_mlx5_soft.py)
    ioctl-whole NS, ioctl-cmd NAME NS  (cxprm's ioctl path: bench_mlx5_soft.py)
    cmd DRIVER ROUND NAME NS        (one command of the bind, the driver's own time)
    inithca DRIVER ROUND US         (the bind's mark to INIT_HCA done, printk clock)
and cxprm-emud's "ready:" line ("... (N ms after a queue address)": the window).
    failed DRIVER ROUND WHY
    perf TEXT
TRACE is cxprm-emud's --trace file (tools/emulator/daemon/README.md, "Trace").
Prints, for the binds of both drivers:
 1. per opcode, doorbell to completion seen: each driver's per-command
    samples (median, p99) and, as the reference, the emulator's own
    doorbell-seen to answered time (answer_ns) for the same commands, and
    "own": each sample less the emulator's time for that very command
    (a bind's samples paired with its trace records in order);
 2. software time per command, both drivers (bench_mlx5_soft.py);
 4. the driver's time per firmware page given and reclaimed (bench_mlx5_pages.py);
 5. time to INIT_HCA minus the 'initializing' window: from the bind (guest
    printk clock) less the window, and in the emulator's clock from its
    first command's doorbell seen to INIT_HCA answered, with the command
    counts; then the whole bind, which is different work.
"""
import re
import sys
from collections import defaultdict

import bench_mlx5_pages
import bench_mlx5_soft
from bench_stats import NAN, fmt, med, pct

DRIVERS = ("cxprm", "mlx5_core")
WINDOW = re.compile(r"cxprm-emud: ready: .*\((\d+) ms after a queue address\)")
def row_name(ops):
    """The row of the last of a bind's opcodes: QUERY_PAGES and MANAGE_PAGES
    split into boot and init (their first and second in a bind; later ones
    "regular")."""
    op = ops[-1]
    if op not in ("QUERY_PAGES", "MANAGE_PAGES"):
        return op
    k = ops.count(op)
    return f"{op} {('boot', 'init')[k - 1] if k <= 2 else 'regular'}"


def parse(path):
    phases = defaultdict(dict)   # (phase, driver) -> {round: (us, commands, pages)}
    ranges = defaultdict(dict)   # driver -> {round: (first, last)}
    samples = defaultdict(list)  # (driver, row name) -> [ns]
    seen = defaultdict(list)     # (driver, round) -> the bind's opcodes so far
    ordered = defaultdict(list)  # (driver, round) -> the bind's samples in order: (opcode, ns)
    inithca = defaultdict(dict)  # driver -> {round: us}
    perf, failed, window = [], [], NAN
    for line in open(path, errors="replace"):
        f = line.split()
        m = WINDOW.search(line)
        if m:
            window = int(m.group(1))
        if len(f) < 2 or f[0] != "MLX5-BENCH:":
            continue
        if f[1] in ("bind", "unbind") and len(f) == 7:
            phases[(f[1], f[2])][f[3]] = tuple(int(x) for x in f[4:7])
        elif f[1] == "range" and len(f) == 6:
            ranges[f[2]][f[3]] = (int(f[4]), int(f[5]))
        elif f[1] == "cmd" and len(f) == 6:
            ops = seen[(f[2], f[3])]
            ops.append(f[4])
            samples[(f[2], row_name(ops))].append(int(f[5]))
            ordered[(f[2], f[3])].append((f[4], int(f[5])))
        elif f[1] == "inithca" and len(f) == 5:
            inithca[f[2]][f[3]] = int(f[4])
        elif f[1] == "failed":
            failed.append(" ".join(f[2:]))
        elif f[1] == "perf":
            perf.append(" ".join(f[2:]))
    return phases, ranges, (samples, ordered), inithca, window, perf, failed


def parse_trace(path):
    """seq -> (opcode name, doorbell seen ns, answered ns): bench_mlx5_pages' records, less op_mod and pages."""
    return {seq: (op, seen, done) for seq, (op, _mod, _pages, seen, done) in bench_mlx5_pages.parse_trace(path).items()}


def bind_records(trace, ranges, d):
    """round -> the trace records of that bind, in order."""
    return bench_mlx5_pages.records(trace, ranges[d])


def latency_rows(samples, trace, ranges):
    samples, ordered = samples
    emu = defaultdict(list)   # (driver, row) -> emulator's answer ns
    own = defaultdict(list)   # (driver, row) -> the driver's sample less the emulator's answer, same command
    paired = defaultdict(int)  # driver -> binds whose samples pair with the trace
    for d in DRIVERS:
        for r, recs in bind_records(trace, ranges, d).items():
            names = [row_name([x[0] for x in recs[:k + 1]]) for k in range(len(recs))]
            for name, (op, seen, done) in zip(names, recs):
                emu[(d, name)].append(done - seen)
            # The driver's samples are its bind's commands in order: paired
            # with the trace's when the opcodes agree one for one.
            mine = ordered[(d, r)]
            if [x[0] for x in mine] == [x[0] for x in recs]:
                paired[d] += 1
                for name, (op, ns), (_, seen, done) in zip(names, mine, recs):
                    own[(d, name)].append(ns - (done - seen))
    # in the order of cxprm's bring-up (its first bind's)
    ops = [o for (d, o) in list(samples) if d == DRIVERS[0] and (DRIVERS[1], o) in samples]
    rows = []
    for o in ops:
        cells = []
        for d in DRIVERS:
            v, e, w = samples[(d, o)], emu[(d, o)], own[(d, o)]
            cells.append((len(v), pct(v, 50) / 1000, pct(v, 99) / 1000, pct(e, 50) / 1000, pct(e, 99) / 1000,
                          pct(w, 50) / 1000))
        rows.append((o, cells))
    return rows, paired, ops


def init_hca(trace, ranges, d):
    """Per round: (ms from the first command seen to INIT_HCA answered, commands to INIT_HCA)."""
    out = {}
    for r, recs in bind_records(trace, ranges, d).items():
        i = next((k for k, x in enumerate(recs) if x[0] == "INIT_HCA"), None)
        if i is not None:
            out[r] = ((recs[i][2] - recs[0][1]) / 1e6, i + 1, recs[0][0])
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    phases, ranges, samples, inithca, window, perf, failed = parse(sys.argv[1])
    trace = parse_trace(sys.argv[2])
    for d in DRIVERS:
        if not phases[("bind", d)]:
            sys.exit(f"bench_mlx5_table: no bind figures for {d} in {sys.argv[1]}")
    if not trace:
        sys.exit(f"bench_mlx5_table: no trace lines in {sys.argv[2]}")
    rows, paired, ops = latency_rows(samples, trace, ranges)
    print()
    print("side by side with mlx5_core: Linux 6.1 mlx5_core (Debian, unmodified) and cxprm.ko (cmd_mode=poll)")
    print(f"in one QEMU guest (TCG), one cxprm-emud (spinning); {sys.argv[3]} rounds of sysfs bind + unbind each.")
    print("1. doorbell to completion seen, per command of the binds, us: each driver's own samples (cxprm")
    print("   debugfs last_cmds, mlx5_core \"fw exec time\"); emu: the emulator's doorbell seen to answered;")
    print("   own: the driver's time less the emulator's for the same command (median; binds paired with the")
    print("   trace: " + ", ".join(f"{d} {paired[d]} of {len(ranges[d])}" for d in DRIVERS) + ")")
    print(f"{'opcode':18} {'cxprm n':>7} {'median':>7} {'p99':>7} {'emu':>6} {'emu p99':>7} {'own':>5}"
          f"   {'mlx5 n':>6} {'median':>7} {'p99':>7} {'emu':>6} {'emu p99':>7} {'own':>5}   {'cxprm/mlx5':>10}")
    for o, (c, m) in rows:
        r = c[1] / m[1] if m[1] and c[1] == c[1] and m[1] == m[1] else NAN
        print(f"{o:18} {c[0]:7d} {fmt(c[1]):>7} {fmt(c[2]):>7} {fmt(c[3]):>6} {fmt(c[4]):>7} {fmt(c[5]):>5}"
              f"   {m[0]:6d} {fmt(m[1]):>7} {fmt(m[2]):>7} {fmt(m[3]):>6} {fmt(m[4]):>7} {fmt(m[5]):>5}"
              f"   {fmt(r, '%.2f'):>10}")
    if any(o == "ENABLE_HCA" for o, _ in rows):
        print("   ENABLE_HCA: a doorbell rung while 'initializing' is up waits until it clears (the emulator's")
        print("   'in its grace' below): a driver that rang early has the rest of the window in its figure")
    whole, traced = bench_mlx5_soft.parse(sys.argv[1])
    _, soft = bench_mlx5_soft.print_figure(samples[1], whole, traced, row_name, ops, DRIVERS)
    bench_mlx5_soft.print_ioctl(*bench_mlx5_soft.parse_ioctl(sys.argv[1]), soft, DRIVERS)
    bench_mlx5_pages.print_figure(bench_mlx5_pages.parse_trace(sys.argv[2]), ranges,
                                  bench_mlx5_pages.parse_ranges(sys.argv[1], "urange"), DRIVERS)
    print(f"5. time to INIT_HCA minus the 'initializing' window ({fmt(window, '%.0f')} ms), median over the rounds:")
    print("   from the bind (printk: the mark before the sysfs write to the driver's line after INIT_HCA) less")
    print("   the window; and in the emulator's clock, from the first command's doorbell seen (held until the")
    print("   window closed) to INIT_HCA answered, with the commands up to INIT_HCA:")
    for d in DRIVERS:
        v = init_hca(trace, ranges, d)
        g = med([x / 1000 for x in inithca[d].values()])
        ms = med([x[0] for x in v.values()])
        n = med([x[1] for x in v.values()])
        first = sorted({x[2] for x in v.values()})
        print(f"   {d:10} {fmt(g - window, '%.2f'):>7} ms ({fmt(g, '%.2f')} - {fmt(window, '%.0f')}; rounds"
              f" {len(inithca[d])});  emulator {fmt(ms, '%.2f')} ms, {fmt(n, '%.0f')} commands"
              f" (first {'/'.join(first) or '-'}; rounds {len(v)})")
    print("   whole bind (different work: mlx5_core also builds EQs, devlink, aux devices), median:")
    for d in DRIVERS:
        b = phases[("bind", d)].values()
        u = phases[("unbind", d)].values()
        print(f"   {d:10} bind {fmt(med([x[0] / 1000 for x in b]))} ms, {fmt(med([x[1] for x in b]), '%.0f')}"
              f" commands, {fmt(med([x[2] for x in b]), '%.0f')} pages; unbind {fmt(med([x[0] / 1000 for x in u]))}"
              f" ms, {fmt(med([x[1] for x in u]), '%.0f')} commands")
    print("instructions per command in the guest: " +
          (perf[0] + " (TCG): no instruction counts" if perf else "no PMU line in the guest's dmesg"))
    for f in failed:
        print(f"round left out: {f}")
    print(f"(this part took {sys.argv[4]} s: one guest boot)")


if __name__ == "__main__":
    main()
