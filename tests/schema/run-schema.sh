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

# The shared fields are described once, in src/report/out_fields.h: the
# schemas must say what the catalog says.
if why=$(python3 tests/schema/fields-check.py 2>&1); then
	echo "ok fields-described-once"
else
	echo "FAIL fields-described-once: $why"
fi

# One uncertainty object (src/report/unc_json.c writes it for every
# command): every schema must describe it the same way.
if why=$(python3 - <<'PY' 2>&1
import glob, json
seen = []
def walk(node, where):
    if isinstance(node, dict):
        for key, val in node.items():
            if key == "properties" and isinstance(val, dict) and "uncertainty" in val:
                seen.append((where, json.dumps(val["uncertainty"], sort_keys=True)))
            walk(val, where + "/" + key)
    elif isinstance(node, list):
        for i, val in enumerate(node):
            walk(val, where + "/" + str(i))
for path in sorted(glob.glob("docs/schema/*.schema.json")):
    walk(json.load(open(path)), path)
for where, text in seen[1:]:
    if text != seen[0][1]:
        raise SystemExit("%s describes uncertainty unlike %s" % (where, seen[0][0]))
if len(seen) < 4:
    raise SystemExit("found %d uncertainty objects, expected estimate, compare and plan's four" % len(seen))
PY
); then
	echo "ok same-uncertainty"
else
	echo "FAIL same-uncertainty: $why"
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

# A run's optional parts, each in braces ({--pricing spot}), expand to every
# combination of them: a line with k groups is 2^k runs, the first without
# any.  The count of runs is printed as "ok runs-N".
expand_runs() {
	grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | awk '
	{
		line = $0; fixed = ""; k = 0
		while (match(line, /\{[^}]*\}/)) {
			fixed = fixed substr(line, 1, RSTART - 1)
			k++; group[k] = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		}
		fixed = fixed line
		for (m = 0; m < 2 ^ k; m++) {
			out = fixed
			for (i = 1; i <= k; i++)
				if (int(m / 2 ^ (i - 1)) % 2)
					out = out " " group[i]
			gsub(/[ \t]+/, " ", out); sub(/ $/, "", out)
			print out
		}
	}'
}

n=0
: >"$tmp/list"
expand_runs "$here/runs.txt" >"$tmp/runs"
echo "ok runs-$(wc -l <"$tmp/runs" | tr -d ' ')"
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
