#!/usr/bin/env python3
"""The accuracy gates of tests/accuracy/gates.txt, and README's accuracy
table against `traincost validate`.

Usage: gates.py VALIDATE_LOO_JSON VALIDATE_TABLE
  VALIDATE_LOO_JSON: the output of `traincost validate --loo --format json`
  VALIDATE_TABLE: the output of `traincost validate` (the table README quotes)
Prints "ok NAME" or "FAIL NAME: why" per gate and per README check.
"""
import json
import re
import sys

GATES = "tests/accuracy/gates.txt"
README = "README.md"


def figures(doc):
    """SET -> {metric: value} from validate's JSON (percentages in %)."""
    out = {}
    for f in doc["files"]:
        out[f["file"]] = {"cases": f["cases"], "mape": 100 * f["mape_frac"]}
    o = doc["overall"]
    out["all"] = {"cases": o["cases"], "mape": 100 * o["mape_frac"]}
    cv = doc.get("cross_validation") or {}
    for name, key in (("loo-source", "leave_one_source_out"),
                      ("loo-gpu", "leave_one_gpu_type_out"),
                      ("llm-loo-source", "llm_leave_one_source_out"),
                      ("llm-loo-gpu", "llm_leave_one_gpu_type_out")):
        if key in cv:
            out[name] = {"cases": cv[key]["cases"], "mape": 100 * cv[key]["mape_frac"]}
    if "band_runs" in cv and cv["band_runs"] > 0:
        out["band"] = {"cases": cv["band_runs"],
                       "inside": 100 * cv["band_inside"] / cv["band_runs"]}
    sr = doc.get("speed_ratios") or {}
    if "pairs" in sr:
        out["pairs"] = {"cases": sr["pairs"], "mape": 100 * sr["mape_frac"]}
    out["not-fit"] = {"cases": sum(1 for c in doc["cases"] if c.get("fits") is False)}
    return out


def read_gates():
    """[(line number, set, metric, limit, today, why)] of gates.txt."""
    gates = []
    with open(GATES, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cells = [c.strip() for c in line.split("|")]
            if len(cells) != 5 or not cells[4]:
                raise SystemExit(f"FAIL accuracy/gates: {GATES}:{n}: expected "
                                 "SET | METRIC | LIMIT | TODAY | why")
            try:
                limit, today = float(cells[2]), float(cells[3])
            except ValueError:
                raise SystemExit(f"FAIL accuracy/gates: {GATES}:{n}: LIMIT and "
                                 "TODAY must be numbers")
            gates.append((n, cells[0], cells[1], limit, today, cells[4]))
    return gates


def check_gate(figs, gate):
    """'' when the gate holds, else why not."""
    n, name, metric, limit, today, _ = gate
    if metric not in ("mape", "inside", "cases"):
        return f"{GATES}:{n}: unknown metric '{metric}' (expected mape, inside or cases)"
    if name not in figs or metric not in figs[name]:
        return f"validate reports no {metric} for '{name}'"
    got = figs[name][metric]
    margin = abs(limit - today)
    if metric == "cases":
        if got != limit or limit != today:
            return f"{got} cases, the gate says {limit:g} (update {GATES}:{n} if on purpose)"
        return ""
    # mape: lower is better; inside: higher is better.
    worse = got > limit if metric == "mape" else got < limit
    better = got < today - margin if metric == "mape" else got > today + margin
    if worse:
        return (f"{metric} {got:.2f} %, past the limit {limit:g} % "
                f"(today {today:g} %, {GATES}:{n})")
    if better:
        return (f"{metric} {got:.2f} %, better than today {today:g} % by more than the "
                f"margin {margin:.2f}: move TODAY and LIMIT of {GATES}:{n} to it")
    return ""


def table_rows(text):
    """FILE -> [cases, MAPE, median, worst] as validate's table prints them."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^(\S+\.csv)\s+(\d+)\s+([\d.]+ %)\s+([\d.]+ %)\s+([\d.]+ %)", line)
        if m:
            rows[m.group(1)] = list(m.groups()[1:])
    return rows


def readme_rows(text):
    """FILE -> [cases, MAPE, median, worst] of README's accuracy table (the
    rows whose first cell names a case file in backquotes)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        m = re.search(r"`([a-z0-9-]+\.csv)`", cells[0])
        if m:
            rows[m.group(1)] = cells[1:]
    return rows


def check_readme(doc, table):
    """[(name, why)] of README's figures against validate's output."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    out = []
    want, got = table_rows(table), readme_rows(text)
    if not want:
        out.append(("readme-table", "validate printed no case-file rows"))
    elif set(want) != set(got):
        out.append(("readme-table", f"README's rows {sorted(got)} are not validate's "
                                    f"{sorted(want)}"))
    else:
        bad = [f"{k}: README {got[k]}, validate {want[k]}" for k in sorted(want)
               if got[k] != want[k]]
        out.append(("readme-table", "; ".join(bad)))
    cv, sr = doc["cross_validation"], doc["speed_ratios"]
    loo = (f"{100 * cv['leave_one_source_out']['mape_frac']:.1f} % and "
           f"{100 * cv['leave_one_gpu_type_out']['mape_frac']:.1f} % over "
           f"{cv['leave_one_source_out']['cases']} runs")
    pairs = f"{100 * sr['mape_frac']:.1f} % over {sr['pairs']} pairs"
    flat = " ".join(text.split())
    for name, phrase in (("readme-loo", "`traincost validate --loo`: " + loo),
                         ("readme-pairs", "is " + pairs)):
        out.append((name, "" if phrase in flat else f"README lacks '{phrase}'"))
    return out


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        table = f.read()
    figs = figures(doc)
    gates = read_gates()
    # Every set validate reports is gated, on its error and its count.
    for name, metrics in sorted(figs.items()):
        for metric in metrics:
            if not any(g[1] == name and g[2] == metric for g in gates):
                print(f"FAIL accuracy/{name}-{metric}: {GATES} has no gate for it")
    for gate in gates:
        why = check_gate(figs, gate)
        name = f"accuracy/{gate[1]}-{gate[2]}"
        print(f"FAIL {name}: {why}" if why else f"ok {name}")
    for name, why in check_readme(doc, table):
        print(f"FAIL accuracy/{name}: {why}" if why else f"ok accuracy/{name}")


if __name__ == "__main__":
    main()
