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
#                                  with TRAINCOST_HOLD_OUTPUT_S=60, so that it
#                                  waits before putting an -o file in place,
#                                  and gets SIG as soon as a file matching GLOB
#                                  exists, however fast the machine; exit is
#                                  then 128 + the signal; runs without RUNNER;
#                                  fails if the file never appears)
#   timeout: N                    (optional: a hang guard for cases that must
#                                  not block, such as opening a FIFO: the
#                                  binary is stopped after N seconds, exit 124;
#                                  N is far above the run's time, never a race)
#   cpu-seconds: N                (optional: a work bound, ulimit -t N: the
#                                  binary is killed after N seconds of its own
#                                  CPU time, whatever else the machine runs)
#   check: COMMAND                (optional, repeatable: each is run with sh
#                                  after the binary; the case fails if one
#                                  fails; $CASE_STDOUT and $CASE_STDERR are the
#                                  files holding the run's output, $CASE_BIN
#                                  the binary, to run again for a relation;
#                                  tests/cli/rel.py tests a relation between
#                                  JSON figures, check-estimate.sh and
#                                  check-fit-advice.sh whole sets of them)
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
# Any other "key:" line before the first section, a key given twice (but
# check), a section other than those four, one given twice, or a case without
# args: or exit: fails the case: a misspelt key never turns a check off.
#
# Prints "ok NAME", "skip NAME: why" or "FAIL NAME: why" per case.
# Usage: tests/cli/run-cases.sh BINARY [RUNNER]   (TC_CASES=GLOB: only those;
#        TC_SHARD=K/N: only the K-th of every N of them, from 0, for
#        tests/run-all.sh's JOBS)
bin=$1
runner=${2:-}
# For `needs:` lines: the command the binary runs under ("" when none).
CASE_RUNNER=$runner
CASE_BIN=$bin
export CASE_RUNNER CASE_BIN
. tests/test-env.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

shard=${TC_SHARD:-0/1}
i=-1
for c in tests/cli/cases/${TC_CASES:-*}.case; do
	i=$((i + 1))
	[ $((i % ${shard#*/})) -eq "${shard%/*}" ] || continue
	name=$(basename "$c" .case)
	# The form of the case file itself.
	bad=$(awk '
		BEGIN { n = split("setup needs fsize-blocks signal timeout cpu-seconds check env args exit", k, " ")
			for (i = 1; i <= n; i++) known[k[i]] = 1
			n = split("stdout stderr stdout-has stderr-has", k, " ")
			for (i = 1; i <= n; i++) section[k[i]] = 1 }
		/^--- / { body = 1
			if (!($2 in section) || NF != 2) { print "line " NR ": unknown section \"" $0 "\""; err = 1; exit }
			if (seen["--- " $2]++) { print "line " NR ": section " $2 " given twice"; err = 1; exit }
			next }
		body || /^#/ || /^[ \t]*$/ { next }
		{ key = $0; sub(/:.*/, "", key)
		  if (!(key in known) || index($0, ":") == 0) { print "line " NR ": unknown key \"" key "\" (expected one of setup, needs, fsize-blocks, signal, timeout, cpu-seconds, check, env, args, exit, or a --- section)"; err = 1; exit }
		  if (key != "check" && seen[key]++) { print "line " NR ": key " key " given twice"; err = 1; exit }
		  if (key == "check") seen[key]++ }
		END { if (!err && (!seen["args"] || !seen["exit"])) print "no args: or exit: line" }
	' "$c")
	if [ -n "$bad" ]; then
		echo "FAIL $name: $c: $bad"
		continue
	fi
	args=$(sed -n 's/^args: //p' "$c" | head -n 1)
	want_rc=$(sed -n 's/^exit: //p' "$c" | head -n 1)
	rm -rf "$tmp"/*
	CASE_TMP="$tmp/scratch"
	CASE_STDOUT="$tmp/got.stdout"
	CASE_STDERR="$tmp/got.stderr"
	CASE_BIN=$bin
	export CASE_TMP CASE_STDOUT CASE_STDERR CASE_BIN
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
	limit=$(sed -n 's/^timeout: //p' "$c" | head -n 1)
	cpu=$(sed -n 's/^cpu-seconds: //p' "$c" | head -n 1)
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
		env --default-signal=INT,QUIT TRAINCOST_HOLD_OUTPUT_S=60 $envs "$bin" "$@" \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null &
		pid=$!
		glob=${sig#* }
		tries=0
		sent=""
		# Up to 60 s for the file to appear (the binary holds it that
		# long before the rename, so it cannot finish first).
		while kill -0 "$pid" 2>/dev/null && [ $tries -lt 1200 ]; do
			set -- $(eval "echo $glob")
			[ -e "$1" ] && kill -s "${sig%% *}" "$pid" && sent=1 && break
			tries=$((tries + 1))
			sleep 0.05
		done
		[ -n "$sent" ] || kill -s KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		rc=$?
		if [ -z "$sent" ]; then
			echo "FAIL $name: no file matched $glob while the binary ran (exit $rc)"
			continue
		fi
	elif [ -n "$fsize" ]; then
		(ulimit -f "$fsize" && exec env $envs $runner "$bin" "$@") \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
		rc=$?
	elif [ -n "$limit" ]; then
		timeout "$limit" env $envs $runner "$bin" "$@" \
			>"$tmp/got.stdout" 2>"$tmp/got.stderr" </dev/null
		rc=$?
	elif [ -n "$cpu" ]; then
		(ulimit -t "$cpu" && exec env $envs $runner "$bin" "$@") \
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
	if [ -z "$why" ]; then
		why=$(sed -n 's/^check: //p' "$c" | while IFS= read -r check; do
			if ! sh -c "$check" </dev/null >&2; then
				echo "check failed: $check"
				break
			fi
		done)
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: $why"
		sed 's/^/    stderr: /' "$tmp/got.stderr" | head -n 5
	fi
done
