#!/bin/sh
# The pictures: each command's --plot chart and the HTML report are
# well-formed XML (xmllint) and have the structure of their golden file,
# tests/plots/golden/NAME.txt: every element with its class, counted (what
# is drawn, not where: pixels and numbers may move with the model).
#
# Prints "ok NAME" or "FAIL NAME: why" per chart.
# Usage: tests/plots/run-plots.sh BINARY [RUNNER]
#        tests/plots/run-plots.sh --update BINARY   (rewrite the goldens)
update=0
if [ "$1" = --update ]; then
	update=1
	shift
fi
bin=$1
runner=${2:-}
. tests/test-env.sh
if ! command -v xmllint >/dev/null 2>&1; then
	echo "FAIL plots: xmllint is not installed (scripts/install-deps installs libxml2-utils)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# The element names and classes of an XML file, counted and sorted;
# axis lines, grid lines and tick labels left out, as their number follows
# the range of the data.
structure() {
	grep -o '<[a-z][a-z0-9]*\( [^>]*class="[^"]*"\)\{0,1\}' "$1" |
		sed 's/^<\([a-z0-9]*\).*class="\([^"]*\)".*/\1 .\2/; s/^<\([a-z0-9]*\).*/\1/' |
		grep -v -e '^line \.axis$' -e '^line \.grid$' -e '^text \.tick$' |
		sort | uniq -c | sed 's/^ *//'
}

# NAME FILE COMMAND...: run, check the exit code, the XML and the structure.
check() {
	name=$1
	out=$2
	shift 2
	if ! $runner "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null; then
		echo "FAIL $name: exit $?: $(head -c 300 "$tmp/stderr")"
		return
	fi
	if [ -n "$(find "$tmp" -name '.*' ! -name . | head -n 1)" ]; then
		echo "FAIL $name: a temporary file was left behind: $(find "$tmp" -name '.*' ! -name .)"
		return
	fi
	if ! xmllint --noout "$out" 2>"$tmp/xml"; then
		echo "FAIL $name: not well-formed XML: $(head -n 3 "$tmp/xml" | tr '\n' '|')"
		return
	fi
	structure "$out" >"$tmp/got"
	golden=tests/plots/golden/$name.txt
	if [ "$update" = 1 ]; then
		cp "$tmp/got" "$golden"
	fi
	if ! cmp -s "$golden" "$tmp/got"; then
		echo "FAIL $name: structure differs from $golden: $(diff "$golden" "$tmp/got" | head -n 6 | tr '\n' '|')"
		return
	fi
	echo "ok $name"
}

check estimate "$tmp/e.svg" estimate examples/llama2-7b-a100.yaml --plot "$tmp/e.svg"
check explain "$tmp/x.svg" explain examples/llama2-7b-a100.yaml --plot "$tmp/x.svg"
check compare "$tmp/c.svg" compare --data tests/cli/data/cluster examples/llama2-7b-a100.yaml --gpus a100-80gb-sxm,h100-sxm \
	--uncertainty=100 --seed 3 --plot "$tmp/c.svg"
check plan "$tmp/p.svg" plan --data tests/cli/data/cluster examples/plan-70b-finetune.yaml --deadline 7d \
	--gpus a100-80gb-sxm,h100-sxm --max-gpus 256 --plot "$tmp/p.svg"
check validate "$tmp/v.svg" validate --cases tests/cli/data --plot "$tmp/v.svg"
check sweep "$tmp/s.svg" sweep --data tests/cli/data/cluster examples/sweep-7b.yaml -o "$tmp/s.csv" --plot "$tmp/s.svg" \
	--plot-x plan.count --plot-y cost_usd
check sweep-categories "$tmp/s2.svg" sweep examples/sweep-7b.yaml -o "$tmp/s.csv" --plot "$tmp/s2.svg"
# What a chart says, beyond its structure: NAME FILE TEXT (a text element).
says() {
	if grep -q ">$3</text>" "$2"; then
		echo "ok $1"
	else
		echo "FAIL $1: no text '$3' in the chart"
	fi
}
# sweep's y axis is cost unless --plot-y says otherwise, and each legend
# entry names the keys it gives the values of.
says sweep-default-cost "$tmp/s2.svg" "cost (USD)"
says sweep-legend-keys "$tmp/s2.svg" "count=32, precision=bf16"
# plan over every GPU type of the catalog: the six best in the legend,
# counted in its title.
if $runner "$bin" plan examples/plan-70b-finetune.yaml --deadline 7d --plot "$tmp/pa.svg" \
	>/dev/null 2>"$tmp/stderr" </dev/null; then
	says plan-all-types "$tmp/pa.svg" "GPU type (6 of [0-9]*)"
else
	echo "FAIL plan-all-types: $(head -c 300 "$tmp/stderr")"
fi
check report "$tmp/r.html" report --data tests/cli/data/cluster examples/llama2-7b-a100.yaml -o "$tmp/r.html" \
	--gpus a100-80gb-sxm,h100-sxm --max-gpus 64 --deadline 60d

# examples/pictures.sh makes the page and the six charts, all well-formed.
mkdir "$tmp/pictures"
if ! TRAINCOST="$bin" examples/pictures.sh "$tmp/pictures" >"$tmp/stdout" 2>"$tmp/stderr"; then
	echo "FAIL example-pictures: $(head -c 300 "$tmp/stderr")"
elif [ "$(ls "$tmp/pictures"/*.svg | wc -l)" -ne 6 ] || [ ! -s "$tmp/pictures/report.html" ]; then
	echo "FAIL example-pictures: expected report.html and 6 charts, got: $(ls "$tmp/pictures" | tr '\n' ' ')"
elif ! xmllint --noout "$tmp/pictures"/*.svg "$tmp/pictures/report.html" 2>"$tmp/xml"; then
	echo "FAIL example-pictures: not well-formed XML: $(head -n 3 "$tmp/xml" | tr '\n' '|')"
else
	echo "ok example-pictures"
fi

# The report in a headless browser, judged by what the screenshot shows
# (tests/plots/shot-check.py decodes it): the page is not blank, each chart
# drew its series colours between two marker bars put around its <svg>
# (so a chart that renders nothing fails, whatever the size of the file),
# and the page logs nothing to the console (it has no script, so any
# message is a load or parse error).  Half the device scale keeps the
# decoding quick; the window is taller than the page.
browser=${TC_BROWSER:-}
for b in chromium chromium-browser; do
	[ -n "$browser" ] && break
	command -v "$b" >/dev/null 2>&1 && browser=$b
done
if [ -z "$browser" ]; then
	echo "skip browser: no chromium installed (TC_WANT_BROWSER=1 scripts/install-deps installs it; CI does)"
	exit 0
fi
if ! [ -f "$tmp/r.html" ]; then
	echo "FAIL browser: no report to open"
	exit 0
fi
tests/plots/shot-check.py mark "$tmp/r.html" "$tmp/marked.html" || {
	echo "FAIL browser: tests/plots/shot-check.py could not mark the report"
	exit 0
}
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
	--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
	--force-device-scale-factor=0.5 --window-size=1000,6000 \
	--screenshot="$tmp/r.png" "file://$tmp/marked.html" </dev/null 2>"$tmp/browser.log" >/dev/null
grep ':CONSOLE' "$tmp/browser.log" >"$tmp/console"
if ! [ -s "$tmp/r.png" ]; then
	echo "FAIL browser: $browser made no screenshot: $(grep -v -e dbus -e WARNING "$tmp/browser.log" | tail -n 3 | tr '\n' '|')"
elif ! seen=$(tests/plots/shot-check.py judge "$tmp/r.png" "$tmp/marked.html" 2>&1); then
	echo "FAIL browser: $seen"
elif [ -s "$tmp/console" ]; then
	echo "FAIL browser: the report logged: $(head -n 3 "$tmp/console" | tr '\n' '|')"
else
	echo "ok browser"
fi

# The README's plan and sweep charts (examples/pictures.sh), plan over every
# GPU type and sweep's default chart of ten series, in the browser as
# above: each chart renders its series; and each legend gives every entry
# its own colour and marker and cuts no text short.
charts="$tmp/pictures/plan.svg $tmp/pictures/sweep.svg $tmp/pa.svg $tmp/s2.svg"
# shellcheck disable=SC2086 # the chart files are words
if ! tests/plots/shot-check.py page "$tmp/charts.html" $charts ||
	! tests/plots/shot-check.py mark "$tmp/charts.html" "$tmp/charts-marked.html"; then
	echo "FAIL browser-charts: tests/plots/shot-check.py could not make the page of charts"
	exit 0
fi
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
	--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
	--force-device-scale-factor=0.5 --window-size=1000,4000 \
	--screenshot="$tmp/charts.png" "file://$tmp/charts-marked.html" </dev/null \
	2>"$tmp/browser.log" >/dev/null
if ! [ -s "$tmp/charts.png" ]; then
	echo "FAIL browser-charts: $browser made no screenshot"
elif ! seen=$(tests/plots/shot-check.py judge "$tmp/charts.png" "$tmp/charts-marked.html" 2>&1); then
	echo "FAIL browser-charts: $seen"
# shellcheck disable=SC2086 # the chart files are words
elif ! seen=$(tests/plots/shot-check.py legend $charts 2>&1); then
	echo "FAIL browser-charts: $(echo "$seen" | grep -v 'each its own' | head -n 3 | tr '\n' '|')"
else
	echo "ok browser-charts"
fi
