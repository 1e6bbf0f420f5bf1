#!/usr/bin/env bash
# Session 9 call 8 on 2cc9bff's dist: the histogram's load floor on an RGBA16F scene (diag-hload: the same kernel
# binning nothing) beside the shipped kernel, in the 4K demo with --hdr-format rgba16f, two rounds; frame-cpu three times.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s8"; mkdir -p "$R"; T="$B/tally/tally"
demo() { n=$1; shift; timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 "$@" --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1; }
for round in 1 2; do
  demo shipped-rgba16f-$round --hdr-format rgba16f
  demo hload-rgba16f-$round --hdr-format rgba16f --set shaders.live=true --set shaders.dir=$B/scv/diag-hload
  demo hload-b10g11r11-$round --set shaders.live=true --set shaders.dir=$B/scv/diag-hload
done | tee "$R/floors.txt"
for i in 1 2 3; do
  timeout 120 "$T" bench --only frame --progress > "$R/frame-$i.txt" 2>&1
  echo "run $i $(grep -E 'frame-cpu [0-9]|replay of' "$R/frame-$i.txt" | cut -c1-200 | tr '\n' ' ')"
done | tee "$R/frame-cpu.txt"
tar czf "$OUT/s8.tgz" -C "$OUT" s8
