#!/bin/sh
# A binary without its data says where it looked, whatever the command:
# every command of `traincost --help` that reads the catalogs (all but help
# and completion) exits 3 with "no data folder found (searched: ...)" naming
# the folder it was given, before any other message.  Then the same for a
# copy of the binary alone in a folder, when no installed data can be found
# (its own folder must be named).  Prints "checked N commands"; on a
# difference, what differs, and exits 1.
# Usage: tests/cli/check-no-data.sh BINARY
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/empty" "$tmp/lone"
cp "$bin" "$tmp/lone/traincost" || exit 1
bad=0
n=0
for cmd in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'); do
	case $cmd in help | completion) continue ;; esac
	n=$((n + 1))
	TRAINCOST_PATH=$tmp/empty TRAINCOST_PATH_ONLY=1 "$bin" "$cmd" >/dev/null 2>"$tmp/err"
	rc=$?
	want="traincost $cmd: no data folder found (searched: $tmp/empty; expected models/ and pricing/"
	if [ "$rc" -ne 3 ] || ! head -n 1 "$tmp/err" | grep -qF -- "$want"; then
		echo "$cmd: exit $rc: $(head -c 300 "$tmp/err")"
		bad=1
	fi
	# The lone copy: its own folder is among those searched.
	if [ ! -d /usr/local/share/traincost ]; then
		(cd "$tmp/empty" && env -u TRAINCOST_PATH -u TRAINCOST_PATH_ONLY \
			"$tmp/lone/traincost" "$cmd" >/dev/null 2>"$tmp/err")
		rc=$?
		if [ "$rc" -ne 3 ] || ! grep -qF "beside the binary $tmp/lone," "$tmp/err"; then
			echo "$cmd (alone): exit $rc: $(head -c 300 "$tmp/err")"
			bad=1
		fi
	fi
done
[ "$bad" -eq 0 ] && echo "checked $n commands"
exit "$bad"
