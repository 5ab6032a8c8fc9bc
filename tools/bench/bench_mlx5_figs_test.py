#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""CTest bench_mlx5_figs: figures 2 and 4 of bench-mlx5.sh on made-up input.

Figure 2 (bench_mlx5_soft.py): a bind's traced calls paired one for one
with its per-command samples, software = whole - sample, per row and all
together, the ratio cxprm/mlx5_core; a bind with a call too many is not
paired; the ioctl row pairs the last calls with the last commands.
Figure 4 (bench_mlx5_pages.py): the gap before each GIVE over its
pages, the TAKEs' gaps summed over their pages; junk lines ignored.
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_mlx5_pages as pages  # noqa: E402
import bench_mlx5_soft as soft  # noqa: E402
from bench_test_files import text_files  # noqa: E402

GUEST = """\
MLX5-BENCH: traced mlx5_cmd_do _ZN5cxprm4Cmdq4execERKNS_9MsgSource
MLX5-BENCH: whole cxprm 1 5000
MLX5-BENCH: whole cxprm 1 9000
MLX5-BENCH: whole cxprm 1 bogus
MLX5-BENCH: whole mlx5_core 1 12000
MLX5-BENCH: whole mlx5_core 1 30000
MLX5-BENCH: whole mlx5_core 2 1000
MLX5-BENCH: range cxprm 1 1 3
MLX5-BENCH: urange cxprm 1 4 6
MLX5-BENCH: range mlx5_core 1 7 9
MLX5-BENCH: urange mlx5_core 1 10 13
MLX5-BENCH: urange mlx5_core 2 x 13
MLX5-BENCH: ioctl-whole 50000
MLX5-BENCH: ioctl-whole 7000
MLX5-BENCH: ioctl-whole 9000
MLX5-BENCH: ioctl-whole nine
MLX5-BENCH: ioctl-cmd QUERY_PAGES 2000
MLX5-BENCH: ioctl-cmd QUERY_PAGES 4000
MLX5-BENCH: ioctl-cmd QUERY_PAGES
"""
T = ("seq={} t=0.000000 slot=0 op={}(0x108) op_mod={} in=16 out=16 fn=0 ec=0 delivery=0x0 status=0x0 "
     "syndrome=0x0 {}seen={} answer_ns={}\n")
TRACE = "".join(T.format(n, op, mod, f"pages={p} " if p is not None else "", seen, ans)
                for n, op, mod, p, seen, ans in (
    (1, "QUERY_PAGES", "0x2", 4096, "1.000000000", 1000),     # answered at 1.000001
    (2, "MANAGE_PAGES", "0x1", 4096, "1.004097000", 9000),  # 4.096 ms later: 1000 ns/page
    (3, "INIT_HCA", "0x0", None, "1.100000000", 1000),
    (4, "TEARDOWN_HCA", "0x0", None, "2.000000000", 1000),
    (5, "MANAGE_PAGES", "0x2", 4096, "2.001000000", 1000),  # answered at 2.001001
    (6, "DISABLE_HCA", "0x0", None, "2.003049000", 1000),   # 2.048 ms: 500 ns/page
    (7, "QUERY_PAGES", "0x2", 4096, "3.000000000", 1000),
    (8, "MANAGE_PAGES", "0x1", 4096, "3.008193000", 9000),  # 8.192 ms: 2000 ns/page
    (9, "INIT_HCA", "0x0", None, "3.100000000", 1000),
    (10, "MANAGE_PAGES", "0x2", 2048, "4.000000000", 1000),  # 1.024 ms to the next
    (11, "MANAGE_PAGES", "0x2", 2048, "4.001025000", 1000),  # 2.048 ms to the next: 3.072 ms / 4096
    (12, "DISABLE_HCA", "0x0", None, "4.003074000", 1000),
    (13, "MANAGE_PAGES", "0x2", 0, "4.100000000", 1000),     # nothing returned: not counted
)) + "seq=junk op=\nseq=14 op=MANAGE_PAGES(0x108) op_mod=0xzz\n"


def row_name(ops):
    return ops[-1]


def check(what, got, want, bad):
    if got != want:
        print(f"{what}: got {got!r}, want {want!r}")
        bad.append(what)


def main():
    bad = []
    with text_files(GUEST, TRACE) as files:
        whole, traced = soft.parse(files[0])
        trace = pages.parse_trace(files[1])
        binds = pages.parse_ranges(files[0], "range")
        unbinds = pages.parse_ranges(files[0], "urange")
        ioctl = soft.parse_ioctl(files[0])
    check("traced", traced, "mlx5_cmd_do _ZN5cxprm4Cmdq4execERKNS_9MsgSource", bad)
    check("whole cxprm", whole[("cxprm", "1")], [5000, 9000], bad)
    ordered = {("cxprm", "1"): [("QUERY_ISSI", 2000), ("SET_ISSI", 3000)],
               ("mlx5_core", "1"): [("QUERY_ISSI", 2000), ("SET_ISSI", 4000)],
               ("mlx5_core", "2"): [("QUERY_ISSI", 2000), ("SET_ISSI", 4000)]}   # one call for two samples
    table, paired, binds_n = soft.software(ordered, whole, row_name, ("cxprm", "mlx5_core"))
    check("paired", dict(paired), {"cxprm": 1, "mlx5_core": 1}, bad)
    check("binds", dict(binds_n), {"cxprm": 2 - 1, "mlx5_core": 2}, bad)
    check("soft cxprm QUERY_ISSI", table["QUERY_ISSI"]["cxprm"], ([5000], [3000]), bad)
    check("soft mlx5 SET_ISSI", table["SET_ISSI"]["mlx5_core"], ([30000], [26000]), bad)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        r, _ = soft.print_figure(ordered, whole, traced, row_name, ["QUERY_ISSI", "SET_ISSI"],
                                 ("cxprm", "mlx5_core"))
    # all of them: cxprm 3 and 6 us (median, nearest rank: 3), mlx5_core 10 and 26 (10): 0.30
    check("soft ratio", round(r, 2), 0.30, bad)
    check("soft row", next(x for x in out.getvalue().splitlines() if x.startswith("SET_ISSI")).split(),
          ["SET_ISSI", "1", "9.0", "6.0", "6.0", "1", "30.0", "26.0", "26.0", "0.23"], bad)
    # the ioctl row: the last 2 calls with the 2 commands (7-2, 9-4 us), against mlx5_core's
    # QUERY_ISSI rows' software (10 us)
    iw, ic = ioctl
    check("ioctl pairs", soft.ioctl_software(iw, ic), {"QUERY_PAGES": ([7000, 9000], [5000, 5000])}, bad)
    with contextlib.redirect_stdout(io.StringIO()):
        got = soft.print_ioctl(iw, [("QUERY_ISSI", 2000), ("QUERY_ISSI", 4000)], table, ("cxprm", "mlx5_core"))
        none = soft.print_ioctl([], [], table, ("cxprm", "mlx5_core"))
    check("ioctl ratio", {k: round(v, 2) for k, v in got.items()}, {"QUERY_ISSI": 0.5}, bad)
    check("no ioctl row", none, {}, bad)
    check("trace records", len(trace), 13, bad)
    t = pages.table(trace, binds, unbinds, ("cxprm", "mlx5_core"))
    check("give cxprm", t["give boot"]["cxprm"][3], 1000.0, bad)
    check("give mlx5", t["give boot"]["mlx5_core"][3], 2000.0, bad)
    check("reclaim cxprm", t["reclaim"]["cxprm"][1:4], (4096, 2.048, 500.0), bad)
    check("reclaim mlx5", t["reclaim"]["mlx5_core"][3], 750.0, bad)
    check("reclaim mlx5 note", t["reclaim"]["mlx5_core"][4], "2 TAKEs, then DISABLE_HCA", bad)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ratios = pages.print_figure(trace, binds, unbinds, ("cxprm", "mlx5_core"))
    check("ratios", {k: round(v, 2) for k, v in ratios.items()}, {"give boot": 0.5, "reclaim": 0.67}, bad)
    # nothing at all: no crash, no rows
    with contextlib.redirect_stdout(io.StringIO()):
        pages.print_figure({}, {}, {}, ("cxprm", "mlx5_core"))
        soft.print_figure({}, {}, None, row_name, ["X"], ("cxprm", "mlx5_core"))
    if bad:
        print(out.getvalue())
        sys.exit(1)
    print("bench_mlx5_figs: ok")


if __name__ == "__main__":
    main()
