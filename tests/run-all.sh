#!/bin/sh
# Run every unit suite, the CLI golden cases, the broken-input corpus
# (tests/bad/run-bad.sh), the pictures (tests/plots/run-plots.sh) and the
# shell completions (tests/completion/run-completion.sh), all on the frozen
# data of tests/data/ (tests/test-env.sh), then `make install`
# (tests/install/run-install.sh; not under a RUNNER) and the checks of the
# shipped data (tests/shipped-data.sh); print "N passed, N failed".
# Usage: tests/run-all.sh BUILD_DIR [RUNNER]   (RUNNER: e.g. a valgrind command)
build=${1:-build}
runner=${2:-}
. tests/test-env.sh
passed=0
failed=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	out=$($runner "$t" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed, leaked (valgrind) or failed outside a test
	fi
	if [ "$f" -ne 0 ]; then
		printf '%s\n' "$out"
		echo "FAIL: $(basename "$t") (exit $rc)"
	else
		echo "ok:   $(basename "$t") ($p tests)"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
if [ -x tests/cli/run-cases.sh ]; then
	out=$(tests/cli/run-cases.sh "$build/traincost" "$runner")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "cli:  $p cases passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
if [ -x tests/cli/check-hosting.sh ]; then
	if out=$(tests/cli/check-hosting.sh "$build/traincost"); then
		echo "hosting: ok ($out)"
		passed=$((passed + 1))
	else
		printf '%s\n' "$out"
		echo "FAIL: hosting"
		failed=$((failed + 1))
	fi
fi
if [ -x tests/bad/run-bad.sh ]; then
	out=$(tests/bad/run-bad.sh "$build/traincost" "$runner")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "bad:  $p broken inputs passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
if [ -x tests/plots/run-plots.sh ]; then
	out=$(tests/plots/run-plots.sh "$build/traincost" "$runner")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "plots: $p charts passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
if [ -x tests/completion/run-completion.sh ]; then
	out=$(tests/completion/run-completion.sh "$build/traincost" "$runner")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "completion: $p checks passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
if [ -x tests/install/run-install.sh ] && [ -z "$runner" ]; then
	out=$(tests/install/run-install.sh "$build")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "install: $p checks passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
if [ -x tests/shipped-data.sh ]; then
	out=$(tests/shipped-data.sh "$build/traincost" "$build" "$runner")
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	echo "data: $p checks of the shipped data passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
