#!/bin/sh
# The data traincost ships (models/, pricing/), unlike the rest of the
# suite, which reads the frozen copy under tests/data/: every file loads, the
# catalog and the price list come up, the GPU catalog's relations and every
# offer's fabric hold, and `make demo` works, on the clock's own date.
# Figures are not compared: refreshing the data is expected (the accuracy
# gates, tests/accuracy/, compare the shipped data's validate figures).
#
# Prints "ok NAME" or "FAIL NAME: why" per check.
# Usage: tests/shipped-data.sh BINARY BUILD_DIR [RUNNER]
bin=$1
build=$2
runner=${3:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# Exactly the working tree's data, on today's real date.
unset TRAINCOST_TODAY SOURCE_DATE_EPOCH
TRAINCOST_PATH=.
TRAINCOST_PATH_ONLY=1
export TRAINCOST_PATH TRAINCOST_PATH_ONLY

# check NAME COMMAND...: exit 0, some standard output, no error on stderr
# (warnings, such as stale prices, are expected as the data ages; so are
# make's notes on clock skew when `make test-dates` moves the clock).
check() {
	name=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	bad=$(grep -v -e ': warning: ' -e '^make' "$tmp/err" | head -n 1)
	if [ "$rc" -ne 0 ]; then
		echo "FAIL shipped/$name: exit $rc: $(head -n 1 "$tmp/err")"
	elif [ ! -s "$tmp/out" ]; then
		echo "FAIL shipped/$name: no output"
	elif [ -n "$bad" ]; then
		echo "FAIL shipped/$name: stderr '$bad'"
	else
		echo "ok shipped/$name"
	fi
}

# `check` takes at most 64 files a run.
for dir in models/gpu models/arch pricing; do
	check "check-$(echo "$dir" | tr / -)" sh -c 'ls "$1"/*.yaml | xargs -n 64 $2 "$3" check' sh "$dir" "$runner" "$bin"
done
check gpus $runner "$bin" gpus
check prices $runner "$bin" prices
# Every shipped offer states its fabric and where it was read.
# (cmocka reports on stderr: passed, the report goes to stdout; failed, the
# first failure is the message.)
check fabric sh -c 'out=$(TC_FABRIC_DATA=. $1 "$2" 2>&1) ||
	{ printf "%s\n" "$out" | grep -m 1 ERROR >&2; exit 1; }; printf "%s\n" "$out"' \
	sh "$runner" "$build/tests/test_fabric_sourced"
# The catalog's relations (tensor peaks at least FP32, FP8 at least BF16,
# sparsity 1 or 2, MIG slices within the SMs, sources present) and key
# order hold for the shipped GPU files too, not only the frozen copy.
check gpu-relations sh -c 'out=$(TC_GPU_DATA=. $1 "$2" 2>&1) ||
	{ printf "%s\n" "$out" | grep -m 1 -e ERROR -e FAILED >&2; exit 1; }; printf "%s\n" "$out"' \
	sh "$runner" "$build/tests/test_gpu"
check demo make --no-print-directory -s demo BUILD="$build"
