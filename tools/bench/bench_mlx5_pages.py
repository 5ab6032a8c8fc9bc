# SPDX-License-Identifier: GPL-2.0
"""Figure 4 of tools/bench/bench-mlx5.sh: the driver's time per firmware page.

From the emulator's trace (tools/emulator/daemon/README.md, "Trace": each
command's doorbell seen and answer time, MANAGE_PAGES' op_mod and pages)
and the guest's seq ranges of each bind ("range") and unbind ("urange"):
 - give: for each MANAGE_PAGES GIVE (op_mod 1) of a bind, the gap from the
   answer of the command before it (QUERY_PAGES) to its doorbell seen, over
   its pages: the driver allocating, mapping and listing the pages;
 - reclaim: for the MANAGE_PAGES TAKEs (op_mod 2) of an unbind, the gaps
   from each one's answer to the next command's doorbell seen, summed, over
   the pages they returned: the driver unmapping and freeing them (the
   last gap also holds whatever the driver does before its next command).
"""
import re
from collections import defaultdict

from bench_stats import fmt, med, ratio

GIVE, TAKE = 1, 2
RECORD = re.compile(r"^seq=(\d+) .* op=([A-Z0-9_]+)\(\S* op_mod=0x([0-9a-fA-F]+) .*?"
                    r"(?: pages=(-?\d+))? seen=(\d+)\.(\d{9}) answer_ns=(\d+)")


def parse_trace(path):
    """seq -> (opcode, op_mod, pages or 0, doorbell seen ns, answered ns)."""
    out = {}
    for line in open(path, errors="replace"):
        m = RECORD.match(line)
        if m:
            seen = int(m.group(5)) * 1000000000 + int(m.group(6))
            out[int(m.group(1))] = (m.group(2), int(m.group(3), 16), int(m.group(4) or 0), seen,
                                    seen + int(m.group(7)))
    return out


def parse_ranges(path, what):
    """driver -> {round: (first, last)} of the guest's `what` lines (range, urange)."""
    out = defaultdict(dict)
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) == 6 and f[0] == "MLX5-BENCH:" and f[1] == what and f[4].isdigit() and f[5].isdigit():
            out[f[2]][f[3]] = (int(f[4]), int(f[5]))
    return out


def records(trace, ranges):
    """round -> that range's trace records in order."""
    return {r: [trace[s] for s in range(a, b + 1) if s in trace] for r, (a, b) in ranges.items()}


def gives(recs):
    """[(class, pages, gap ns)] for a bind's GIVEs: class boot, init, then regular."""
    out = []
    for k in range(1, len(recs)):
        op, mod, pages, seen, _ = recs[k]
        if op == "MANAGE_PAGES" and mod == GIVE and pages > 0:
            n = len(out)
            out.append((("boot", "init")[n] if n < 2 else "regular", pages, seen - recs[k - 1][4]))
    return out


def reclaim(recs):
    """(TAKEs, pages, summed gap ns, the opcode after the last) of an unbind's TAKEs, or None."""
    takes, pages, gap, after = 0, 0, 0, "-"
    for k in range(len(recs) - 1):
        op, mod, n, _, done = recs[k]
        if op == "MANAGE_PAGES" and mod == TAKE and n > 0:
            takes, pages, gap, after = takes + 1, pages + n, gap + recs[k + 1][3] - done, recs[k + 1][0]
    return (takes, pages, gap, after) if pages else None


def table(trace, binds, unbinds, drivers):
    """row -> driver -> (rounds, median pages, median gap ms, median ns per page, note)."""
    out = defaultdict(dict)
    for d in drivers:
        per = defaultdict(list)
        for recs in records(trace, binds.get(d, {})).values():
            for cls, pages, gap in gives(recs):
                per["give " + cls].append((pages, gap, ""))
        for recs in records(trace, unbinds.get(d, {})).values():
            x = reclaim(recs)
            if x:
                per["reclaim"].append((x[1], x[2], f"{x[0]} TAKEs, then {x[3]}"))
        for row, v in per.items():
            notes = sorted({x[2] for x in v if x[2]})
            out[row][d] = (len(v), med([x[0] for x in v]), med([x[1] / 1e6 for x in v]),
                           med([x[1] / x[0] for x in v]), "; ".join(notes))
    return out


def print_figure(trace, binds, unbinds, drivers):
    """Figure 4, both drivers; returns the give init and reclaim ratios."""
    t = table(trace, binds, unbinds, drivers)
    print("4. firmware pages, the driver's ns per page, in the emulator's clock (medians over the rounds): give,")
    print("   QUERY_PAGES answered to the MANAGE_PAGES GIVE's doorbell seen, over its pages (allocate, map, list);")
    print("   reclaim, each MANAGE_PAGES TAKE of the unbind answered to the next doorbell seen, summed, over the")
    print("   pages returned (unmap, free; the last gap also holds what the driver does before its next command)")
    print(f"{'pages':14} {'cxprm n':>7} {'pages':>6} {'gap ms':>7} {'ns/page':>8}"
          f"   {'mlx5 n':>6} {'pages':>6} {'gap ms':>7} {'ns/page':>8}   {'cxprm/mlx5':>10}")
    ratios = {}
    for row in ("give boot", "give init", "give regular", "reclaim"):
        if row not in t:
            continue
        cells = [t[row].get(d, (0, float("nan"), float("nan"), float("nan"), "")) for d in drivers]
        (cn, cp, cg, cs, _), (mn, mp, mg, ms, _) = cells
        ratios[row] = ratio(cs, ms)
        print(f"{row:14} {cn:7d} {fmt(cp, '%.0f'):>6} {fmt(cg, '%.2f'):>7} {fmt(cs, '%.0f'):>8}"
              f"   {mn:6d} {fmt(mp, '%.0f'):>6} {fmt(mg, '%.2f'):>7} {fmt(ms, '%.0f'):>8}"
              f"   {fmt(ratios[row], '%.2f'):>10}")
    for d in drivers:
        note = t.get("reclaim", {}).get(d, (0, 0, 0, 0, ""))[4]
        if note:
            print(f"   reclaim of {d}: {note}")
    return ratios
