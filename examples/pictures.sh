#!/bin/sh
# The pictures traincost draws, from the bundled examples: the HTML report
# and the six charts (two of them are in README.md, from docs/img/).
#
#   examples/pictures.sh [OUT_DIR]        (default: pictures)
#
# Run from the repository root.  TRAINCOST names the binary (default:
# build/traincost, else traincost on PATH).  Open OUT_DIR/report.html in a
# browser; it needs no network.
set -eu
out=${1:-pictures}
tc=${TRAINCOST:-build/traincost}
[ -x "$tc" ] || tc=traincost
mkdir -p "$out"
gpus=a100-80gb-sxm,h100-sxm,h200-sxm,b200,mi300x,l40s

# One page: estimate, comparison, plan and validation.
"$tc" report examples/llama2-7b-a100.yaml -o "$out/report.html" --gpus "$gpus" --deadline 60d

# The charts, each beside the table its command prints.
"$tc" estimate examples/llama2-7b-a100.yaml --plot "$out/estimate.svg" >/dev/null
"$tc" explain examples/llama2-7b-a100.yaml --plot "$out/explain.svg" >/dev/null
"$tc" compare examples/llama2-7b-a100.yaml --gpus "$gpus" --uncertainty=200 \
	--plot "$out/compare.svg" >/dev/null
"$tc" plan examples/plan-70b-finetune.yaml --deadline 7d --gpus "$gpus" \
	--plot "$out/plan.svg" >/dev/null
"$tc" sweep examples/sweep-7b.yaml -o "$out/sweep.csv" --plot "$out/sweep.svg" \
	--plot-x plan.count
"$tc" validate --plot "$out/validate.svg" >/dev/null
echo "wrote $out/report.html and 6 charts in $out/"
