#!/usr/bin/env bash
# Session 9 call 7 on 2cc9bff's dist: the full round (bench/h200.sh all), then a validated soak of 20,000 frames.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
bash "$B/h200.sh" "$OUT" all > "$OUT/h200-all.txt" 2>&1
tail -24 "$OUT/h200-all.txt"
timeout 240 "$B/tally/tally" soak --frames 20000 > "$OUT/soak20k.txt" 2>&1; echo "rc $?" >> "$OUT/soak20k.txt"
tail -6 "$OUT/soak20k.txt"
rm -rf "$OUT/r"
