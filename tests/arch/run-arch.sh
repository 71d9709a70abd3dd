#!/bin/sh
# tests/arch/run-arch.sh BUILD_DIR: the dependency check of src/
# (tests/arch/check-deps.sh against docs/architecture.md and
# tests/arch/known.txt), then the same check with one use added that breaks
# each rule, to show it fails: an include that closes a loop (fields.h
# including wl_load.h, whose loaders include fields.h) and one that goes up
# (util/units.c including io/wl_load.h), and one across the walls of
# src/model's folders (core/roofline.c including families/llm.h); then the
# sizes of functions and files (check-sizes.sh), with a function one line
# too long to show that check fails too; then one header per .c file
# (check-headers.sh), with a small tree that breaks each of its rules.
# Prints "ok NAME" / "FAIL NAME: why".
build=${1:-build}
here=$(dirname "$0")
tmp=${TMPDIR:-/tmp}/tc-arch-run.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

"$here/check-deps.sh" "$build"

# mutant NAME WANT EDGE: the check with EDGE added must print a FAIL line of WANT.
mutant() {
	printf '%s\n' "$3" >"$tmp.edge"
	out=$("$here/check-deps.sh" "$build" docs/architecture.md tests/arch/known.txt "$tmp.edge")
	if printf '%s\n' "$out" | grep -q "^FAIL $2: "; then
		echo "ok $1"
	else
		echo "FAIL $1: adding '$3' did not fail with $2; the check said:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}
mutant arch-mutant-loop arch-loop 'include src/io/fields src/io/wl_load src/io/fields.h:1'
mutant arch-mutant-upward arch-upward 'include src/util/units src/io/wl_load src/util/units.c:1'
mutant arch-mutant-folder-wall arch-upward 'include src/model/core/roofline src/model/families/llm src/model/core/roofline.c:1'

# No function over 120 lines, no file over 900; and a function of 121
# lines (its name's line, the braces, 118 lines between) must fail.
"$here/check-sizes.sh"
{
	echo 'int too_long(void)'
	echo '{'
	i=0
	while [ $i -lt 118 ]; do echo '	;'; i=$((i + 1)); done
	echo '}'
} >"$tmp.long.c"
if "$here/check-sizes.sh" "$tmp.long.c" | grep -q '^FAIL arch-sizes: .*: too_long is 121 lines'; then
	echo "ok arch-mutant-size"
else
	echo "FAIL arch-mutant-size: a function of 121 lines did not fail the size check"
fi

# One header per .c file; and a tree with a .c without its header, a
# header declaring another .c's function and a header alone declaring one
# must fail with each of the three.
"$here/check-headers.sh" "$build"
t=$tmp.tree
mkdir -p "$t/src/a" "$t/build/src/a"
printf 'int a_one(void) { return 1; }\n' >"$t/src/a/x.c"
printf 'int a_one(void);\n' >"$t/src/a/y.h"
printf '#include "y.h"\nint y_two(void) { return a_one(); }\n' >"$t/src/a/y.c"
printf 'int a_three(void);\n' >"$t/src/a/shared.h"
if ${CC:-cc} -c "$t/src/a/x.c" -o "$t/build/src/a/x.o"; then
	here_abs=$(cd "$here" && pwd)
	out=$(cd "$t" && "$here_abs/check-headers.sh" build src)
	if printf '%s\n' "$out" | grep -q '^FAIL arch-headers: src/a/x.c has no header' &&
	   printf '%s\n' "$out" | grep -q '^FAIL arch-headers: src/a/y.h:1: declares a_one, which src/a/x.c defines' &&
	   printf '%s\n' "$out" | grep -q '^FAIL arch-headers: src/a/shared.h:1: a header without a .c declares a_three'; then
		echo "ok arch-mutant-headers"
	else
		echo "FAIL arch-mutant-headers: the tree that breaks each rule did not fail each; the check said:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
else
	echo "FAIL arch-mutant-headers: could not compile the test tree with ${CC:-cc}"
fi
rm -rf "$t"
