#!/usr/bin/env bash
# Round 9, call 5: HEAD's frame (the reviewed barrier move) and tonemap kernels compiled live from variant shader
# directories (base = HEAD's sources, noenc = no sRGB encode, rcp1 = one reciprocal for the three ACES channels).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/c5"; mkdir -p "$R"; T="$B/tally/tally"
for round in 1 2; do
  echo "== jar $round $(date +%T)" >> "$R/steps.txt"
  timeout 120 "$T" bench --only tonemap,frame --progress > "$R/jar-$round.txt" 2>&1
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-jar-$round.json" > "$R/demo-jar-$round.log" 2>&1
  for v in base noenc rcp1; do
    L="--set shaders.live=true --set shaders.dir=$B/sh/$v"
    echo "== $v $round $(date +%T)" >> "$R/steps.txt"
    timeout 120 "$T" bench --only tonemap $L > "$R/$v-$round.txt" 2>&1
    timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$v-$round.json" > "$R/demo-$v-$round.log" 2>&1
  done
done
for f in "$R"/*.txt; do echo "## $(basename $f)"; grep -E "^(tonemap |frame-gpu-span |frame-cpu)" "$f" | cut -c1-70; done
for f in "$R"/demo-*.json; do printf '%s ' "$(basename "$f")"; python3 -c "import json; d=json.load(open('$f')); print(d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('tonemap','hud','hud.plot','readback')))"; done
tail -3 "$R"/demo-rcp1-1.log
tar czf "$OUT/c5.tgz" -C "$OUT" c5 && rm -rf "$R"
