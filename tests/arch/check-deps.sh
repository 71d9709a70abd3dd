#!/bin/sh
# tests/arch/check-deps.sh BUILD_DIR [DOC [KNOWN [EXTRA]]]: the walls of src/.
#
# Reads every file-to-file use of src/ (tests/arch/edges.sh: the includes,
# and the calls and data uses that `nm` finds in BUILD_DIR/src/**.o) and
# checks them against the layer table of docs/architecture.md (DOC):
#   loop    a set of units that use each other, directly or through others
#           (a strongly connected component of more than one unit; a .c and
#           its own .h are one unit)
#   upward  a unit using a unit of a layer its own layer may not use (the
#           table's "may use", followed transitively, plus the layer itself
#           and the single uses the allowance table of DOC names)
#   unplaced a unit no row of the layer table matches
# Today's violations are listed in tests/arch/known.txt (KNOWN), one a line,
# each with why it is there; the set found must be exactly that list: a new
# violation fails, and so does a listed one that is gone (remove its line).
#
# Prints "ok NAME" / "FAIL NAME: why" lines for tests/run-all.sh and one
# line of counts:  arch: ... loops N (units in loops N), upward uses N ...
# POSIX sh, awk and nm only.
build=${1:-build}
doc=${2:-docs/architecture.md}
known=${3:-tests/arch/known.txt}
extra=${4:-} # more uses, in edges.sh's form (tests/arch/run-arch.sh checks that they fail)
here=$(dirname "$0")
tmp=${TMPDIR:-/tmp}/tc-arch.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

for f in "$doc" "$known"; do
	if [ ! -f "$f" ]; then
		echo "FAIL arch: $f is missing"
		exit 0
	fi
done
if ! "$here/edges.sh" "$build" >"$tmp.edges"; then
	echo "FAIL arch: tests/arch/edges.sh could not read $build/src"
	exit 0
fi
[ -z "$extra" ] || cat "$extra" >>"$tmp.edges"
find src -name '*.[ch]' | sed 's/\.[ch]$//' | sort -u >"$tmp.units"

awk -v doc="$doc" -v known="$known" '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
# A row pattern (a path under src/, "*" within one folder name) as a regex.
function glob_re(g,    r) {
	g = trim(g); gsub(/`/, "", g); sub(/\.[ch]$/, "", g)
	r = g
	gsub(/\./, "\\.", r)
	gsub(/\*/, "[^/]*", r)
	return "^" r "$"
}
function layer_of(u,    i, k) {
	for (i = 1; i <= nrows; i++)
		for (k = 1; k <= npat[i]; k++)
			if (u ~ pat[i, k]) return rowname[i]
	return ""
}

# docs/architecture.md: the rows between <!-- arch-layers --> and
# <!-- /arch-layers -->: | layer | `pattern` ... | may use, ... | owns |;
# between <!-- arch-allowed --> and <!-- /arch-allowed -->: | `from` | `to` | why |.
FILENAME == doc {
	if ($0 ~ /<!-- arch-layers -->/) { part = "layers"; next }
	if ($0 ~ /<!-- arch-allowed -->/) { part = "allowed"; next }
	if ($0 ~ /<!-- \/arch-/) { part = ""; next }
	if (part == "" || $0 !~ /^\|/ || $0 ~ /^\|[- |]*$/) next
	n = split($0, c, "|")
	if (part == "layers") {
		name = trim(c[2])
		if (name == "Layer") next
		rowname[++nrows] = name
		np = split(c[3], p, /[ ,]+/)
		npat[nrows] = 0
		for (k = 1; k <= np; k++)
			if (trim(p[k]) != "") pat[nrows, ++npat[nrows]] = glob_re(p[k])
		nu = split(c[4], m, /[ ,]+/)
		for (k = 1; k <= nu; k++) {
			x = trim(m[k]); gsub(/`/, "", x)
			if (x != "" && x != "-" && x != "nothing") may[name, x] = 1
		}
	} else {
		from = trim(c[2]); to = trim(c[3]); gsub(/`/, "", from); gsub(/`/, "", to)
		if (from == "From") next
		allowed[from, to] = 1
	}
	next
}
# Known violations: "loop U1 U2 ..." or "upward FROM TO"; "#" starts a comment.
FILENAME == known {
	sub(/#.*/, "")
	line = trim($0)
	if (line == "") next
	gsub(/[ \t]+/, " ", line)
	listed[line] = 1
	next
}
FILENAME ~ /\.units$/ { unit[++nunits] = $1; isunit[$1] = 1; next }
# Edges: kind from to witness.
{
	key = $2 SUBSEP $3
	if (!(key in adj)) {
		adj[key] = 1
		out[$2] = out[$2] " " $3
		nedges++
	}
	if (!(key in why)) why[key] = ($1 == "include" ? $4 " includes it" : $2 " calls " $4)
	if (!(($1, key) in bykind)) { bykind[$1, key] = 1; if ($1 == "include") nincl++; else ncall++ }
}
END {
	# The transitive "may use" of each layer (itself included).
	for (i = 1; i <= nrows; i++) may[rowname[i], rowname[i]] = 1
	changed = 1
	while (changed) {
		changed = 0
		for (i = 1; i <= nrows; i++) for (j = 1; j <= nrows; j++) for (k = 1; k <= nrows; k++) {
			a = rowname[i]; b = rowname[j]; d = rowname[k]
			if ((a, b) in may && (b, d) in may && !((a, d) in may)) { may[a, d] = 1; changed = 1 }
		}
	}
	for (i = 1; i <= nunits; i++) {
		u = unit[i]; lay[u] = layer_of(u)
		if (lay[u] == "") found["unplaced " u] = "no row of the layer table in " doc " matches it"
	}
	# Reachability from every unit (depth-first, explicit stack).
	for (i = 1; i <= nunits; i++) {
		s = unit[i]; sp = 0; stack[++sp] = s
		while (sp > 0) {
			v = stack[sp--]
			n = split(out[v], nx, " ")
			for (k = 1; k <= n; k++)
				if (!((s, nx[k]) in reach)) { reach[s, nx[k]] = 1; stack[++sp] = nx[k] }
		}
	}
	# Loops: the units that reach each other; a loop is named by its sorted members.
	for (i = 1; i <= nunits; i++) {
		u = unit[i]
		if (u in done || !((u, u) in reach)) continue
		members = ""; cnt = 0
		for (j = 1; j <= nunits; j++) {
			w = unit[j]   # units are sorted, so members come out sorted
			if ((u, w) in reach && (w, u) in reach) { members = members " " w; done[w] = 1; cnt++ }
		}
		if (cnt < 2) continue
		nloops++; inloops += cnt
		found["loop" members] = "for example " cycle(u)
	}
	# Upward uses.
	for (key in adj) {
		split(key, e, SUBSEP)
		a = lay[e[1]]; b = lay[e[2]]
		if (a == "" || b == "" || (a, b) in may) continue
		if ((e[1], e[2]) in allowed) { allowed_used[e[1], e[2]] = 1; continue }
		found["upward " e[1] " " e[2]] = a " may not use " b " (" why[key] ")"
		nup++
		if (e[1] ~ /^src\/model\// && e[2] ~ /^src\/model\//) nup_model++
		if (e[1] ~ /^src\/io\// && e[2] ~ /^src\/io\//) nup_io++
	}
	for (v in found) {
		if (v in listed) { nknown++; continue }
		what = v; sub(/ .*/, "", what)
		print "FAIL arch-" what ": " v " (not in " known "): " found[v]
		bad[what]++
	}
	for (k in allowed)
		if (!(k in allowed_used)) {
			split(k, e, SUBSEP)
			print "FAIL arch-allowed: " doc " allows " e[1] " to use " e[2] ", which it does not, or may anyway: remove the row"
			bad["allowed"]++
		}
	for (v in listed)
		if (!(v in found)) {
			print "FAIL arch-known: \"" v "\" is listed in " known " but no longer found: remove its line"
			bad["known"]++
		}
	for (k = split("loop upward unplaced allowed known", kinds, " "); k > 0; k--)
		if (!(kinds[k] in bad)) print "ok arch-" kinds[k]
	printf "arch: %d units, %d uses (%d includes, %d calls); loops %d (units in loops %d), upward uses %d (inside src/model %d, inside src/io %d); listed in %s: %d\n", \
		nunits, nedges, nincl, ncall, nloops + 0, inloops + 0, nup + 0, nup_model + 0, nup_io + 0, known, nknown + 0
}
# One cycle through u: breadth-first from u back to u, with the why of each step.
function cycle(u,    q, h, t, v, n, nx, k, w, prev, path, seen) {
	h = 1; t = 0
	n = split(out[u], nx, " ")
	for (k = 1; k <= n; k++) if (!(nx[k] in seen) && (nx[k], u) in reach) { seen[nx[k]] = 1; prev[nx[k]] = u; q[++t] = nx[k] }
	while (h <= t) {
		v = q[h++]
		if (v == u) break
		n = split(out[v], nx, " ")
		for (k = 1; k <= n; k++) {
			w = nx[k]
			if (!(w in seen) && (w, u) in reach) { seen[w] = 1; prev[w] = v; q[++t] = w }
		}
	}
	path = ""; w = u
	do {
		v = prev[w]
		path = v " -> " w " (" why[v SUBSEP w] ")" (path == "" ? "" : "; " path)
		w = v
	} while (w != u)
	return path
}
' "$doc" "$known" "$tmp.units" "$tmp.edges" | sort
