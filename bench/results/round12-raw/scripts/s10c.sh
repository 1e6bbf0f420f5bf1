#!/usr/bin/env bash
# Session 10 call 3 on 904e46f's dist (the final code): (1) the statistics kernel as shipped beside the one before it
# (old, compiled live), twice; (2) the full round (bench/h200.sh all).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s10c"; mkdir -p "$R"; T="$B/tally/tally"
for round in 1 2; do
  timeout 150 "$T" bench --only reduce --progress --set shaders.live=true --set shaders.dir="$B/scv/stats2" --stats-variant old=reduce_stats_old.comp \
    --json "$R/stats-$round.json" > "$R/stats-$round.txt" 2> "$R/stats-$round.log"; echo "stats $round rc $?"
  grep -E "^reduce-(sum|stats)" "$R/stats-$round.txt"
done | tee "$R/stats-ab.txt"
tar czf "$OUT/s10c.tgz" -C "$OUT" s10c && rm -rf "$R"
bash "$B/h200.sh" "$OUT" all > "$OUT/h200-all.txt" 2>&1
tail -40 "$OUT/h200-all.txt"
rm -rf "$OUT/r"
