#!/usr/bin/env bash
# The scene's variants again at 16x16 workgroups (var3: var's copies with the group size from GROUP_SIZE).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
for v in g16 m-sky m-trace m-noalbedo m-nolight master o-arith o-mask o-uni o-all g16b; do
  case $v in g16|g16b) home="";; *) home="$B/var3/$v";; esac
  env ${home:+TALLY_HOME=$home} timeout 25 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/$v.json" > "$R/$v.log" 2>&1
  printf '%s %s span %s\n' "$v" "$(grep -o '"name": "scene", "gpuMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$')" "$(grep -o '"frameSpanMicrosMedian": [0-9.]*' "$R/$v.json" | grep -o '[0-9.]*$')" | tee -a "$R/summary.txt"
done
tar czf "$OUT/scene3.tgz" -C "$OUT" r
