#!/usr/bin/env bash
# Last round-4 call, the merged code: every frame-level case, and the demo at 4K with per-pass timing every frame
# and every eighth frame. Usage on the GPU machine: bash h200-round4c.sh OUTDIR
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
timeout 150 "$T" bench --only exposure,tonemap,hud,frame --progress --json "$R/frame-cases.json" > "$R/frame-cases.txt" 2> "$R/frame-cases.log"
for i in 1 8; do
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 600 --fixed-dt 0.0166 --set graph.passTimingInterval=$i \
    --stats-json "$R/demo4k-interval$i.json" > "$R/demo4k-interval$i.log" 2>&1
done
timeout 60 "$T" demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate --stats-json "$R/demo1080-validate.json" \
  > "$R/demo1080-validate.log" 2>&1
tar czf "$OUT/round4c.tgz" -C "$OUT" r
grep -E "^(frame-|hud|tonemap|exposure-)" "$R/frame-cases.txt"; grep -E "frame-cpu" "$R/frame-cases.log"
for f in "$R"/demo4k-*.json; do
  printf '%s ' "$(basename "$f")"; grep -o '"frameSpanMicrosMedian": [0-9.]*' "$f" | tr '\n' ' '
  grep -o '"name": "[^"]*", "gpuMicrosMedian": [0-9.]*' "$f" | sed 's/"name": //; s/, "gpuMicrosMedian": /=/' | tr '\n' ' '; echo
done
tail -1 "$R/demo1080-validate.log"
