#!/usr/bin/env python3
"""Check a relation between figures of JSON outputs, for `check:` lines of
tests/cli/cases: rel.py EXPR FILE...

Each FILE is read as JSON into a, b, c, ... in order; EXPR is a Python
expression over them that must be true, with close(x, y, tol=1e-9) (x
within tol of y, relative), row(rows, gpu) (the row of that GPU) and
prev_count(count, per_node) (the count `compare --deadline` tries before
count) at hand.  On failure it prints the expression and exits 1.
With --print, EXPR is printed instead of tested (for a later command).
"""
import json
import sys


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


def main():
    show = len(sys.argv) > 1 and sys.argv[1] == "--print"
    if show:
        del sys.argv[1]
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    names = "abcdefgh"
    env = {"close": close, "row": row, "prev_count": prev_count, "__builtins__": {"abs": abs, "min": min, "max": max,
                                            "all": all, "len": len, "sum": sum}}
    for name, path in zip(names, sys.argv[2:]):
        with open(path, encoding="utf-8") as f:
            env[name] = json.load(f)
    if show:
        print(eval(sys.argv[1], env))
    elif not eval(sys.argv[1], env):
        print(f"relation does not hold: {sys.argv[1]}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
