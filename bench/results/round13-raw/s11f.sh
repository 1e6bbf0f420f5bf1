#!/usr/bin/env bash
# Session 11 call 6: the readback ring's completion timestamp at three stages (variant jar of af70e73, -Dtally.hack:
# 0 ALL_COMMANDS as built, 6 COMPUTE_SHADER, 7 NONE: latched at once, a bound on what the wait costs), alternated.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT/r"
rm -rf /tmp/x && cp -r "$B/tally" /tmp/x && cp "$B/varjar/hack.jar" /tmp/x/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2 3; do
  for h in 0 6 7; do
    TALLY_JAVA_OPTS="-Dtally.hack=$h" timeout 60 /tmp/x/tally bench --only frame --progress --json "$OUT/r/span-$round-$h.json" > "$OUT/r/span-$round-$h.txt" 2>&1
    echo "round $round hack $h: $(grep -E '^  frame-gpu-span' "$OUT/r/span-$round-$h.txt" | awk '{print $1, $3}' | tr '\n' ' ')"
  done
done
tar czf "$OUT/results-s11f.tgz" -C "$OUT" r; rm -rf "$OUT/r"
