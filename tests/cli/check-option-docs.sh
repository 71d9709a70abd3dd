#!/bin/sh
# Help, man page and completion say the same as the option tables: for
# every command of `traincost --help`, the options of its table (what
# `CMD --list-options` prints, as the completion reads it) are exactly
#   - the options its --help describes (the lines "  --name ...");
#   - the options its man page's SYNOPSIS names (scripts/man-command),
#     --data and --help apart, and those its OPTIONS section describes;
#   - the options `traincost completion bash` offers for it;
# and every choice of an option is in its help and in the completion.
# Then traincost(1) names every command (SYNOPSIS, COMMANDS, SEE ALSO), the
# copies under man/ are current, and every man page (the
# commands', traincost(1), traincost-workload(5)) renders with `man -l`
# without a warning.
# Prints "checked N commands, M pages"; on a difference, what differs, and
# exits 1.
# The man pages are made as `make install` makes them (make man, into the
# binary's build folder).
# Usage: tests/cli/check-option-docs.sh BINARY
bin=$1
build=$(dirname "$bin")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
make -s --no-print-directory man BUILD="$build" >"$tmp/make" 2>&1 ||
	{ echo "make man failed: $(head -c 300 "$tmp/make")"; exit 1; }
bad=0
n=0
differ() { # WHAT WANT GOT
	echo "$1: expected '$(echo $2)', got '$(echo $3)'"
	bad=1
}
"$bin" completion bash >"$tmp/bash" || { echo "completion bash failed"; exit 1; }
for cmd in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'); do
	case $cmd in help | completion) continue ;; esac
	n=$((n + 1))
	"$bin" "$cmd" --list-options >"$tmp/table" || { echo "$cmd --list-options failed"; bad=1; continue; }
	table=$(cut -f1 "$tmp/table" | sort)
	"$bin" help "$cmd" >"$tmp/help" || { echo "help $cmd failed"; bad=1; continue; }
	help=$(sed -n 's/^  \(-[a-z], \)\{0,1\}--\([a-z-]*\).*/\2/p' "$tmp/help" | sort)
	[ "$help" = "$table" ] || differ "$cmd: --help's options" "$table" "$help"

	page=$build/man/traincost-$cmd.1
	synopsis=$(awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$page" |
		sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' | sort -u)
	want=$(printf '%s\n' "$table" | grep -vx 'data\|help')
	[ "$synopsis" = "$want" ] || differ "$cmd: the man page's SYNOPSIS" "$want" "$synopsis"
	described=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on && prev == ".TP" { print } { prev = $0 }' \
		"$page" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' | sort)
	[ "$described" = "$table" ] || differ "$cmd: the man page's OPTIONS" "$table" "$described"

	completed=$(awk -v c="	$cmd)" '$0 == c { on = 1; next } on && /opts="/ { print; exit }' "$tmp/bash" |
		sed 's/.*opts="//; s/".*//' | tr ' ' '\n' | sed 's/^--//' | sort)
	[ "$completed" = "$table" ] || differ "$cmd: the bash completion's options" "$table" "$completed"

	# Each choice: in the option's help, and what the completion offers.
	while IFS='	' read -r name kind choices; do
		[ -n "$choices" ] || continue
		choices=$(printf '%s' "$choices" | tr '\t' ' ')
		entry=$(awk -v o="--$name" '$1 == o { on = 1; print; next } on && /^      / { print; next } { on = 0 }' "$tmp/help")
		for c in $choices; do
			printf '%s\n' "$entry" | grep -q -- "[ (]$c[,;) ]" ||
				{ echo "$cmd: --help of --$name does not name its choice '$c'"; bad=1; }
		done
		offered=$(awk -v c="	$cmd)" -v o="--$name" '$0 == c { on = 1; next } on && /^		;;/ { exit }
			on && index($0, "[ \"$prev\" = " o " ]") { sub(/.*words="/, ""); sub(/".*/, ""); print }' "$tmp/bash")
		[ "$offered" = "$choices" ] || differ "$cmd: the bash completion of --$name" "$choices" "$offered"
	done <"$tmp/table"
done

# traincost(1) names every command: in its SYNOPSIS, with an entry of its
# COMMANDS section, and its page in SEE ALSO.
LC_ALL=C.UTF-8 MANWIDTH=200 man -l docs/traincost.1 2>/dev/null | col -b >"$tmp/main" ||
	{ echo "man -l docs/traincost.1 failed"; bad=1; }
for cmd in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'); do
	[ "$cmd" = help ] && continue
	awk '/^SYNOPSIS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' "$tmp/main" | grep -q "^ *traincost $cmd\( \|$\)" ||
		{ echo "traincost(1): SYNOPSIS lacks traincost $cmd"; bad=1; }
	awk '/^COMMANDS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' "$tmp/main" | grep -q "^       $cmd\( \|$\)" ||
		{ echo "traincost(1): COMMANDS has no entry for $cmd"; bad=1; }
	grep -q "^\.BR traincost\\\\-$cmd (1)" docs/traincost.1 ||
		{ echo "traincost(1): SEE ALSO lacks traincost-$cmd(1)"; bad=1; }
done

# The pages kept under man/ (read where the sources are browsed) are the
# ones make man writes.
for page in "$build"/man/traincost-*.[15]; do
	cmp -s "$page" "man/$(basename "$page")" ||
		{ echo "man/$(basename "$page") is not what make man writes (make man; cp $build/man/* man/)"; bad=1; }
done

# Every page renders without a warning.
pages=0
for page in docs/traincost.1 "$build"/man/traincost-*.[15]; do
	pages=$((pages + 1))
	if ! LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$tmp/warn" || [ -s "$tmp/warn" ]; then
		echo "$(basename "$page"): man -l warns: $(head -n 3 "$tmp/warn" | tr '\n' '|')"
		bad=1
	fi
done
[ "$bad" -eq 0 ] || exit 1
echo "checked $n commands, $pages pages"
