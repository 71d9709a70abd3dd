#!/bin/sh
# The shell completions of `traincost completion`: each script parses in
# its shell, and the bash one completes commands, options and the values
# of an option from the command tables.
# Prints "ok NAME" or "FAIL NAME: why" per check.
# Usage: tests/completion/run-completion.sh BINARY [RUNNER]
bin=$1
runner=${2:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

for sh in bash zsh fish; do
	if ! $runner "$bin" completion $sh >"$tmp/$sh" 2>"$tmp/err"; then
		echo "FAIL completion-$sh: exit $?: $(head -c 200 "$tmp/err")"
		continue
	fi
	case $sh in
	bash) check="bash -n" ;;
	zsh) check="zsh -n" ;;
	fish) check="fish --no-execute" ;;
	esac
	if ! command -v $sh >/dev/null 2>&1; then
		echo "skip completion-$sh: $sh is not installed, the script is not parsed"
	elif $check "$tmp/$sh" 2>"$tmp/err"; then
		echo "ok completion-$sh"
	else
		echo "FAIL completion-$sh: does not parse: $(head -n 2 "$tmp/err" | tr '\n' '|')"
	fi
done

# WORDS... : what bash completes for the last word of the command line.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _traincost; echo "${COMPREPLY[*]}"' \
		sh "$tmp/bash" "$@"
}
expect() { # NAME WANT WORDS...
	name=$1
	want=$2
	shift 2
	got=$(complete_words "$@")
	if [ "$got" = "$want" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: '$*' completes to '$got', expected '$want'"
	fi
}
if command -v bash >/dev/null 2>&1; then
	expect completion-command "report" traincost rep
	expect completion-option "--format" traincost estimate --for
	expect completion-choices "table json csv md" traincost estimate --format ""
	expect completion-plot "--plot --plot-x --plot-y" traincost sweep --plo
	expect completion-shells "bash zsh fish" traincost completion ""
fi
