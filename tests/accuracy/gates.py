#!/usr/bin/env python3
"""The accuracy gates of tests/accuracy/gates.txt; the figures README,
docs/model.md, docs/calibration.md and docs/vision-recsys.md give as
today's against `traincost validate`; the profile values docs/model.md
gives against models/framework/; and the spread of unvalidated estimates
against the leave-one-out error it is taken from.

Usage: gates.py VALIDATE_LOO_JSON VALIDATE_TABLE
  VALIDATE_LOO_JSON: the output of `traincost validate --loo --format json`
  VALIDATE_TABLE: the output of `traincost validate` (the table README quotes)
Prints "ok NAME" or "FAIL NAME: why" per gate and per document check.
"""
import json
import math
import os
import re
import sys

GATES = "tests/accuracy/gates.txt"
README = "README.md"
MODEL_DOC = "docs/model.md"
CALIBRATION_DOC = "docs/calibration.md"
VISION_RECSYS_DOC = "docs/vision-recsys.md"


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


def case_file_gpus(name):
    """The GPU types of the cases of tests/validation/NAME (its `gpu`
    column; lines starting with # are comments)."""
    with open(os.path.join("tests", "validation", name), encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if l and not l.startswith("#")]
    col = lines[0].split(",").index("gpu")
    return {l.split(",")[col] for l in lines[1:]}


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
    # A row that says "on N GPU types" counts its case file's GPU types.
    for line in text.splitlines():
        m = re.search(r"on (\d+) GPU types \(`([a-z0-9-]+\.csv)`\)", line)
        if m:
            got_n, name = int(m.group(1)), m.group(2)
            n = len(case_file_gpus(name))
            out.append((f"readme-gpu-types-{name}",
                        "" if got_n == n else f"README says {got_n} GPU types, "
                                              f"{name} has {n}"))
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


def pct(frac, places=2):
    """A fraction as validate prints a percentage: 0.0775 -> '7.75 %'."""
    return f"{100 * frac:.{places}f} %"


def ape_figures(errors):
    """(MAPE, median, worst) of signed errors (fractions), as validate takes
    them: the median of an even count is the mean of the middle two."""
    a = sorted(abs(e) for e in errors)
    n = len(a)
    median = a[n // 2] if n % 2 else (a[n // 2 - 1] + a[n // 2]) / 2
    return sum(a) / n, median, a[-1]


def table_line(text, label):
    """The cells after the first of the table row whose first cell is
    `label`, or None."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 1 and line.startswith("|") and cells[0] == label:
            return cells[1:]
    return None


def compare_rows(text, want):
    """What differs between the table rows of a document and `want` ({the
    row's first cell: the cells after it, None for a cell not checked})."""
    bad = []
    for label, cells in want.items():
        got = table_line(text, label)
        if got is None:
            bad.append(f"no row '{label}'")
            continue
        for i, w in enumerate(cells):
            if w is not None and (i >= len(got) or got[i] != w):
                bad.append(f"'{label}' cell {i + 2}: "
                           f"{got[i] if i < len(got) else '(none)'}, validate {w}")
    return bad


def run_cells(cases, rows):
    """`want` of compare_rows() for rows of single runs, (case id, the row's
    first cell, how its prediction is printed): the measured cell is not
    checked, the prediction and the error are."""
    shown = {"tflops": lambda v: f"{v / 1e12:.1f}",
             "mfu": lambda v: pct(v, 1),
             "images": lambda v: f"{v:,.0f}",
             "samples": lambda v: f"{v / 1e6:.2f} M/s"}
    want = {}
    for case, label, kind in rows:
        c = cases.get(case)
        want[label] = (["(a case validate has)"] if c is None else
                       [None, shown[kind](c["predicted"]),
                        f"{100 * c['error_frac']:+.1f} %"])
    return want


# docs/model.md section 7: the rows of Megatron-LM's own runs, by case id:
# (the row's first cell, how its prediction is printed).
MEGATRON_ROWS = (
    ("megatron21-gpt-1.7b", "GPT 1.7B, 32 GPUs", "tflops"),
    ("megatron21-gpt-7.5b", "GPT 7.5B, 128 GPUs (TP 4)", "tflops"),
    ("megatron21-gpt-39b", "GPT 39B, 512 GPUs", "tflops"),
    ("megatron21-gpt-145b", "GPT 145B, 1,536 GPUs", "tflops"),
    ("megatron21-gpt-1t", "GPT 1T, 3,072 GPUs", "tflops"),
    ("korthikanti22-530b-selective", "530B, SP + selective, MFU", "mfu"),
    ("korthikanti22-530b-full", "530B, full recompute, MFU", "mfu"),
)


def check_model_doc(doc):
    """[(name, why)] of the figures docs/model.md gives as today's (section
    7's tables and its table of every published run) against validate."""
    with open(MODEL_DOC, encoding="utf-8") as f:
        text = f.read()
    cases = {c["case"]: c for c in doc["cases"]}
    files = {f["file"]: f for f in doc["files"]}
    want = {}

    def figs_row(n, mape, median, worst):
        return [n, pct(mape), pct(median), pct(worst, 1)]

    # vTrain's halves: the defaults were fitted on the even rows.
    vt = [(int(k.split(":")[1]), c["error_frac"]) for k, c in cases.items()
          if k.startswith("vtrain-a100:")]
    for label, parity in (("vTrain fit half (even rows)", 0),
                          ("vTrain held-out half (odd rows)", 1)):
        half = [e for i, e in vt if i % 2 == parity]
        if half:
            want[label] = figs_row(f"{len(half):,}", *ape_figures(half))
    for label, name in (("vTrain all", "vtrain-a100.csv"),
                        ("Megatron 2021 + Korthikanti 530B (framework megatron)",
                         "megatron-2021.csv")):
        f = files.get(name)
        if f:
            want[label] = figs_row(f"{f['cases']:,}", f["mape_frac"],
                                   f["median_ape_frac"], f["worst_ape_frac"])
    want.update(run_cells(cases, MEGATRON_ROWS))

    def today(f):
        return (f"{pct(f['mape_frac'])} (median {pct(f['median_ape_frac'])}, "
                f"worst {pct(f['worst_ape_frac'], 1)})")
    for label, name in (("published LLM", "published-llm.csv"),
                        ("published vision", "published-vision.csv"),
                        ("published recommender", "published-recsys.csv")):
        if name in files:
            want[label] = [str(files[name]["cases"]), None, None, today(files[name])]
    cv, sr = doc["cross_validation"], doc["speed_ratios"]
    for label, src, gpu in (
            ("leave one source out / one GPU type out",
             "leave_one_source_out", "leave_one_gpu_type_out"),
            ("language models alone, leave one source out / one GPU type out",
             "llm_leave_one_source_out", "llm_leave_one_gpu_type_out")):
        want[label] = [str(cv[src]["cases"]), None, None,
                       f"{100 * cv[src]['mape_frac']:.2f} / "
                       f"{100 * cv[gpu]['mape_frac']:.2f} %"]
    want["A/B speed ratio, same benchmark and stack"] = [
        f"{sr['pairs']} pairs", None, None, today(sr)]
    if "vtrain-a100.csv" in files and "megatron-2021.csv" in files:
        want["vTrain, Megatron 2021"] = [
            None, None, None, f"{pct(files['vtrain-a100.csv']['mape_frac'])}, "
                              f"{pct(files['megatron-2021.csv']['mape_frac'])}"]

    out = [("model-doc-tables", "; ".join(compare_rows(text, want)))]
    band = (f"holds {cv['band_inside']} of the {cv['band_runs']} runs "
            f"({round(100 * cv['band_inside'] / cv['band_runs'])} %)")
    flat = " ".join(text.split())
    out.append(("model-doc-band", "" if band in flat else f"{MODEL_DOC} lacks '{band}'"))
    return out


def check_calibration_doc(doc):
    """[(name, why)] of what docs/calibration.md says of the model-error
    term of --uncertainty: the band it gives and the figure its source (the
    root mean square log error of the published LLM runs) gives today."""
    with open(CALIBRATION_DOC, encoding="utf-8") as f:
        flat = " ".join(f.read().split())
    cv = doc["cross_validation"]
    band = (f"holds {cv['band_inside']} of the {cv['band_runs']} published runs "
            f"that name a framework ({round(100 * cv['band_inside'] / cv['band_runs'])} %)")
    out = [("calibration-doc-band",
            "" if band in flat else f"{CALIBRATION_DOC} lacks '{band}'")]
    llm = [math.log1p(c["error_frac"]) for c in doc["cases"]
           if c["case"].startswith("llm-")]
    if llm:
        rms = f"{math.sqrt(sum(x * x for x in llm) / len(llm)):.3f} over all {len(llm)} today"
        out.append(("calibration-doc-rms",
                    "" if rms in flat else f"{CALIBRATION_DOC} lacks '{rms}'"))
    return out


def check_unvalidated_sd(doc):
    """[(name, why)]: the spread of an estimate no measured run backs
    (STEP_UNVALIDATED_REL_SD, src/model/families/estimate.h) is the
    leave-one-GPU-type-out error as a log-normal sigma (mean |log error| =
    0.8 sigma), within 0.02: a model change that moves that error moves the
    spread with it."""
    path = os.path.join("src", "model", "families", "estimate.h")
    with open(path, encoding="utf-8") as f:
        m = re.search(r"^#define STEP_UNVALIDATED_REL_SD ([0-9.]+)", f.read(), re.M)
    if m is None:
        return [("unvalidated-sd", f"{path} has no STEP_UNVALIDATED_REL_SD")]
    want = doc["cross_validation"]["leave_one_gpu_type_out"]["mape_frac"] / 0.8
    got = float(m.group(1))
    return [("unvalidated-sd", "" if abs(got - want) <= 0.02 else
             f"STEP_UNVALIDATED_REL_SD {got:g}, the leave-one-GPU-type-out error "
             f"gives {want:.2f} ({path}, docs/model.md section 8)")]


def check_profile_doc():
    """[(name, why)] of the framework profiles' values docs/model.md's table
    gives (rows `| ID[, ID...] | PARAMETER | NUMBER | how |`) against
    models/framework/ID.yaml, which `validate --fit-frameworks` refits."""
    with open(MODEL_DOC, encoding="utf-8") as f:
        rows = re.findall(r"^\| ([a-z0-9, -]+) \| ([a-z0-9_]+_frac) \| ([0-9.]+) \|",
                          f.read(), re.M)
    bad = []
    for ids, param, value in rows:
        for fid in (i.strip() for i in ids.split(",")):
            path = os.path.join("models", "framework", fid + ".yaml")
            try:
                with open(path, encoding="utf-8") as f:
                    m = re.search(rf"^\s+{param}:\s*([0-9.]+)", f.read(), re.M)
            except OSError:
                m = None
                bad.append(f"{fid}: no {path}")
                continue
            if m is None or float(m.group(1)) != float(value):
                bad.append(f"{fid} {param}: {MODEL_DOC} {value}, {path} "
                           f"{m.group(1) if m else 'none'}")
    if not rows:
        bad.append(f"{MODEL_DOC} has no table of profile values")
    return [("model-doc-profiles", "; ".join(bad))]


# docs/vision-recsys.md: its table of the DeepLearningExamples runs "measured
# with the shipped values", by case id: (the row's first cell, how its
# prediction is printed).
VISION_RECSYS_ROWS = (
    ("vision-dle-rn50-pt-8xa100-80gb-amp", "ResNet-50, 8 x A100 80GB, AMP, NHWC", "images"),
    ("vision-dle-rn50-pt-8xa100-80gb-tf32", "ResNet-50, 8 x A100 80GB, TF32", "images"),
    ("vision-dle-rn50-pt-8xv100-16gb-amp", "ResNet-50, 8 x V100 16GB, AMP", "images"),
    ("vision-dle-rn50-pt-8xv100-16gb-fp32", "ResNet-50, 8 x V100 16GB, FP32", "images"),
    ("recsys-dle-dlrm-pt-8xa100-80gb-amp-large", "DLRM large, 8 x A100 80GB, AMP", "samples"),
    ("recsys-dle-dlrm-pt-8xv100-32gb-amp-large", "DLRM large, 8 x V100 32GB, AMP", "samples"),
    ("recsys-dle-dlrm-pt-8xa100-80gb-tf32-large", "DLRM large, 8 x A100 80GB, TF32", "samples"),
    ("recsys-dle-dlrm-pt-1xa100-80gb-amp-small", "DLRM small, 1 x A100 80GB, AMP", "samples"),
    ("recsys-dle-dlrm-pt-1xv100-32gb-amp-small", "DLRM small, 1 x V100 32GB, AMP", "samples"),
    ("recsys-dle-dlrm-pt-1xa100-80gb-tf32-small", "DLRM small, 1 x A100 80GB, TF32", "samples"),
)


def check_vision_recsys_doc(doc):
    """[(name, why)] of docs/vision-recsys.md's table of the shipped values
    against validate."""
    with open(VISION_RECSYS_DOC, encoding="utf-8") as f:
        text = f.read()
    cases = {c["case"]: c for c in doc["cases"]}
    files = {f["file"]: f for f in doc["files"]}
    bad = compare_rows(text, run_cells(cases, VISION_RECSYS_ROWS))
    # the MAPE cell of a set may say more after the figure
    for label, name in (("vision MAPE", "vision.csv"), ("recsys MAPE", "recsys.csv")):
        got = table_line(text, label)
        want = f"{100 * files[name]['mape_frac']:.1f} %" if name in files else "?"
        if got is None or len(got) < 3 or not got[2].startswith(want):
            bad.append(f"'{label}': {got[2] if got and len(got) > 2 else 'no row'}, "
                       f"validate {want}")
    return [("vision-recsys-doc-table", "; ".join(bad))]


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
    docs = (check_readme(doc, table) + check_model_doc(doc) +
            check_calibration_doc(doc) + check_unvalidated_sd(doc) +
            check_profile_doc() + check_vision_recsys_doc(doc))
    for name, why in docs:
        print(f"FAIL accuracy/{name}: {why}" if why else f"ok accuracy/{name}")


if __name__ == "__main__":
    main()
