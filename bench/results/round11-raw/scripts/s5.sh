#!/usr/bin/env bash
# Session 9 call 5 on f95fd2d's dist: (1) the histogram compiled live, as shipped (hhead) and with batches wholly inside
# the image binned without per-pixel tests (hfast), in the 4K demo and the bench's exposure cases, two rounds; (2) the
# full round (bench/h200.sh all).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s5"; mkdir -p "$R"; T="$B/tally/tally"
for round in 1 2; do for v in hhead hfast; do
  n=$v-$round; L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
  timeout 120 "$T" bench --only exposure $L > "$R/exposure-$n.txt" 2>&1
  grep -E "^exposure-(sampled-)?(histogram|chain) " "$R/exposure-$n.txt" | cut -c1-60
done; done | tee "$R/histogram-ab.txt"
tar czf "$OUT/s5.tgz" -C "$OUT" s5 && rm -rf "$R"
bash "$B/h200.sh" "$OUT" all > "$OUT/h200-all.txt" 2>&1
tail -22 "$OUT/h200-all.txt"
rm -rf "$OUT/r"
