#!/usr/bin/env bash
# Not yet run. The scene at 4K with the committed 16x16 workgroups (bundle of scene2 0407ca6), against shader-only
# variants on the same bundle: p2 (8x8 invocations, 2x2 pixels each: the same 32,400 groups, 64 invocations each)
# and c16 (16x16, constant store only: the floor). Compare with round-4 scene2 call 1 (8x8: 86.66 us, constant 83.78 us).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
for v in g16 p2 c16 g16b; do
  case $v in g16|g16b) home="";; *) home="$B/var2/$v";; esac
  env ${home:+TALLY_HOME=$home} timeout 25 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/$v.json" > "$R/$v.log" 2>&1
  printf '%s %s span %s\n' "$v" "$(grep -o '"name": "scene", "gpuMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$')" "$(grep -o '"frameSpanMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$')" | tee -a "$R/summary.txt"
done
tar czf "$OUT/scene2b.tgz" -C "$OUT" r
