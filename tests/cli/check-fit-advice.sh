#!/bin/sh
# The advice of a plan that does not fit, applied: `traincost estimate
# FILE ARGS...` exits 5 with "...; KEY: VALUE[, KEY: VALUE...] would fit
# (X GB)"; the same run with each KEY: VALUE given as its option (recompute
# -> --recompute, zero -> --zero, micro_batch -> --micro-batch, tp -> --tp,
# pp -> --pp, and --dp the GPUs left for data parallelism) must fit, exit
# 0, and need the X GB the advice said (to its 0.1 GB rounding).  For
# `check:` lines of tests/cli/cases; exits 1, saying why, otherwise.
# Usage: tests/cli/check-fit-advice.sh BINARY FILE [ARGS...]
bin=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$bin" estimate "$@" --format json >"$tmp/before.json"
rc=$?
[ "$rc" -eq 5 ] || { echo "check-fit-advice: exit $rc, expected 5 (does not fit)" >&2; exit 1; }
advice=$(tests/cli/rel.py --print 'a["fit_advice"]' "$tmp/before.json") || exit 1
change=$(printf '%s\n' "$advice" | sed -n 's/.*available; \(.*\) would fit (\([0-9.]*\) GB)$/\1/p')
gb=$(printf '%s\n' "$advice" | sed -n 's/.* would fit (\([0-9.]*\) GB)$/\1/p')
[ -n "$change" ] && [ -n "$gb" ] || { echo "check-fit-advice: no change in '$advice'" >&2; exit 1; }
tp=$(tests/cli/rel.py --print 'a["plan"]["tp"]' "$tmp/before.json")
pp=$(tests/cli/rel.py --print 'a["plan"]["pp"]' "$tmp/before.json")
count=$(tests/cli/rel.py --print 'a["plan"]["count"]' "$tmp/before.json")
set -- "$@" # the run's own arguments, then the advice's options
for kv in $(printf '%s\n' "$change" | sed 's/, /\n/g; s/: /=/g'); do
	v=${kv#*=}
	case ${kv%%=*} in
	recompute) set -- "$@" --recompute "$v" ;;
	zero) set -- "$@" --zero "$v" ;;
	micro_batch) set -- "$@" --micro-batch "$v" ;;
	tp) tp=$v; set -- "$@" --tp "$v" ;;
	pp) pp=$v; set -- "$@" --pp "$v" ;;
	*) echo "check-fit-advice: unknown change '$kv' in '$advice'" >&2; exit 1 ;;
	esac
done
"$bin" estimate "$@" --dp $((count / (tp * pp))) --format json >"$tmp/after.json"
rc=$?
[ "$rc" -eq 0 ] || { echo "check-fit-advice: '$change' applied: exit $rc, expected 0" >&2; exit 1; }
tests/cli/rel.py "a['fits'] and abs(a['memory_per_gpu_bytes'] / 1e9 - $gb) <= 0.05 + 1e-9" "$tmp/after.json"
