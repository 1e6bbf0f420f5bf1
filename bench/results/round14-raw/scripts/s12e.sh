#!/usr/bin/env bash
# Session 12 call 5: hud.comp variants on dc04a6f's shader (w0): vV two hits a round, wR1 / wR4 one / four pixel rows an invocation.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  for v in w0 vV wR1 wR4; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/hudp/$v > $R/hud.txt 2>&1
    echo "hud $v $i: $(grep -E '^hud ' $R/hud.txt | awk '{print $4}')"
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --set shaders.live=true --set shaders.dir=$D/hudp/$v --stats-json $R/d.json > /dev/null 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('demo4k $v $i', ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('hud','tonemap','readback')))" $R/d.json
  done
done
for v in w0 vV; do
  timeout 100 $T bench --only frame --set shaders.dir=$D/hudp/$v > $R/frame.txt 2>&1
  echo "frame $v: $(grep -E '^frame-gpu-span' $R/frame.txt | awk '{print $1, $4}' | tr '\n' ' ')"
done
rm -f $R/*
