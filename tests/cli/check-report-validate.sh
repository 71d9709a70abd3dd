#!/bin/sh
# `traincost report` says its validation table is what `traincost validate`
# shows: for every GPU of validate's per-GPU table, and one without measured
# runs, the report's cases, MAPE, median, worst error and bias must be
# validate's JSON figures as the page rounds them, in percent with the unit
# in the header (sanity-only cases counted in neither).  Prints "checked N
# GPUs"; on a difference, what differs, and exits 1.
# Usage: tests/cli/check-report-validate.sh BINARY
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

"$bin" validate --format json >"$tmp/validate.json" || { echo "validate failed"; exit 1; }
ids=$(python3 -c 'import json, sys
print(",".join(g["gpu"] for g in json.load(open(sys.argv[1]))["gpus"]))' "$tmp/validate.json") || exit 1
# t4 has no measured case in the frozen data: the page must say so.
"$bin" report examples/gpt2-124m-l4.yaml -o "$tmp/report.html" --gpus "$ids,t4" 2>"$tmp/err" ||
	{ echo "report failed: $(head -c 300 "$tmp/err")"; exit 1; }
python3 - "$tmp/validate.json" "$tmp/report.html" <<'PY'
import html, json, re, sys
groups = {g["gpu"]: g for g in json.load(open(sys.argv[1]))["gpus"]}
page = open(sys.argv[2]).read()
section = page[page.index('<section id="validation">'):]
section = section[:section.index("</section>")]
rows = {}
for tr in re.findall(r"<tr>(.*?)</tr>", section, re.S):
    cells = [html.unescape(re.sub(r"<[^>]*>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
    if cells:
        rows[cells[0]] = cells[1:]
bad = []
for gpu, g in groups.items():
    want = [str(g["cases"]), "%.2f" % (100 * g["mape_frac"]),
            "%.2f" % (100 * g["median_ape_frac"]), "%.1f" % (100 * g["worst_ape_frac"]),
            "%+.1f" % (100 * g["bias_frac"])]
    if rows.get(gpu) != want:
        bad.append("%s: report %s, validate %s" % (gpu, rows.get(gpu), want))
if rows.get("t4", [""])[0] != "0":
    bad.append("t4: report %s, expected 0 cases" % rows.get("t4"))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("checked %d GPUs" % (len(groups) + 1))
PY
