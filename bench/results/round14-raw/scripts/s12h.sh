#!/usr/bin/env bash
# Session 12 call 9: the HUD's panels blended as the pixels load (working tree on f40c277) against f40c277, alternated.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
rm -rf /tmp/t12 && cp -r $D/tally /tmp/t12
T=/tmp/t12/tally
for i in 1 2 3; do
  for v in f40c277 panels; do
    cp $D/s12/engine-$v.jar /tmp/t12/lib/tally-engine-0.1.0-SNAPSHOT.jar
    timeout 60 $T bench --only hud > $R/hud.txt 2>&1
    timeout 100 $T bench --only frame > $R/frame.txt 2>&1
    timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json $R/d.json > /dev/null 2>&1
    echo "$v $i: hud $(grep -E '^hud ' $R/hud.txt | awk '{print $4}') | $(grep -E '^frame-gpu-span' $R/frame.txt | awk '{print $1, $4}' | tr '\n' ' ')| $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes'] if p['name'] in ('hud','tonemap')))" $R/d.json)"
  done
done
timeout 120 $T demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate > $R/v.log 2>&1; tail -1 $R/v.log
rm -f $R/*
