#!/bin/sh
# Run the CLI golden cases: tests/cli/cases/*.case, one file each:
#
#   # what the case checks
#   setup: COMMAND                (optional: run first with sh; $CASE_TMP is a
#                                  scratch folder, emptied for every case)
#   needs: COMMAND                (optional, after setup: if it fails the case
#                                  is skipped, "skip NAME: needs COMMAND";
#                                  $CASE_RUNNER is the command the binary runs
#                                  under, empty when none)
#   fsize-blocks: N               (optional: the binary runs under ulimit -f N,
#                                  so a write past N blocks fails like a full
#                                  disk)
#   signal: SIG GLOB              (optional: the binary runs in the background
#                                  and gets SIG as soon as a file matching GLOB
#                                  exists; exit is then 128 + the signal;
#                                  runs without RUNNER)
#   timeout: N                    (optional: the binary is stopped after N
#                                  seconds, exit 124, for cases that must
#                                  not hang)
#   check: COMMAND                (optional: run with sh after the binary; the
#                                  case fails if it fails; $CASE_STDOUT is the
#                                  file holding the run's standard output,
#                                  $CASE_BIN the binary, for a second run)
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
# Prints "ok NAME", "skip NAME: why" or "FAIL NAME: why" per case.
# Usage: tests/cli/run-cases.sh BINARY [RUNNER]   (TC_CASES=GLOB: only those)
bin=$1
runner=${2:-}
# For `needs:` lines: the command the binary runs under ("" when none).
CASE_RUNNER=$runner
CASE_BIN=$bin
export CASE_RUNNER CASE_BIN
. tests/test-env.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

for c in tests/cli/cases/${TC_CASES:-*}.case; do
	name=$(basename "$c" .case)
	args=$(sed -n 's/^args: //p' "$c" | head -n 1)
	want_rc=$(sed -n 's/^exit: //p' "$c" | head -n 1)
	rm -rf "$tmp"/*
	CASE_TMP="$tmp/scratch"
	CASE_STDOUT="$tmp/got.stdout"
	export CASE_TMP CASE_STDOUT
	mkdir "$CASE_TMP"
	setup=$(sed -n 's/^setup: //p' "$c" | head -n 1)
	if [ -n "$setup" ] && ! sh -c "$setup"; then
		echo "FAIL $name: setup failed"
		continue
	fi
	needs=$(sed -n 's/^needs: //p' "$c" | head -n 1)
	if [ -n "$needs" ] && ! sh -c "$needs" >/dev/null 2>&1; then
		echo "skip $name: needs $needs"
		continue
	fi
	fsize=$(sed -n 's/^fsize-blocks: //p' "$c" | head -n 1)
	sig=$(sed -n 's/^signal: //p' "$c" | head -n 1)
	check=$(sed -n 's/^check: //p' "$c" | head -n 1)
	limit=$(sed -n 's/^timeout: //p' "$c" | head -n 1)
	# Split the sections into files named after their headers.
	awk -v dir="$tmp" '
		/^--- / { out = dir "/want." $2; printf "" > out; next }
		out { print > out }
	' "$c"
	envs=$(sed -n 's/^env: //p' "$c" | head -n 1)
	eval "set -- $args"
	if [ -n "$sig" ]; then
		# A background job starts with SIGINT and SIGQUIT ignored, and
		# the tool rightly keeps ignored signals ignored: reset them.
		env --default-signal=INT,QUIT $envs "$bin" "$@" \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null &
		pid=$!
		glob=${sig#* }
		tries=0
		# Up to 20 s for the file to appear (a slow build under valgrind).
		while kill -0 "$pid" 2>/dev/null && [ $tries -lt 400 ]; do
			set -- $(eval "echo $glob")
			[ -e "$1" ] && kill -s "${sig%% *}" "$pid" && break
			tries=$((tries + 1))
			sleep 0.05
		done
		wait "$pid" 2>/dev/null
		rc=$?
	elif [ -n "$fsize" ]; then
		(ulimit -f "$fsize" && exec env $envs $runner "$bin" "$@") \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
		rc=$?
	elif [ -n "$limit" ]; then
		timeout "$limit" env $envs $runner "$bin" "$@" \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
		rc=$?
	else
		env $envs $runner "$bin" "$@" >"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
		rc=$?
	fi
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
	if [ -z "$why" ] && [ -n "$check" ] && ! sh -c "$check"; then
		why="check failed: $check"
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: $why"
		sed 's/^/    stderr: /' "$tmp/got.stderr" | head -n 5
	fi
done
