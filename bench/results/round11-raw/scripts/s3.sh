#!/usr/bin/env bash
# Session 9 call 3: A/B in the 4K demo, compiled live: the histogram's bin without floor() and one finiteness test
# (hnew) against the shipped one (hold); scene.comp with constant divisions as products (fastdiv), with lighting by
# place and unflattened branches (light-df, fastdiv-ldf). Then the variants' screenshots against the shipped scene's.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s3"; mkdir -p "$R"; T="$B/tally/tally"
for round in 1 2; do
for v in hold hnew base fastdiv light-df fastdiv-ldf; do
  L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  n=$v-$round
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done; done | tee "$R/summary.txt"
for v in base fastdiv light-df fastdiv-ldf hnew; do for n in 3 13 25; do
  timeout 60 "$T" demo --headless --width 480 --height 270 --frames $n --fixed-dt 1 --hud off --set exposure.mode=manual --set exposure.manualEV=11 \
    --set shaders.live=true --set shaders.dir=$B/scv/$v --screenshot "$R/sc-$v-$n.png" > "$R/sc-$v-$n.log" 2>&1
done; done
for v in fastdiv light-df fastdiv-ldf hnew; do for n in 3 13 25; do echo "$v frame $n: $(python3 $B/pngdiff.py $R/sc-base-$n.png $R/sc-$v-$n.png 2>&1)"; done; done | tee "$R/pngdiff.txt"
tar czf "$OUT/s3.tgz" -C "$OUT" s3
