#!/usr/bin/env python3
"""Check a relation between figures of JSON or CSV outputs, for `check:`
lines of tests/cli/cases: rel.py EXPR FILE...

Each FILE is read into a, b, c, ... in order: JSON as it is, anything else
as CSV, a list of rows keyed by the header, numbers as floats and empty
fields as None.  EXPR is a Python expression over them that must be true,
with close(x, y, tol=1e-9) (x within tol of y, relative), row(rows, gpu)
(the row of that GPU), prev_count(count, per_node) (the count `compare
--deadline` tries before count) and, for Monte Carlo output (--uncertainty),
ordered(u), share_agrees(q, share, limit, samples), brackets(q, x) and
front(rows) at hand.  On failure it prints the expression and exits 1.
With --print, EXPR is printed instead of tested (for a later command).
"""
import csv
import json
import sys

QUANTILES = ("p10", "p50", "p90")


def close(x, y, tol=1e-9):
    """x within tol of y, relative to |y|."""
    return abs(x - y) <= tol * max(abs(y), 1e-300)


def row(rows, gpu):
    """The row of `gpu` among `rows`."""
    return [r for r in rows if r["gpu"] == gpu][0]


def prev_count(count, per_node):
    """The count tried before `count` by compare --deadline (src/cli/
    cmd_compare.c): 1, 2, 4 up to a node, then whole nodes 1, 2, 3, 4, 6,
    8, 12, 16, ...; 0 before the first."""
    tried, c = [], 1
    while c < count:
        tried.append(c)
        if c < per_node:
            c = min(c * 2, per_node)
        else:
            nodes, pow2 = c // per_node, 1
            while pow2 * 2 <= nodes:
                pow2 *= 2
            c = (pow2 + pow2 // 2 if pow2 >= 2 else 2) if nodes == pow2 else pow2 * 2
            c *= per_node
    if c != count:
        raise SystemExit(f"{count} is not a count compare --deadline tries")
    return tried[-1] if tried else 0


def ordered(u):
    """Every quantile object of uncertainty object u (each key holding p10,
    p50 and p90) has P10 <= P50 <= P90, and there is at least one."""
    qs = [q for q in u.values() if isinstance(q, dict) and "p50" in q]
    return len(qs) > 0 and all(q["p10"] <= q["p50"] <= q["p90"] for q in qs)


def share_agrees(q, share, limit, samples):
    """The share of samples at or below `limit` agrees with their quantiles
    q: at least 0.1, 0.5, 0.9 where P10, P50, P90 is at or below the limit,
    at most that where it is above.  GSL's quantile interpolates between
    the sorted samples (n - 1) x p and the next, so the share can sit 1/n
    beyond the quantile's level and no further."""
    slack = 1.0 / samples
    return 0 <= share <= 1 and all(
        share >= p - slack if q[k] <= limit else share <= p + slack
        for k, p in zip(QUANTILES, (0.1, 0.5, 0.9)))


def brackets(q, x):
    """The point estimate x lies between P10 and P90 of its samples: the
    model's errors are centred on it, so with a few hundred samples it
    falls outside only if the draws are biased."""
    return q["p10"] <= x <= q["p90"]


def front(rows):
    """No row of plan's JSON is beaten at P90 on both its time and its cost
    by another: a Pareto front of P90 time against P90 cost."""
    p90 = [(r["uncertainty"]["total_time_s"]["p90"], r["uncertainty"]["steady_cost_usd"]["p90"]) for r in rows]
    return all(not (t2 < t1 and c2 < c1) for t1, c1 in p90 for t2, c2 in p90)


def number(field):
    """A CSV field as a float where it is one, None where empty."""
    if field == "":
        return None
    try:
        return float(field)
    except ValueError:
        return field


def load(path):
    """A JSON document, or CSV rows as dictionaries."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.lstrip().startswith(("{", "[")):
        return json.loads(text)
    return [{k: number(v) for k, v in r.items()} for r in csv.DictReader(text.splitlines())]


def main():
    show = len(sys.argv) > 1 and sys.argv[1] == "--print"
    if show:
        del sys.argv[1]
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    names = "abcdefgh"
    env = {"close": close, "row": row, "prev_count": prev_count, "ordered": ordered,
           "share_agrees": share_agrees, "brackets": brackets, "front": front, "Q": QUANTILES,
           "__builtins__": {"abs": abs, "min": min, "max": max, "all": all, "any": any,
                            "len": len, "str": str, "sum": sum, "zip": zip}}
    for name, path in zip(names, sys.argv[2:]):
        env[name] = load(path)
    if show:
        print(eval(sys.argv[1], env))
    elif not eval(sys.argv[1], env):
        print(f"relation does not hold: {sys.argv[1]}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
