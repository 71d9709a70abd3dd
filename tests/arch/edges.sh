#!/bin/sh
# tests/arch/edges.sh BUILD_DIR: the file-to-file uses of src/, one a line:
#   include FROM TO WHERE   FROM's WHERE (file:line) includes a header of TO
#   call    FROM TO SYMBOL  FROM's object uses SYMBOL, which TO's object defines
# FROM and TO are units: a path under src/ without its extension, so that a
# .c file and its own .h are one unit (src/model/money/cost is cost.c + cost.h).
# Calls come from `nm` on BUILD_DIR/src/**.o: a symbol an object leaves
# undefined (U) is a use of the object that defines it (T, D, B, R, ...);
# symbols no object of src/ defines (libc, libyaml, GSL) are not uses.
# POSIX sh, awk and nm only.
build=${1:-build}
if [ ! -d "$build/src" ]; then
	echo "edges.sh: no objects under $build/src (build first)" >&2
	exit 2
fi

# Includes: "#include "x.h"" resolved against the including file's folder.
find src -name '*.[ch]' | sort | xargs grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
awk -F: '
function unit(p) { sub(/\.[ch]$/, "", p); return p }
function norm(p,    n, i, k, part, out, o) { # fold "dir/../" and "./"
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "") continue
		if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
		out[++k] = part[i]
	}
	o = out[1]
	for (i = 2; i <= k; i++) o = o "/" out[i]
	return o
}
{
	file = $1; line = $2
	rest = $0; sub(/^[^"]*"/, "", rest); sub(/".*$/, "", rest)
	dir = file; sub(/\/[^\/]*$/, "", dir)
	target = norm(dir "/" rest)
	if (unit(file) != unit(target))
		print "include", unit(file), unit(target), file ":" line
}'

# Calls and data uses: defined and undefined symbols of every object.
find "$build/src" -name '*.o' | sort | while read -r obj; do
	u=${obj#"$build"/}
	u=${u%.o}
	[ -f "$u.c" ] || continue # a stale object of a source moved or removed
	nm -P "$obj" | awk -v u="$u" '{ print u, $1, $2 }'
done | awk '
$3 == "U" { use[++n] = $1 " " $2; next }
$3 ~ /^[A-Z]$/ { def[$2] = $1 }
END {
	for (i = 1; i <= n; i++) {
		split(use[i], f, " ")
		if ((f[2] in def) && def[f[2]] != f[1])
			print "call", f[1], def[f[2]], f[2]
	}
}'
