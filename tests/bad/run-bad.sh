#!/bin/sh
# Run the broken-input corpus: every row of tests/bad/cases.txt through the
# real binary.  A row is
#
#   FILE | HOW | EXIT | FIRST LINE OF STDERR
#
# FILE is a file of tests/bad/.  HOW says how it is loaded:
#   check      traincost check --data tests/bad/data tests/bad/FILE
#   estimate   traincost estimate --data tests/bad/data tests/bad/FILE
#   prices     the file copied to a scratch data root as pricing/FILE, then
#              traincost prices --data ROOT (the scratch path in messages is
#              shown as tests/bad/)
#   validate   the file copied alone to a scratch folder, then
#              traincost validate --cases DIR (same path rewriting)
# EXIT is the expected exit status; the last field is the exact expected
# first line of stderr, or '-' for an empty stderr.  Standard output must
# never hold NaN or Inf.  Lines starting with '#' and blank lines are skipped.
#
# Prints "ok NAME" or "FAIL NAME: why" per row.  With TC_BAD_RECORD=1 it
# prints each row as it is now instead (to review before changing cases.txt).
# Usage: tests/bad/run-bad.sh BINARY [RUNNER]
#        (TC_SHARD=K/N: only the K-th of every N rows, from 0, for
#        tests/run-all.sh's JOBS)
bin=$1
runner=${2:-}
dir=tests/bad
. tests/test-env.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

grep -v '^#' "$dir/cases.txt" | grep -v '^[[:space:]]*$' |
awk -v shard="${TC_SHARD:-0/1}" 'BEGIN { split(shard, s, "/") } (NR - 1) % s[2] == s[1]' |
while IFS='|' read -r file how want_rc want_err; do
	file=$(printf '%s' "$file" | sed 's/^ *//; s/ *$//')
	how=$(printf '%s' "$how" | sed 's/^ *//; s/ *$//')
	want_rc=$(printf '%s' "$want_rc" | sed 's/^ *//; s/ *$//')
	want_err=$(printf '%s' "$want_err" | sed 's/^ //')
	name="bad/$file"
	if [ ! -f "$dir/$file" ]; then
		echo "FAIL $name: no such file"
		continue
	fi
	rm -rf "$tmp/root" "$tmp/cases"
	mkdir -p "$tmp/root/pricing" "$tmp/cases"
	prefix=""
	case $how in
	check|estimate)
		$runner "$bin" "$how" --data "$dir/data" "$dir/$file" \
			>"$tmp/out" 2>"$tmp/err" </dev/null ;;
	prices)
		cp "$dir/$file" "$tmp/root/pricing/$file"
		prefix="$tmp/root/pricing/"
		$runner "$bin" prices --max-age 36500 --data "$tmp/root" \
			>"$tmp/out" 2>"$tmp/err" </dev/null ;;
	validate)
		cp "$dir/$file" "$tmp/cases/$file"
		prefix="$tmp/cases/"
		$runner "$bin" validate --cases "$tmp/cases" \
			>"$tmp/out" 2>"$tmp/err" </dev/null ;;
	*)
		echo "FAIL $name: unknown way '$how'"
		continue ;;
	esac
	rc=$?
	if [ -n "$prefix" ]; then
		# Show scratch paths as the corpus path (literal, not a pattern).
		awk -v p="$prefix" -v r="$dir/" '{
			while ((i = index($0, p)) > 0)
				$0 = substr($0, 1, i - 1) r substr($0, i + length(p))
			print
		}' "$tmp/err" >"$tmp/err2" && mv "$tmp/err2" "$tmp/err"
	fi
	got_err=$(head -n 1 "$tmp/err")
	[ -s "$tmp/err" ] || got_err="-"
	if [ -n "$TC_BAD_RECORD" ]; then
		echo "$file | $how | $rc | $got_err"
		continue
	fi
	why=""
	if [ "$rc" != "$want_rc" ]; then
		why="exit $rc, expected $want_rc"
	elif [ "$got_err" != "$want_err" ]; then
		why="stderr '$got_err', expected '$want_err'"
	elif grep -qiE '(^|[^a-z])(nan|inf)([^a-z]|$)' "$tmp/out"; then
		why="stdout holds a NaN or Inf"
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: $why"
	fi
done
