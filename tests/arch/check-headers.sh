#!/bin/sh
# tests/arch/check-headers.sh [BUILD_DIR [DIR]]: one header per .c file
# (docs/architecture.md, "Headers:").
#   - every DIR/**/*.c (DIR: src) but main.c has a header of its own name
#     (foo.c: foo.h);
#   - a function or object a .c defines (its objects' symbols in BUILD_DIR,
#     read with nm) is declared in the header of that .c, in no other;
#   - so a header with no .c of its name holds only what belongs to no
#     single .c (types, constants, static inline helpers): no function
#     and no extern object at all.
# A declaration is a line that starts with a name in column 0 and has a "("
# (a function: the project's style puts its return type and name on one
# line) or starts with "extern"; the name is the last word before the "("
# (before "[", "," or ";" for an object).  Prints "ok arch-headers" or
# "FAIL arch-headers: why" lines.  POSIX sh, awk and nm only.
build=${1:-build}
dir=${2:-src}
tmp=${TMPDIR:-/tmp}/tc-arch-headers.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

# "SYMBOL UNIT" for every symbol the objects of DIR define (an object left
# in BUILD_DIR by a source since moved or removed is not read).
: >"$tmp.defs"
for o in $(find "$build/$dir" -name '*.o' 2>/dev/null | sort); do
	u=${o#"$build/"}
	u=${u%.o}
	[ -f "$u.c" ] || continue
	nm "$o" 2>/dev/null | awk -v u="$u" '$2 ~ /^[BDRT]$/ && $3 !~ /\./ { print $3, u }'
done >"$tmp.defs"

out=$(
	find "$dir" -name '*.c' ! -path "$dir/main.c" | sort | while read -r c; do
		[ -f "${c%.c}.h" ] || echo "$c has no header of its own (expected ${c%.c}.h)"
	done
	find "$dir" -name '*.h' | sort >"$tmp.headers"
	awk '
		FILENAME ~ /\.defs$/ { unit[$1] = $2; next }
		FNR == 1 { h = FILENAME; own = h; sub(/\.h$/, "", own); alone = 1
			   c = own ".c"; if ((getline line < c) >= 0) { alone = 0; close(c) } }
		/^(static|typedef|#)/ { next }
		/^extern[ \t]/ || /^[A-Za-z_][^#]*\(/ {
			s = $0
			if (s ~ /^extern[ \t]/) { sub(/[[,;=].*/, "", s) } else { sub(/\(.*/, "", s) }
			sub(/[ \t]+$/, "", s)
			name = s; sub(/.*[^A-Za-z0-9_]/, "", name)
			if (alone)
				print h ":" FNR ": a header without a .c declares " name " (expected it in the header of the .c that defines it)"
			else if (name in unit && unit[name] != own)
				print h ":" FNR ": declares " name ", which " unit[name] ".c defines (expected it in " unit[name] ".h)"
		}' "$tmp.defs" $(cat "$tmp.headers")
)
if [ ! -s "$tmp.defs" ]; then
	echo "FAIL arch-headers: no objects under $build/$dir to read the definitions from"
elif [ -n "$out" ]; then
	printf '%s\n' "$out" | sed 's/^/FAIL arch-headers: /'
else
	echo "ok arch-headers"
fi
