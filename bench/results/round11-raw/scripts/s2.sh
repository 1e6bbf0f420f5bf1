#!/usr/bin/env bash
# Session 9 call 2: scene.comp variants that keep the image (lighting by place, no flattening), then image-path floors
# (histogram loads only, tonemap loads only, tonemap stores only), each in the demo at 4K, compiled live.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s2"; mkdir -p "$R"; T="$B/tally/tally"
for v in base light df light-df base diag-hload diag-tload diag-tstore light-df; do
  L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  n=$v; [ -e "$R/demo-$v.json" ] && n=$v-2
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done | tee "$R/summary.txt"
timeout 200 "$T" bench --only frame --progress > "$R/frame.txt" 2>&1; echo "rc $?" >> "$R/frame.txt"
grep -E "frame-cpu|frame-gpu" "$R/frame.txt" | cut -c1-220
tar czf "$OUT/s2.tgz" -C "$OUT" s2
