#!/bin/sh
# The accuracy gates: `traincost validate --loo` on the shipped data
# (models/ and tests/validation/, what README quotes; not the frozen copy of
# tests/data/) against tests/accuracy/gates.txt, and the figures README
# (its accuracy table and cross-validation figures), docs/model.md (the
# tables of its section 7 that give today's figures), docs/calibration.md
# (the band) and docs/vision-recsys.md (its table of the shipped values)
# quote against what `traincost validate` prints (tests/accuracy/gates.py).
# Needs python3, which the output contract's checks need too; without it
# every check FAILs, it never passes.
#
# Prints "ok NAME" or "FAIL NAME: why" per gate.
# Usage: tests/accuracy/run-accuracy.sh BINARY
bin=$1
. tests/test-env.sh
TRAINCOST_PATH=.
export TRAINCOST_PATH
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL accuracy: python3 is not installed (scripts/install-deps installs it)"
	exit 0
fi
if ! "$bin" validate --loo --format json --cases tests/validation >"$tmp/loo.json" 2>"$tmp/err" ||
   ! "$bin" validate --cases tests/validation >"$tmp/table.txt" 2>>"$tmp/err"; then
	echo "FAIL accuracy: validate failed: $(head -n 3 "$tmp/err" | tr '\n' '|')"
	exit 0
fi
python3 tests/accuracy/gates.py "$tmp/loo.json" "$tmp/table.txt" ||
	echo "FAIL accuracy: tests/accuracy/gates.py exited with status $?"
# README's first example is what `make demo` prints on the shipped data:
# every line of its block (after "`make demo` prints") must be in the output.
"$bin" estimate examples/llama2-7b-a100.yaml >"$tmp/demo.txt" 2>"$tmp/err" ||
	{ echo "FAIL readme-demo: the demo failed: $(head -n 1 "$tmp/err")"; exit 0; }
awk '/`make demo` prints/ { want = 1 } want && /^```/ { if (inside) exit; inside = 1; next }
     inside' README.md >"$tmp/readme.txt"
if ! [ -s "$tmp/readme.txt" ]; then
	echo "FAIL readme-demo: README has no example block after \"\`make demo\` prints\""
elif missing=$(grep -v -x -F -f "$tmp/demo.txt" "$tmp/readme.txt"); then
	echo "FAIL readme-demo: README's first example differs from \`make demo\`: $(printf '%s' "$missing" | head -n 1)"
else
	echo "ok readme-demo"
fi
