#!/bin/sh
# Run the CLI golden cases: tests/cli/cases/*.case, one file each:
#
#   # what the case checks
#   setup: COMMAND                (optional: run first with sh; $CASE_TMP is a
#                                  scratch folder, emptied for every case)
#   env: TRAINCOST_TODAY=2027-12-01  (optional: NAME=VALUE words added to the
#                                  environment of the run, after
#                                  tests/test-env.sh's)
#   args: gpus show l40s          (shell words, run from the repository root;
#                                  may use $CASE_TMP)
#   exit: 0
#   --- stdout                    (exact expected stdout; or stderr)
#   ...
#   --- stdout-has                (each line must appear somewhere in stdout;
#   ...                            or stderr-has)
#
# Prints "ok NAME" or "FAIL NAME: why" per case.
# Usage: tests/cli/run-cases.sh BINARY [RUNNER]
bin=$1
runner=${2:-}
. tests/test-env.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

for c in tests/cli/cases/*.case; do
	name=$(basename "$c" .case)
	args=$(sed -n 's/^args: //p' "$c" | head -n 1)
	want_rc=$(sed -n 's/^exit: //p' "$c" | head -n 1)
	rm -rf "$tmp"/*
	CASE_TMP="$tmp/scratch"
	export CASE_TMP
	mkdir "$CASE_TMP"
	setup=$(sed -n 's/^setup: //p' "$c" | head -n 1)
	if [ -n "$setup" ] && ! sh -c "$setup"; then
		echo "FAIL $name: setup failed"
		continue
	fi
	# Split the sections into files named after their headers.
	awk -v dir="$tmp" '
		/^--- / { out = dir "/want." $2; printf "" > out; next }
		out { print > out }
	' "$c"
	envs=$(sed -n 's/^env: //p' "$c" | head -n 1)
	eval "set -- $args"
	env $envs $runner "$bin" "$@" >"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
	rc=$?
	why=""
	if [ "$rc" != "$want_rc" ]; then
		why="exit $rc, expected $want_rc"
	fi
	for s in stdout stderr; do
		if [ -z "$why" ] && [ -f "$tmp/want.$s" ] &&
		   ! cmp -s "$tmp/want.$s" "$tmp/got.$s"; then
			why="$s differs: $(diff "$tmp/want.$s" "$tmp/got.$s" | head -n 6 | tr '\n' '|')"
		fi
		if [ -z "$why" ] && [ -f "$tmp/want.$s-has" ]; then
			while IFS= read -r line; do
				if ! grep -qF -- "$line" "$tmp/got.$s"; then
					why="$s lacks '$line'"
					break
				fi
			done <"$tmp/want.$s-has"
		fi
	done
	if [ -z "$why" ] && grep -qiE '(^|[^a-z])(nan|inf)([^a-z]|$)' "$tmp/got.stdout"; then
		why="stdout holds a NaN or Inf"
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: $why"
		sed 's/^/    stderr: /' "$tmp/got.stderr" | head -n 5
	fi
done
