# SPDX-License-Identifier: GPL-2.0
"""Figure 2 of tools/bench/bench-mlx5.sh: software time per command.

The guest (tools/qemu/guest/mlx5-bench.sh) traces, with ftrace
function_graph, the one function every command of a bind goes through:
mlx5_core's mlx5_cmd_do and cxprm's Cmdq::exec (the core's entry, with
exec_split and exec_reserved), and
prints one line per traced call of a bind, in order:
    MLX5-BENCH: whole DRIVER ROUND NS
    MLX5-BENCH: traced FUNCTION...   (or "traced none: WHY")
and, for the ioctl row, cxprm's ioctl handler traced while
cxprm-bench-ioctl runs (its last calls and last_cmds' commands, in order):
    MLX5-BENCH: ioctl-whole NS
    MLX5-BENCH: ioctl-cmd OPCODE NS
A bind's calls are paired one for one with its per-command samples of
figure 1 (the driver's doorbell to completion seen, "cmd" lines, in
order) when there are as many of each; software = whole - that sample.
"""
from collections import defaultdict

from bench_stats import NAN, fmt, pct, ratio

GOAL = 0.5   # issue 33: cxprm's software time at most half of mlx5_core's


def parse(path):
    """((driver, round) -> [whole ns in order], the "traced" text or None)."""
    whole = defaultdict(list)
    traced = None
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) < 2 or f[0] != "MLX5-BENCH:":
            continue
        if f[1] == "whole" and len(f) == 5 and f[4].isdigit():
            whole[(f[2], f[3])].append(int(f[4]))
        elif f[1] == "traced":
            traced = " ".join(f[2:])
    return whole, traced


def parse_ioctl(path):
    """([whole ns of the ioctl calls], [(opcode, device ns)] of last_cmds), in order."""
    whole, cmds = [], []
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) == 3 and f[:2] == ["MLX5-BENCH:", "ioctl-whole"] and f[2].isdigit():
            whole.append(int(f[2]))
        elif len(f) == 4 and f[:2] == ["MLX5-BENCH:", "ioctl-cmd"] and f[3].isdigit():
            cmds.append((f[2], int(f[3])))
    return whole, cmds


def ioctl_software(whole, cmds):
    """opcode -> ([whole ns], [software ns]): the last calls paired with the
    last commands, as many as both have (each ioctl sends one command)."""
    n = min(len(whole), len(cmds))
    out = {}
    for w, (op, dev) in zip(whole[len(whole) - n:], cmds[len(cmds) - n:]):
        cell = out.setdefault(op, ([], []))
        cell[0].append(w)
        cell[1].append(w - dev)
    return out


def print_ioctl(whole, cmds, table, drivers):
    """The ioctl row(s): cxprm through its ioctl against mlx5_core's same
    opcode in the binds (its rows of that opcode together)."""
    rows = ioctl_software(whole, cmds)
    if not rows:
        print("   (no ioctl row: no cxprm-bench-ioctl in the guest, or nothing traced)")
        return {}
    print(f"   the same through cxprm's ioctl: cxprm_ioctl traced around cxprm-bench-ioctl, its last"
          f" {min(len(whole), len(cmds))} calls paired with last_cmds:")
    ratios = {}
    for op, (w, s) in sorted(rows.items()):
        ref = [x for name, cell in table.items() if name.split()[0] == op for x in cell[drivers[1]][1]]
        rw = [x for name, cell in table.items() if name.split()[0] == op for x in cell[drivers[1]][0]]
        c, m = pct(s, 50) / 1000, pct(ref, 50) / 1000
        ratios[op] = ratio(c, m)
        print(f"{op + ' ioctl':18} {len(s):7d} {fmt(pct(w, 50) / 1000):>7} {fmt(c):>6} {fmt(pct(s, 99) / 1000):>7}"
              f"   {len(ref):6d} {fmt(pct(rw, 50) / 1000):>7} {fmt(m):>6} {fmt(pct(ref, 99) / 1000):>7}"
              f"   {fmt(ratios[op], '%.2f'):>10}")
    return ratios


def software(ordered, whole, row_name, drivers):
    """Pair each bind's traced calls with its samples.  Returns
    (row -> driver -> ([whole ns], [software ns]), driver -> binds paired,
    driver -> binds with samples)."""
    out = defaultdict(lambda: defaultdict(lambda: ([], [])))
    paired, binds = defaultdict(int), defaultdict(int)
    for (d, r), mine in ordered.items():
        if d not in drivers:
            continue
        binds[d] += 1
        w = whole.get((d, r), [])
        if len(w) != len(mine) or not w:
            continue
        paired[d] += 1
        ops = []
        for (op, dev), ns in zip(mine, w):
            ops.append(op)
            cell = out[row_name(ops)][d]
            cell[0].append(ns)
            cell[1].append(ns - dev)
    return out, paired, binds


def print_figure(ordered, whole, traced, row_name, rows, drivers):
    """Figure 2 for the opcodes `rows` (figure 1's), both drivers."""
    table, paired, binds = software(ordered, whole, row_name, drivers)
    print("2. software time per command, us: the caller's whole call (ftrace function_graph on mlx5_core's")
    print("   mlx5_cmd_do and cxprm's Cmdq::exec, exec_split, exec_reserved, the core's entries) less the driver's own")
    print("   doorbell to completion seen (figure 1) for the same command: median and p99; binds whose calls")
    print("   pair one for one with their samples: " + ", ".join(f"{d} {paired[d]} of {binds[d]}" for d in drivers) +
          "; traced: " + (traced or "nothing"))
    print(f"{'opcode':18} {'cxprm n':>7} {'whole':>7} {'soft':>6} {'p99':>7}"
          f"   {'mlx5 n':>6} {'whole':>7} {'soft':>6} {'p99':>7}   {'cxprm/mlx5':>10} (goal <= {GOAL:.2f})")
    every = defaultdict(list)
    for o in rows:
        cells = []
        for d in drivers:
            w, s = table[o][d] if o in table and d in table[o] else ([], [])
            every[d] += s
            cells.append((len(s), pct(w, 50) / 1000, pct(s, 50) / 1000, pct(s, 99) / 1000))
        (cn, cw, cs, c9), (mn, mw, ms, m9) = cells
        print(f"{o:18} {cn:7d} {fmt(cw):>7} {fmt(cs):>6} {fmt(c9):>7}"
              f"   {mn:6d} {fmt(mw):>7} {fmt(ms):>6} {fmt(m9):>7}   {fmt(ratio(cs, ms), '%.2f'):>10}")
    (cn, c, c9), (mn, m, m9) = ((len(every[d]), pct(every[d], 50) / 1000, pct(every[d], 99) / 1000) for d in drivers)
    print(f"{'all of them':18} {cn:7d} {'':>7} {fmt(c):>6} {fmt(c9):>7}"
          f"   {mn:6d} {'':>7} {fmt(m):>6} {fmt(m9):>7}   {fmt(ratio(c, m), '%.2f'):>10}")
    return (ratio(c, m) if c == c else NAN), table
