#!/usr/bin/env bash
# Round 9, call 1: the reduction in one dispatch above 2^24 (default plan A; one pass, one wave B; one pass, 528 groups C),
# statistics kernels with other load batches, and CUB in the same call.  bash r9a.sh OUT
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r"; mkdir -p "$R"; T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
run() { echo "== $1 $(date +%T)" >> "$R/steps.txt"; n=$1; shift; timeout 120 "$T" bench --only reduce --json "$R/$n.json" "$@" > "$R/$n.txt" 2> "$R/$n.log"; echo "rc $?" >> "$R/$n.txt"; }
for round in 1 2; do
  run A$round
  run B$round --set reduce.singleDispatchMax=1073741824
  run C$round --set reduce.singleDispatchMax=1073741824 --set reduce.groups=528
done
run S1 --stats-variant l2=reduce_stats.comp:LOADS=2 --stats-variant l8=reduce_stats.comp:LOADS=8 \
  --stats-variant b4=reduce_stats.comp:BLOCK_STEPS=4 --stats-variant b16=reduce_stats.comp:BLOCK_STEPS=16
run S2 --set reduce.singleDispatchMax=1073741824 --stats-variant l2=reduce_stats.comp:LOADS=2 --stats-variant b16=reduce_stats.comp:BLOCK_STEPS=16
echo "== cub $(date +%T)" >> "$R/steps.txt"
timeout 120 python3 "$B/cub_reference.py" --flush clean --json "$R/cub.json" > "$R/cub.txt" 2>&1
for f in "$R"/[ABC]?.txt "$R"/S?.txt; do echo "## $(basename $f)"; grep -E "^reduce-(sum|stats)" "$f" | grep -E ' (16777216|67108864|268435456) '; done
tail -8 "$R/cub.txt"; tail -3 "$R"/A1.log
