#!/bin/sh
# Run every unit suite, the CLI golden cases, the broken-input corpus
# (tests/bad/run-bad.sh), the pictures (tests/plots/run-plots.sh), the
# output contract (tests/schema/run-schema.sh; not under a RUNNER), the
# shell completions (tests/completion/run-completion.sh), the dependency
# check of src/ (tests/arch/run-arch.sh) and the accuracy
# gates (tests/accuracy/run-accuracy.sh; not under a RUNNER), all on the
# frozen data of tests/data/ (tests/test-env.sh) except the accuracy gates
# and the checks of the shipped data (tests/shipped-data.sh), which read
# models/ and tests/validation/, then `make install`
# (tests/install/run-install.sh; not under a RUNNER).
#
# It cannot pass quietly: a unit suite of tests/unit/ without its binary, a
# runner that is missing, not executable, exits non-zero or reports nothing,
# a runner that reports fewer checks than its files hold (the CLI cases, the
# broken inputs) and a skip not listed in tests/expected-skips.txt all
# count as failures.  The last line is "N passed, N skipped, N failed".
#
# Usage: tests/run-all.sh BUILD_DIR [RUNNER [CASES]]
#   RUNNER: e.g. a valgrind command; CASES: a glob of CLI case names, the
#   only way to narrow the run (TC_CASES from the environment is ignored).
build=${1:-build}
runner=${2:-}
cases=${3:-}
unset TC_CASES
. tests/test-env.sh
passed=0
skipped=0
failed=0
expected_skips=tests/expected-skips.txt

fail() { # WHAT WHY: one failure outside a runner's own lines
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

for src in tests/unit/test_*.c; do
	t=$build/tests/$(basename "$src" .c)
	if [ ! -x "$t" ]; then
		fail "$(basename "$t")" "no executable $t for $src"
		continue
	fi
	out=$($runner "$t" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed, leaked (valgrind) or failed outside a test
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		f=1 # ran no test at all
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

# The skips a run may make, one name a line before '|' (comments start '#').
is_expected_skip() {
	sed 's/#.*//' "$expected_skips" | awk -F'|' -v n="$1" '
		{ gsub(/^[ \t]+|[ \t]+$/, "", $1) } $1 == n { found = 1 }
		END { exit !found }'
}

# Add one runner's lines to the totals: tally LABEL WHAT RC OUTPUT [WANT].
# "ok NAME" passes, "skip NAME: why" is a skip (a failure unless NAME is in
# tests/expected-skips.txt), "FAIL NAME: why" fails; every line not "ok" is
# printed.  A non-zero RC, no line at all, or (with WANT) a number of
# reports other than WANT fails too.
tally() {
	p=$(printf '%s\n' "$4" | grep -c '^ok ')
	s=0
	f=$(printf '%s\n' "$4" | grep -c '^FAIL ')
	printf '%s\n' "$4" | grep -v '^ok ' | grep -v '^skip ' | grep -v '^$'
	for name in $(printf '%s\n' "$4" | sed -n 's/^skip \([^:]*\):.*/\1/p'); do
		printf '%s\n' "$4" | grep "^skip $name:"
		if is_expected_skip "$name"; then
			s=$((s + 1))
		else
			echo "FAIL $name: skipped, and $expected_skips does not expect it to be"
			f=$((f + 1))
		fi
	done
	n=$(printf '%s\n' "$4" | grep -c -e '^ok ' -e '^skip ' -e '^FAIL ')
	if [ "$3" -ne 0 ]; then
		echo "FAIL $1 the runner exited with status $3"
		f=$((f + 1))
	fi
	if [ "$n" -eq 0 ]; then
		echo "FAIL $1 the runner reported nothing"
		f=$((f + 1))
	elif [ -n "${5:-}" ] && [ "$n" -ne "$5" ]; then
		echo "FAIL $1 $n $2 reported, the files hold $5"
		f=$((f + 1))
	fi
	echo "$1 $p $2 passed, $s skipped, $f failed"
	passed=$((passed + p))
	skipped=$((skipped + s))
	failed=$((failed + f))
}

# run LABEL WHAT WANT RUNNER-SCRIPT ARGS...: a runner that must be there and
# executable; WANT is the number of reports its files call for, or "".
run() {
	label=$1
	what=$2
	want=$3
	script=$4
	shift 4
	if [ ! -f "$script" ] || [ ! -x "$script" ]; then
		fail "$script" "the runner is missing or not executable"
		return
	fi
	out=$("$script" "$@")
	tally "$label" "$what" $? "$out" "$want"
}

# How many CLI cases the glob names, and how many rows the corpus holds.
ncases=$(ls tests/cli/cases/${cases:-*}.case 2>/dev/null | wc -l)
nbad=$(grep -v '^#' tests/bad/cases.txt | grep -vc '^[[:space:]]*$')
TC_CASES=${cases:-*}
export TC_CASES
run "cli: " cases "$ncases" tests/cli/run-cases.sh "$build/traincost" "$runner"
unset TC_CASES
[ -z "$cases" ] || echo "cli:  narrowed to the cases '$cases' ($ncases of $(ls tests/cli/cases/*.case | wc -l))"
# compare and plan never choose an offer that cannot host the plan (one
# check over every example; the script prints how many choices it saw).
script=tests/cli/check-hosting.sh
if [ ! -x "$script" ]; then
	fail "$script" "the runner is missing or not executable"
elif out=$("$script" "$build/traincost"); then
	echo "hosting: ok ($out)"
	passed=$((passed + 1))
else
	printf '%s\n' "$out"
	fail hosting "$script exited non-zero"
fi
# report's validation table is validate's per-GPU table, figure by figure;
# without its data every command says which folders it searched; help, man
# pages and completion name the options of the tables, and the pages render
# without warnings.
for check in report-validate no-data option-docs; do
	script=tests/cli/check-$check.sh
	if [ ! -x "$script" ]; then
		fail "$script" "the runner is missing or not executable"
	elif out=$("$script" "$build/traincost"); then
		echo "$check: ok ($out)"
		passed=$((passed + 1))
	else
		printf '%s\n' "$out"
		fail "$check" "$script exited non-zero"
	fi
done
run "bad: " "broken inputs" "$nbad" tests/bad/run-bad.sh "$build/traincost" "$runner"
run "plots:" charts "" tests/plots/run-plots.sh "$build/traincost" "$runner"
# Not under a RUNNER: the CLI cases run the same code under it, and the
# accuracy gates run the model the unit suites run.
if [ -z "$runner" ]; then
	run "schema:" "output checks" "" tests/schema/run-schema.sh "$build/traincost"
	run "accuracy:" gates "" tests/accuracy/run-accuracy.sh "$build/traincost"
fi
# The walls of src/: no loops, no upward uses (docs/architecture.md); reads
# the objects, so not under a RUNNER.
run "arch:" "dependency checks" "" tests/arch/run-arch.sh "$build"
run "completion:" checks "" tests/completion/run-completion.sh "$build/traincost" "$runner"
[ -z "$runner" ] &&
	run "install:" checks "" tests/install/run-install.sh "$build"
run "data:" "checks of the shipped data" "" tests/shipped-data.sh "$build/traincost" "$build" "$runner"
echo "$passed passed, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
