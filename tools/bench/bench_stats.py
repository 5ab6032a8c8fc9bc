# SPDX-License-Identifier: GPL-2.0
"""Small statistics and formatting helpers of the bench_mlx5_*.py tables."""
from statistics import median

NAN = float("nan")


def pct(v, p):
    """The p-th percentile, nearest rank (p99 of fewer than 100 samples: the largest)."""
    if not v:
        return NAN
    v = sorted(v)
    return v[max(0, min(len(v) - 1, -(-p * len(v) // 100) - 1))]


def med(v):
    """The median of the numbers of v (NaN left out); NaN for none."""
    v = [x for x in v if x == x]
    return median(v) if v else NAN


def ratio(a, b):
    """a / b, NaN when either is missing or b is 0."""
    return a / b if a == a and b == b and b else NAN


def fmt(x, f="%.1f"):
    """x formatted, "-" for NaN."""
    return f % x if x == x else "-"
