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
#   JOBS=N in the environment (make test JOBS=N): run N suites at a time,
#   the CLI cases and the broken inputs split into shards; every suite
#   still runs once, and the report below is the same whatever N.
build=${1:-build}
runner=${2:-}
cases=${3:-}
unset TC_CASES
. tests/test-env.sh
passed=0
skipped=0
failed=0
expected_skips=tests/expected-skips.txt
jobs=${JOBS:-1}
case $jobs in
''|*[!0-9]*|0) echo "FAIL run-all: JOBS='$jobs' is not a count of jobs"; exit 1 ;;
esac
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# First every suite runs, JOBS at a time, each writing work/NAME.out (its
# standard output), work/NAME.err and work/NAME.rc; then their reports are
# read in a fixed order.  task NAME COMMAND: queue a suite (sh words).
task() {
	printf '%s\n' "$2" >"$work/$1.cmd"
	printf '%s\n' "$1" >>"$work/queue"
}
# The shards of the CLI cases and the broken inputs: one when run one at a
# time, else four a job, so that no shard outlasts the longest unit suite.
shards=1
[ "$jobs" -gt 1 ] && shards=$((jobs * 4))

fail() { # WHAT WHY: one failure outside a runner's own lines
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# The slowest first, so that the pool ends together: the allocation-failure,
# sweep and closed-form suites take minutes under valgrind, schema and
# accuracy a minute each natively.
if [ -z "$runner" ]; then
	task schema "tests/schema/run-schema.sh '$build/traincost'"
	task accuracy "tests/accuracy/run-accuracy.sh '$build/traincost'"
fi
for t in test_alloc_fail test_sweep test_unc_closed_form; do
	[ -x "$build/tests/$t" ] && task "unit.$t" "$runner '$build/tests/$t' 2>&1"
done
ncases=$(ls tests/cli/cases/${cases:-*}.case 2>/dev/null | wc -l)
nbad=$(grep -v '^#' tests/bad/cases.txt | grep -vc '^[[:space:]]*$')
k=0
while [ $k -lt $shards ]; do
	task "cli.$k" "TC_CASES='${cases:-*}' TC_SHARD=$k/$shards tests/cli/run-cases.sh '$build/traincost' '$runner'"
	task "bad.$k" "TC_SHARD=$k/$shards tests/bad/run-bad.sh '$build/traincost' '$runner'"
	k=$((k + 1))
done
task hosting "tests/cli/check-hosting.sh '$build/traincost'"
for check in report-validate no-data option-docs; do
	task "$check" "tests/cli/check-$check.sh '$build/traincost'"
done
# The walls of src/ read the objects: not under a RUNNER.
task arch "tests/arch/run-arch.sh '$build'"
task plots "tests/plots/run-plots.sh '$build/traincost' '$runner'"
task completion "tests/completion/run-completion.sh '$build/traincost' '$runner'"
# make install and make demo (in the data checks) share the build folder:
# one after the other.
if [ -z "$runner" ]; then
	task install-data "tests/install/run-install.sh '$build' >'$work/install.out' 2>'$work/install.err'; echo \$? >'$work/install.rc'; tests/shipped-data.sh '$build/traincost' '$build' '$runner'"
else
	task install-data "tests/shipped-data.sh '$build/traincost' '$build' '$runner'"
fi
for src in tests/unit/test_*.c; do
	t=$(basename "$src" .c)
	[ -x "$build/tests/$t" ] && ! [ -f "$work/unit.$t.cmd" ] && task "unit.$t" "$runner '$build/tests/$t' 2>&1"
done
# A runner script that is missing or not executable fails to start here,
# and its report below fails the run.
xargs -P "$jobs" -n 1 sh -c 'sh "$0/$1.cmd" >"$0/$1.out" 2>"$0/$1.err"; echo $? >"$0/$1.rc"' \
	"$work" <"$work/queue"
# install wrote its own files; the rest were the data checks'.
if [ -f "$work/install-data.out" ]; then
	mv "$work/install-data.out" "$work/data.out"
	mv "$work/install-data.err" "$work/data.err"
	mv "$work/install-data.rc" "$work/data.rc"
fi

# Standard error of a suite, as it would have appeared, then its output.
out_of() { cat "$work/$1.err" >&2 2>/dev/null; cat "$work/$1.out"; }
rc_of() { cat "$work/$1.rc" 2>/dev/null || echo 1; }

for src in tests/unit/test_*.c; do
	t=$build/tests/$(basename "$src" .c)
	if [ ! -x "$t" ]; then
		fail "$(basename "$t")" "no executable $t for $src"
		continue
	fi
	out=$(cat "$work/unit.$(basename "$t").out")
	rc=$(rc_of "unit.$(basename "$t")")
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

# report LABEL WHAT WANT RUNNER-SCRIPT NAME...: the reports of a runner that
# must be there and executable, from the suites NAME... it ran as (their
# outputs joined, the worst status); WANT is the number of reports its
# files call for, or "".
report() {
	label=$1
	what=$2
	want=$3
	script=$4
	shift 4
	if [ ! -f "$script" ] || [ ! -x "$script" ]; then
		fail "$script" "the runner is missing or not executable"
		return
	fi
	out=""
	worst=0
	for name in "$@"; do
		out="$out$(out_of "$name")
"
		rc=$(rc_of "$name")
		[ "$rc" -gt "$worst" ] && worst=$rc
	done
	tally "$label" "$what" "$worst" "$out" "$want"
}
shard_names() { # PREFIX: PREFIX.0 .. PREFIX.(shards-1)
	k=0
	while [ $k -lt $shards ]; do
		printf '%s ' "$1.$k"
		k=$((k + 1))
	done
}

report "cli: " cases "$ncases" tests/cli/run-cases.sh $(shard_names cli)
[ -z "$cases" ] || echo "cli:  narrowed to the cases '$cases' ($ncases of $(ls tests/cli/cases/*.case | wc -l))"
# compare and plan never choose an offer that cannot host the plan (one
# check over every example; the script prints how many choices it saw).
# report's validation table is validate's per-GPU table, figure by figure;
# without its data every command says which folders it searched; help, man
# pages and completion name the options of the tables, and the pages render
# without warnings.
for check in hosting report-validate no-data option-docs; do
	script=tests/cli/check-$check.sh
	if [ ! -x "$script" ]; then
		fail "$script" "the runner is missing or not executable"
	elif [ "$(rc_of "$check")" -eq 0 ]; then
		cat "$work/$check.err" >&2
		echo "$check: ok ($(cat "$work/$check.out"))"
		passed=$((passed + 1))
	else
		out_of "$check"
		fail "$check" "$script exited non-zero"
	fi
done
report "bad: " "broken inputs" "$nbad" tests/bad/run-bad.sh $(shard_names bad)
report "plots:" charts "" tests/plots/run-plots.sh plots
# Not under a RUNNER: the CLI cases run the same code under it, and the
# accuracy gates run the model the unit suites run.
if [ -z "$runner" ]; then
	report "schema:" "output checks" "" tests/schema/run-schema.sh schema
	report "accuracy:" gates "" tests/accuracy/run-accuracy.sh accuracy
fi
# The walls of src/: no loops, no upward uses (docs/architecture.md).
report "arch:" "dependency checks" "" tests/arch/run-arch.sh arch
report "completion:" checks "" tests/completion/run-completion.sh completion
[ -z "$runner" ] &&
	report "install:" checks "" tests/install/run-install.sh install
report "data:" "checks of the shipped data" "" tests/shipped-data.sh data
echo "$passed passed, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
