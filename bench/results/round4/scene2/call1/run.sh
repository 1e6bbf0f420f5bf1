#!/usr/bin/env bash
# One device call: the demo at 4K per scene.comp variant (TALLY_HOME=var/NAME), scene pass median from --stats-json.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
(nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,utilization.gpu --format=csv,noheader -lms 250 > "$R/clocks.txt" 2>&1) & SMI=$!
for v in base m-const m-sky m-trace m-noalbedo m-nolight master o-arith o-mask o-uni o-all base2; do
  d="$v"; [ "$v" = base2 ] && d=base
  echo "== $v $(date -u +%T.%N)" >> "$R/steps.txt"
  TALLY_HOME="$B/var/$d" timeout 25 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/$v.json" > "$R/$v.log" 2>&1
  echo "rc $?" >> "$R/$v.log"
  printf '%s %s\n' "$v" "$(grep -o '"name": "scene", "gpuMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$') span $(grep -o '"frameSpanMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$')" | tee -a "$R/summary.txt"
done
echo "== end $(date -u +%T.%N)" >> "$R/steps.txt"
kill $SMI
tar czf "$OUT/scene2.tgz" -C "$OUT" r
cp "$R/summary.txt" "$OUT/summary.txt"
tail -n 4 "$R"/base.log; cat "$R/steps.txt"
