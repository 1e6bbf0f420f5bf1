#!/usr/bin/env bash
# Session 12 call 6 (dist of f40c277): hud.comp variants on f40c277's shader (x0): xR8 eight pixel rows, xV two hits a round.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  for v in x0 xR8 xV; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/hudp/$v > $R/hud.txt 2>&1
    echo "hud $v $i: $(grep -E '^hud ' $R/hud.txt | awk '{print $4}') $(grep -iE 'error|exception' $R/hud.txt | head -2)"
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --set shaders.live=true --set shaders.dir=$D/hudp/$v --stats-json $R/d-$v-$i.json > $R/d.log 2>&1 || tail -2 $R/d.log
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('demo4k $v $i', ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('hud','tonemap','readback')))" $R/d-$v-$i.json
  done
done
timeout 100 $T bench --only frame > $R/frame.txt 2>&1
echo "frame HEAD: $(grep -E '^frame-gpu-span' $R/frame.txt | awk '{print $1, $4}' | tr '\n' ' ')"
rm -f $R/*
