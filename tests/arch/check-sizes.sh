#!/bin/sh
# tests/arch/check-sizes.sh [FILE...]: no function of src/ longer than 120
# lines and no file longer than 900 (docs/architecture.md, "Sizes:").  A
# function is counted from the line of its name to its closing brace in
# column 0, the project's C style.  Prints "ok arch-sizes" or
# "FAIL arch-sizes: FILE:LINE: NAME is N lines (expected at most 120)".
# POSIX sh and awk only.
max_fn=120
max_file=900
[ $# -gt 0 ] || set -- $(find src -name '*.[ch]' | sort)
out=$(awk -v max_fn="$max_fn" -v max_file="$max_file" '
FNR == 1 { if (prev != "" && lines > max_file) bad(prev ": " lines " lines (expected at most " max_file ")"); prev = FILENAME; lines = 0; name = ""; start = 0 }
function bad(s) { print s; n++ }
{ lines++ }
/^[A-Za-z_][A-Za-z0-9_ \t*,()]*\(/ && !/;[ \t]*$/ && !/^(if|for|while|switch|return)[ (]/ { name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name); start = FNR }
/^\{/ && start && !body { body = 1 }
/^\}/ && body { len = FNR - start + 1; if (len > max_fn) bad(FILENAME ":" start ": " name " is " len " lines (expected at most " max_fn ")"); body = 0; start = 0 }
END { if (lines > max_file) bad(prev ": " lines " lines (expected at most " max_file ")") }
' "$@")
if [ -n "$out" ]; then
	printf '%s\n' "$out" | sed 's/^/FAIL arch-sizes: /'
else
	echo "ok arch-sizes"
fi
