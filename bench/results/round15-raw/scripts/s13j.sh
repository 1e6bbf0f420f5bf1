#!/usr/bin/env bash
# Session 13 call 9 (dist of 2cf3dae: the bench's HDR written by a compute pass): tonemap variants (s13k): noenc (no sRGB
# encode, timing only), poly (log2 by exponent and a degree-5 fit, then one exp2), rcp1 (the three ACES divisions by one
# reciprocal), rcp1poly; alternated twice; then the 4K demo with rcp1poly live against the shipped kernels.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for v in base noenc poly rcp1 rcp1poly; do
    S=""; [ $v != base ] && S="--set shaders.dir=$D/s13k/$v"
    timeout 60 $T bench --only tonemap $S > $R/t$v$i.txt 2>&1
    echo "$v $i: $(grep -E '^tonemap' $R/t$v$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/t$v$i.txt | head -2
  done
done
for i in 1 2; do
  for v in base rcp1poly; do
    S=""; [ $v != base ] && S="--set shaders.live=true --set shaders.dir=$D/s13k/$v"
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $S --stats-json $R/demo-$v$i.json > $R/demo-$v$i.log 2>&1
    echo "demo $v $i: $(python3 -c "import json; d=json.load(open('$R/demo-$v$i.json')); print(' '.join('%s %.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']), 'span', d.get('frameSpanMicrosMedian'))" 2>&1 | tail -1)"; grep -o '"frameSpanMicrosMedian": [0-9.]*' $R/demo-$v$i.json
  done
done
tar czf $OUT/s13j.tgz -C $R .
