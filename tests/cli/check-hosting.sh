#!/bin/sh
# Every offer `compare` and `plan` choose over every example can host the
# plan: the instances it needs (GPUs / GPUs per instance, rounded up) are at
# most the offer's max_instances, and more than one only over a network.
# Run on the frozen prices plus the multi-node test offers of
# tests/cli/data/cluster, so that joined instances are exercised too.
# Prints "bad: ..." per violation and "checked N choices"; exits 1 on any.
# Usage: tests/cli/check-hosting.sh BINARY
bin=$1
data=tests/cli/data/cluster
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# "COUNT PROVIDER INSTANCE" per chosen offer.
for f in examples/*.yaml; do
	for extra in "" "--data $data"; do
		"$bin" compare $extra "$f" --format json 2>/dev/null |
			awk -F'"' '/"count":/ { split($3, a, /[:,]/); n = a[2] + 0 }
				   /"provider":/ { p = $4 }
				   /"instance":/ { print n, p, $4 }'
	done
	"$bin" plan --data $data "$f" --deadline 30d --max-gpus 512 --format csv 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			 $col["provider"] != "" { print $col["count"], $col["provider"], $col["instance"] }'
done >"$tmp/choices"

bad=0
n=0
while read -r count provider instance; do
	n=$((n + 1))
	line=$(grep -h "instance: $instance," tests/data/pricing/"$provider".yaml \
		"$data"/pricing/"$provider".yaml 2>/dev/null | head -n 1)
	gpus=$(printf '%s\n' "$line" | sed -n 's/.* gpus: \([0-9.]*\),.*/\1/p')
	max=$(printf '%s\n' "$line" | sed -n 's/.*max_instances: \([0-9]*\).*/\1/p')
	net=$(printf '%s\n' "$line" | sed -n 's/.*network: \([a-z0-9-]*\).*/\1/p')
	if [ -z "$gpus" ] || [ -z "$max" ] || [ -z "$net" ]; then
		echo "bad: $provider $instance: offer or its fabric not found"
		bad=1
		continue
	fi
	inst=$(awk -v c="$count" -v g="$gpus" 'BEGIN { i = c / g; print (i == int(i)) ? i : int(i) + 1 }')
	if [ "$inst" -gt "$max" ] || { [ "$inst" -gt 1 ] && [ "$net" = none ]; }; then
		echo "bad: $count GPUs on $provider $instance: $inst instances, max_instances $max, network $net"
		bad=1
	fi
done <"$tmp/choices"
echo "checked $n choices"
[ "$n" -gt 20 ] || bad=1
exit $bad
