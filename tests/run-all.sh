#!/bin/sh
# Run every unit suite, the CLI golden cases, the broken-input corpus
# (tests/bad/run-bad.sh), the pictures (tests/plots/run-plots.sh), the
# output contract (tests/schema/run-schema.sh; not under a RUNNER) and the
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
# Add one runner's "ok ..." and "FAIL ..." lines to the totals, print the
# lines that are not "ok" and a summary: tally LABEL WHAT OUTPUT.
tally() {
	printf '%s\n' "$3" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$3" | grep -c '^ok ')
	f=$(printf '%s\n' "$3" | grep -c '^FAIL ')
	echo "$1 $p $2 passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
}
[ -x tests/cli/run-cases.sh ] &&
	tally "cli: " cases "$(tests/cli/run-cases.sh "$build/traincost" "$runner")"
# compare and plan never choose an offer that cannot host the plan (one
# check over every example; the script prints how many choices it saw).
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
# report's validation table is validate's per-GPU table, figure by figure.
if [ -x tests/cli/check-report-validate.sh ]; then
	if out=$(tests/cli/check-report-validate.sh "$build/traincost"); then
		echo "report-validate: ok ($out)"
		passed=$((passed + 1))
	else
		printf '%s\n' "$out"
		echo "FAIL: report-validate"
		failed=$((failed + 1))
	fi
fi
# Without its data every command says which folders it searched.
if [ -x tests/cli/check-no-data.sh ]; then
	if out=$(tests/cli/check-no-data.sh "$build/traincost"); then
		echo "no-data: ok ($out)"
		passed=$((passed + 1))
	else
		printf '%s\n' "$out"
		echo "FAIL: no-data"
		failed=$((failed + 1))
	fi
fi
[ -x tests/bad/run-bad.sh ] &&
	tally "bad: " "broken inputs" "$(tests/bad/run-bad.sh "$build/traincost" "$runner")"
[ -x tests/plots/run-plots.sh ] &&
	tally "plots:" charts "$(tests/plots/run-plots.sh "$build/traincost" "$runner")"
# Not under a RUNNER: the CLI cases run the same code under it.
[ -x tests/schema/run-schema.sh ] && [ -z "$runner" ] &&
	tally "schema:" "output checks" "$(tests/schema/run-schema.sh "$build/traincost")"
[ -x tests/completion/run-completion.sh ] &&
	tally "completion:" checks "$(tests/completion/run-completion.sh "$build/traincost" "$runner")"
[ -x tests/install/run-install.sh ] && [ -z "$runner" ] &&
	tally "install:" checks "$(tests/install/run-install.sh "$build")"
[ -x tests/shipped-data.sh ] &&
	tally "data:" "checks of the shipped data" "$(tests/shipped-data.sh "$build/traincost" "$build" "$runner")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
