#!/usr/bin/env bash
# Soak A/B: HEAD's dist twice, and the same dist with d34afea's tally jars once, 10,000 frames with validation each.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
rm -rf /tmp/told && cp -r "$B/tally" /tmp/told && cp "$B/var/"tally-*.jar /tmp/told/lib/
for run in head1 old head2; do
  T=$([ $run = old ] && echo /tmp/told/tally || echo "$B/tally/tally")
  timeout 200 "$T" soak --frames 10000 > "$OUT/soak-$run.txt" 2>&1; echo "rc $?" >> "$OUT/soak-$run.txt"
  echo "## $run"; grep -o 'frame [0-9]* at 160x90.*RSS [0-9.]* MiB' "$OUT/soak-$run.txt" | sed 's/validation.*heap/heap/'; grep -E 'soak|rc ' "$OUT/soak-$run.txt" | grep -v '^soak: '
done
