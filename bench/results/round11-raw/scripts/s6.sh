#!/usr/bin/env bash
# Session 9 call 6 on f95fd2d's dist, kernels compiled live: the histogram as committed in 2cc9bff (hhead2), with the
# inside batch's loads unclamped (hfast2), with batches of eight (hfast8), in the 4K demo and the bench's exposure cases,
# two rounds; the histogram binning nothing (diag-hload16: the RGBA16F flat image's load floor); scene.comp with
# lighting by place and unflattened branches (light-df) beside the shipped one.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s6"; mkdir -p "$R"; T="$B/tally/tally"
demo() { n=$1; shift; timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 "$@" --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1; }
for round in 1 2; do for v in hhead2 hfast2 hfast8; do
  L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  demo $v-$round $L
  timeout 120 "$T" bench --only exposure $L > "$R/exposure-$v-$round.txt" 2>&1
  grep -E "^exposure-(sampled-)?(histogram|chain) " "$R/exposure-$v-$round.txt" | cut -c1-60
done; done 2>&1 | tee "$R/histogram-ab.txt"
L="--set shaders.live=true --set shaders.dir=$B/scv/diag-hload16"
timeout 120 "$T" bench --only exposure $L > "$R/exposure-diag-hload16.txt" 2>&1
grep -E "^exposure-(sampled-)?(histogram|chain) " "$R/exposure-diag-hload16.txt" | cut -c1-60 | sed 's/^/diag-hload16 /'
for round in 1 2; do for v in base light-df; do demo scene-$v-$round --set shaders.live=true --set shaders.dir=$B/scv/$v; done; done
tar czf "$OUT/s6.tgz" -C "$OUT" s6
