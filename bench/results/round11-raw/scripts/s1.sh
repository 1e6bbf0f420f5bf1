#!/usr/bin/env bash
# Session 9 call 1: the demo's scene pass at 4K per scene.comp variant (compiled live from .devrun/scv/NAME), then
# the frame group of the bench (frame-cpu warmed up through its measuring path).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s1"; mkdir -p "$R"; T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
for v in base const sky trace nofoot noalbedo nolight shadeless opta r2 opta-r2 base; do
  L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  n=$v; [ -e "$R/demo-$v.json" ] && n=$v-2
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('scene','histogram','tonemap','hud')))" 2>&1 | tail -1
done | tee "$R/summary.txt"
for v in const base; do
  L="--set shaders.live=true --set shaders.dir=$B/scv/$v --hdr-format rgba16f"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$v-rgba16f.json" > "$R/demo-$v-rgba16f.log" 2>&1
  printf '%s ' "$v-rgba16f"; python3 -c "import json; d=json.load(open('$R/demo-$v-rgba16f.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('scene','histogram','tonemap','hud')))" 2>&1 | tail -1
done | tee -a "$R/summary.txt"
timeout 200 "$T" bench --only frame --progress > "$R/frame.txt" 2>&1; echo "rc $?" >> "$R/frame.txt"
grep -E "frame-cpu|frame-gpu" "$R/frame.txt" | cut -c1-220
tar czf "$OUT/s1.tgz" -C "$OUT" s1
