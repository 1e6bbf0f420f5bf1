#!/usr/bin/env bash
# Round 9, call 3: statistics kernels with more loads per step, and the sum at unroll 3 / 4, on HEAD's one-pass plan.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/c3"; mkdir -p "$R"; T="$B/tally/tally"
run() { echo "== $1 $(date +%T)" >> "$R/steps.txt"; n=$1; shift; timeout 120 "$T" bench --only reduce --json "$R/$n.json" "$@" > "$R/$n.txt" 2> "$R/$n.log"; echo "rc $?" >> "$R/$n.txt"; }
V="--stats-variant l6=reduce_stats.comp:LOADS=6 --stats-variant l8=reduce_stats.comp:LOADS=8 --stats-variant l8b4=reduce_stats.comp:LOADS=8,BLOCK_STEPS=4 --stats-variant l16=reduce_stats.comp:LOADS=16"
for round in 1 2; do
  run S$round $V
  run U3-$round --set reduce.unroll=3
  run U4-$round --set reduce.unroll=4
done
timeout 120 python3 "$B/cub_reference.py" --flush clean --json "$R/cub.json" > "$R/cub.txt" 2>&1
for f in "$R"/S?.txt "$R"/U*.txt; do echo "## $(basename $f)"; grep -E "^reduce-(sum|stats)" "$f" | grep -E ' (16777216|67108864|268435456) ' | cut -c1-60; done
tail -6 "$R/cub.txt"; tail -2 "$R"/S1.log
tar czf "$OUT/c3.tgz" -C "$OUT" c3 && rm -rf "$R"
