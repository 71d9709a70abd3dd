#!/bin/sh
# The output contract (docs/output-format.md): every run of
# tests/schema/runs.txt once per value its command lists for --format;
# JSON must validate against its schema (docs/schema/), the CSV header must
# hold the documented columns, table and md must write something (md: a
# Markdown table).  Also: the document is current with the schemas, every
# command with a --format has a run, and every schema is used.
#
# Needs python3 with jsonschema (Debian: python3-jsonschema, installed by
# scripts/install-deps); without it every check FAILs, it never passes.
# Runs without RUNNER: the same binary runs under valgrind in the CLI cases.
#
# Prints "ok NAME" or "FAIL NAME: why" per run and format.
# Usage: tests/schema/run-schema.sh BINARY
bin=$1
. tests/test-env.sh
here=tests/schema
if ! out=$(python3 -c 'import jsonschema' 2>&1); then
	echo "FAIL schema: python3-jsonschema is not installed (scripts/install-deps installs it): $out"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if why=$(scripts/output-doc --check 2>&1); then
	echo "ok output-format-doc"
else
	echo "FAIL output-format-doc: $why"
fi

# The commands with a --format, from the binary's own tables.
"$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' >"$tmp/commands"
while read -r cmd; do
	[ "$cmd" = help ] && continue
	if "$bin" "$cmd" --list-options 2>/dev/null | grep -q '^format	'; then
		if grep -v '^#' "$here/runs.txt" | grep -q "| $cmd\( \|$\)"; then
			echo "ok covered-$cmd"
		else
			echo "FAIL covered-$cmd: $cmd takes --format but tests/schema/runs.txt has no run of it"
		fi
	fi
done <"$tmp/commands"
for s in docs/schema/*.schema.json; do
	name=$(basename "$s" .schema.json)
	if grep -q "^$name |" "$here/runs.txt"; then
		echo "ok used-$name"
	else
		echo "FAIL used-$name: no run of tests/schema/runs.txt checks $s"
	fi
done

n=0
: >"$tmp/list"
grep -v '^#' "$here/runs.txt" >"$tmp/runs"
while IFS='|' read -r schema args; do
	schema=$(echo $schema)
	n=$((n + 1))
	cmd=$(echo $args | cut -d' ' -f1)
	formats=$("$bin" "$cmd" --list-options | awk -F '\t' '$1 == "format" { for (i = 3; i <= NF; i++) print $i }')
	if [ -z "$formats" ]; then
		echo "FAIL $schema-$n: $cmd lists no --format values"
		continue
	fi
	for fmt in $formats; do
		name="$schema-$n-$fmt"
		# shellcheck disable=SC2086 # the arguments are words
		"$bin" $args --format "$fmt" >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		# 5: the plan does not fit in GPU memory, an answer with its report.
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then
			echo "FAIL $name: exit $rc: $(head -c 300 "$tmp/err")"
			continue
		fi
		if [ ! -s "$tmp/out" ]; then
			echo "FAIL $name: no output"
			continue
		fi
		case $fmt in
		json | csv)
			# Checked all at once below: one interpreter for every file.
			cp "$tmp/out" "$tmp/$name.$fmt"
			echo "$name ($args)|$schema|$fmt|$tmp/$name.$fmt" >>"$tmp/list"
			;;
		md)
			if grep -q '^| --- ' "$tmp/out" || grep -q '^| ---:' "$tmp/out"; then
				echo "ok $name"
			else
				echo "FAIL $name ($args): no Markdown table in the output"
			fi
			;;
		*)
			echo "ok $name"
			;;
		esac
	done
done <"$tmp/runs"
if ! python3 "$here/check.py" --batch "$tmp/list" 2>"$tmp/err"; then
	echo "FAIL schema-check: $(head -c 300 "$tmp/err")"
fi
