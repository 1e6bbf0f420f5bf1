#!/usr/bin/env bash
# Session 11 call 2: the full bench twice and frame-cpu alone twice, on the dist with frame-cpu's warm-up pair.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT/r"
for k in 1 2; do
  echo "== full bench $k $(date +%T)"
  timeout 200 "$B/tally/tally" bench --progress --json "$OUT/r/bench-$k.json" > "$OUT/r/bench-$k.txt" 2> "$OUT/r/bench-$k.log"; echo "rc $?" >> "$OUT/r/bench-$k.txt"
  grep -E "frame-cpu|frame-gpu-span " "$OUT/r/bench-$k.log" | head -12
done
for k in 3 4; do
  echo "== frame-cpu run $k $(date +%T)"
  timeout 90 "$B/tally/tally" bench --only frame --progress --json "$OUT/r/frame-$k.json" > "$OUT/r/frame-$k.txt" 2>&1; echo "rc $?" >> "$OUT/r/frame-$k.txt"
  grep "frame-cpu" "$OUT/r/frame-$k.txt" | head -12
done
tar czf "$OUT/results-s11b.tgz" -C "$OUT" r; rm -rf "$OUT/r"
