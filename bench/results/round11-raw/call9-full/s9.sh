#!/usr/bin/env bash
# Session 9 call 9 on 29ef6f3's dist (HUD lines laid out the same way as last time are reused): frame-cpu three times,
# a JFR profile of the demo's frame thread, then the full round (bench/h200.sh all).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s9"; mkdir -p "$R"; T="$B/tally/tally"
for i in 1 2 3; do
  timeout 120 "$T" bench --only frame --progress > "$R/frame-$i.txt" 2>&1
  echo "run $i $(grep -E 'frame-cpu [0-9]|replay of' "$R/frame-$i.txt" | cut -c1-200 | tr '\n' ' ')"
done | tee "$R/frame-cpu.txt"
TALLY_JAVA_OPTS="-XX:StartFlightRecording=filename=$R/prof.jfr,settings=$B/prof.jfc" timeout 120 "$T" demo --headless --width 1280 --height 720 \
  --frames 60000 --fixed-dt 0.0166 > "$R/prof-demo.log" 2>&1; echo "rc $?" >> "$R/prof-demo.log"
tar czf "$OUT/s9.tgz" -C "$OUT" s9 && rm -rf "$R"
bash "$B/h200.sh" "$OUT" all > "$OUT/h200-all.txt" 2>&1
tail -12 "$OUT/h200-all.txt"
rm -rf "$OUT/r"
