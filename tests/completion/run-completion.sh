#!/bin/sh
# The shell completions of `traincost completion`: each script parses in
# its shell, and the bash and fish ones complete commands, options and the
# values of an option from the command tables, and GPU and framework ids
# from the catalog (the frozen one of tests/data, tests/test-env.sh).
# That help, man pages and completions name the same options is
# tests/cli/check-option-docs.sh.
# Prints "ok NAME" or "FAIL NAME: why" per check.
# Usage: tests/completion/run-completion.sh BINARY [RUNNER]
bin=$1
runner=${2:-}
. tests/test-env.sh
# fish's script runs `traincost` from PATH to list ids: this one.
bindir=$(cd "$(dirname "$bin")" && pwd)
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

# SHELL WORDS... : what SHELL completes for the last word of the command
# line, sorted (fish sorts its candidates, bash keeps the table's order).
complete_words() {
	sh=$1
	shift
	case $sh in
	bash) bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _traincost
		printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/bash" "$@" ;;
	fish) PATH="$bindir:$PATH" fish -c 'source $argv[1]; complete -C"$argv[2]"' "$tmp/fish" "$*" |
		cut -f1 ;;
	esac | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # SHELL NAME WANT WORDS... (WANT sorted)
	sh=$1
	name=$2
	want=$3
	shift 3
	got=$(complete_words $sh "$@")
	if [ "$got" = "$want" ]; then
		echo "ok $name-$sh"
	else
		echo "FAIL $name-$sh: '$*' completes to '$got', expected '$want'"
	fi
}
for sh in bash fish; do
	command -v $sh >/dev/null 2>&1 || continue
	expect $sh completion-command "report" traincost rep
	expect $sh completion-option "--format" traincost estimate --for
	expect $sh completion-choices "csv json md table" traincost estimate --format ""
	expect $sh completion-plot "--plot --plot-x --plot-y" traincost sweep --plo
	expect $sh completion-shells "bash fish zsh" traincost completion ""
	# bash runs the binary the command line names; fish `traincost`
	expect $sh completion-gpu-ids "a100-80gb-pcie a100-80gb-sxm" "$bindir/traincost" estimate --gpu a100-80
	expect $sh completion-framework-ids "megatron" "$bindir/traincost" estimate --framework meg
done
# bash: --gpus takes a comma-separated list, each id completed after the
# ones typed; `gpus show` completes its subcommand, then an id.
if command -v bash >/dev/null 2>&1; then
	expect bash completion-gpus-list "h100-sxm,h200-nvl h100-sxm,h200-sxm" \
		"$bindir/traincost" compare x.yaml --gpus h100-sxm,h2
	expect bash completion-gpus-first "a100-80gb-pcie a100-80gb-sxm" "$bindir/traincost" plan x.yaml --gpus a100-80
	expect bash completion-gpus-sub "show" "$bindir/traincost" gpus s
	expect bash completion-gpus-show "a100-80gb-pcie a100-80gb-sxm" "$bindir/traincost" gpus show a100-80
fi
