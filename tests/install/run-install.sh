#!/bin/sh
# `make install` into a scratch DESTDIR, twice: the second install changes
# nothing (no validation/validation), and the docs, the man page and the
# three completion scripts are where their tools look for them.
# Prints "ok NAME" or "FAIL NAME: why".
# Usage: tests/install/run-install.sh BUILD_DIR
build=${1:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=/usr/local # the Makefile's default: the binary needs no rebuild

install_once() {
	make -s --no-print-directory install BUILD="$build" DESTDIR="$tmp/root" \
		PREFIX="$prefix" >"$tmp/log" 2>&1
}
if ! install_once; then
	echo "FAIL install: $(tail -n 3 "$tmp/log" | tr '\n' '|')"
	exit 0
fi
(cd "$tmp/root" && find . | sort) >"$tmp/first"
if ! install_once; then
	echo "FAIL install-twice: $(tail -n 3 "$tmp/log" | tr '\n' '|')"
	exit 0
fi
(cd "$tmp/root" && find . | sort) >"$tmp/second"
if cmp -s "$tmp/first" "$tmp/second"; then
	echo "ok install-twice"
else
	echo "FAIL install-twice: the second install added: $(diff "$tmp/first" "$tmp/second" | grep '^>' | head -n 3 | tr '\n' ' ')"
fi
root=$tmp/root$prefix
missing=""
for f in bin/traincost share/man/man1/traincost.1 share/doc/traincost/README.md \
	share/doc/traincost/workload-format.md share/doc/traincost/model.md \
	share/doc/traincost/output-format.md share/doc/traincost/schema/estimate.schema.json \
	share/traincost/validation/vtrain-a100.csv share/traincost/models/gpu/l40s.yaml \
	share/bash-completion/completions/traincost share/zsh/site-functions/_traincost \
	share/fish/vendor_completions.d/traincost.fish; do
	[ -s "$root/$f" ] || missing="$missing $f"
done
# A man page for every command of `traincost --help`, and the file format.
for c in $("$build/traincost" --help | awk '/^Commands:/ { on = 1; next }
	on && /^$/ { exit } on && $1 != "help" { print $1 }'); do
	[ -s "$root/share/man/man1/traincost-$c.1" ] || missing="$missing share/man/man1/traincost-$c.1"
done
[ -s "$root/share/man/man5/traincost-workload.5" ] || missing="$missing share/man/man5/traincost-workload.5"
if [ -n "$missing" ]; then
	echo "FAIL install-files: missing or empty:$missing"
elif [ -e "$root/share/traincost/validation/validation" ]; then
	echo "FAIL install-files: share/traincost/validation/validation exists"
else
	echo "ok install-files"
fi

# Every page formats without a groff warning (tbl's note that a wide table
# overflows an 80-column page aside: the terminal narrows it).
if command -v groff >/dev/null 2>&1; then
	bad=""
	for f in "$root"/share/man/man1/*.1 "$root"/share/man/man5/*.5; do
		w=$(groff -man -t -ww -Wbreak -z -Tutf8 "$f" 2>&1 |
			grep -v 'table wider than line width' | grep -v '^warning: file .*, around line')
		[ -z "$w" ] || bad="$bad $(basename "$f"): $(echo "$w" | head -n 1)"
	done
	if [ -n "$bad" ]; then
		echo "FAIL man-pages:$bad"
	else
		echo "ok man-pages"
	fi
else
	echo "skip man-pages: groff is not installed"
fi
