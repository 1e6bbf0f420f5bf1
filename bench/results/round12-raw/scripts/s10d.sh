#!/usr/bin/env bash
# Session 10 call 4 on 904e46f's dist: frame-cpu three more times (its ratio to the replay moves with the machine).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s10d"; mkdir -p "$R"; T="$B/tally/tally"
for i in 1 2 3; do
  timeout 150 "$T" bench --only frame --progress > "$R/frame-$i.txt" 2>&1
  echo "run $i $(grep -E 'frame-cpu [0-9]|replay of' "$R/frame-$i.txt" | cut -c1-220 | tr '\n' ' ')"
done | tee "$R/frame-cpu.txt"
