#!/usr/bin/env bash
# Session 12 call 4: hud.comp variants (D: one hit loop per kind; F: last box first; G: D+F; M: D with only what each kind
# reads shuffled, no bounds test for plot segments; N: M+F), bench hud, frame span and the 4K demo's passes.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  for v in v0 vD vF vG vM vN; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/hudp/$v > $R/hud-$v-$i.txt 2>&1
    echo "hud $v $i: $(grep -E '^  hud .*compute' $R/hud-$v-$i.txt | tr -s ' ' | tr '\n' ' ')"
  done
done
for i in 1 2; do
  for v in v0 vM vN; do
    timeout 100 $T bench --only frame --set shaders.dir=$D/hudp/$v > $R/frame-$v-$i.txt 2>&1
    echo "frame $v $i: $(grep -E '^  frame-gpu-span' $R/frame-$v-$i.txt | awk '{print $1, $3}' | tr '\n' ' ')"
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --set shaders.live=true --set shaders.dir=$D/hudp/$v --stats-json $R/d4k-$v-$i.json > /dev/null 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('demo4k $v $i', ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" $R/d4k-$v-$i.json
  done
done
timeout 120 $T demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate --set shaders.live=true --set shaders.dir=$D/hudp/vN > $R/validate-vN.log 2>&1; tail -1 $R/validate-vN.log
rm -f $R/*.json
