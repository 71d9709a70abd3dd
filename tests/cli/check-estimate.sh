#!/bin/sh
# The headline figures of `traincost estimate FILE [ARGS...]` agree with each
# other (for `check:` lines of tests/cli/cases): total time = steps x step
# time; GPU-hours = total time x GPUs / 3600; MFU = model FLOPs a step /
# (step time x GPUs x the GPU's dense peak at the run's precision, read
# from `gpus show`); samples/s = samples a step / step time; memory per GPU
# = the sum of its parts; the time breakdown adds up to the step time less
# the data loader's wait.  Exits 1, saying which, when one does not hold.
# Usage: tests/cli/check-estimate.sh BINARY FILE [ARGS...]
bin=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$bin" estimate "$@" --format json >"$tmp/e.json" || exit 1
gpu=$(tests/cli/rel.py --print 'a["plan"]["gpu"]' "$tmp/e.json") || exit 1
"$bin" gpus show "$gpu" --format json >"$tmp/g.json" || exit 1
for r in \
	'close(a["total_time_s"], a["steps"] * a["step_time_s"])' \
	'close(a["gpu_hours"], a["total_time_s"] * a["plan"]["count"] / 3600)' \
	'close(a["mfu_frac"], a["model_flop_per_step"] / (a["step_time_s"] * a["plan"]["count"] * b["dense_flop_per_s"][a["precision"]]))' \
	'close(a["samples_per_s"], a["samples_per_step"] / a["step_time_s"])' \
	'close(a["memory_per_gpu_bytes"], sum(a["memory"].values()))' \
	'close(sum(a["breakdown"].values()), a["step_time_s"] - a.get("input_wait_s", 0), 1e-9)'
do
	tests/cli/rel.py "$r" "$tmp/e.json" "$tmp/g.json" || exit 1
done
