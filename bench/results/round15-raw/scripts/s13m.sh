#!/usr/bin/env bash
# Session 13 call 10: tonemap ALU variants (s13l): e5 srgb by exp2(log2) instead of pow, e6 ACES by a reciprocal, e7 no NaN check (timing only), e8 e5+e6; then the 4K demo with e8 live.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for v in base e5 e6 e7 e8; do
    S=""; [ $v != base ] && S="--set shaders.dir=$D/s13l/$v"
    timeout 60 $T bench --only tonemap $S > $R/t$v$i.txt 2>&1
    echo "$v $i: $(grep -E '^tonemap' $R/t$v$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/t$v$i.txt | head -2
  done
done
for i in 1 2; do
  for v in base e8; do
    S=""; [ $v != base ] && S="--set shaders.live=true --set shaders.dir=$D/s13l/$v"
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $S --stats-json $R/demo-$v$i.json > $R/demo-$v$i.log 2>&1
    echo "demo $v $i: $(python3 -c "import json; d=json.load(open('$R/demo-$v$i.json')); print(' '.join('%s %.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']), 'span', d.get('frameSpanMicrosMedian'))" 2>&1 | tail -1)"; grep -o '"frameSpanMicrosMedian": [0-9.]*' $R/demo-$v$i.json
  done
done
tar czf $OUT/s13l.tgz -C $R .
