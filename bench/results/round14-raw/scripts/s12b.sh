#!/usr/bin/env bash
# Session 12 call 2: the demo's frame by section on this CPU (instrumented demo jar), the readback capture declared
# before the tonemap (A/B, alternated), and hud.comp variants locating the plot's cost.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
rm -rf /tmp/t12 && cp -r $D/tally /tmp/t12 && cp $D/s12/tally-demo.jar /tmp/t12/lib/tally-demo-0.1.0-SNAPSHOT.jar
T=/tmp/t12/tally
for i in 1 2; do
  TALLY_JAVA_OPTS="-Dtally.sections=true" timeout 60 $T demo --headless --width 1280 --height 720 --frames 60000 --fixed-dt 0.0166 > $R/sections$i.log 2>&1
  grep -E "^sections|frames in" $R/sections$i.log
done
for i in 1 2 3; do
  for v in base early-capture; do
    TALLY_JAVA_OPTS="-Dtally.hack=$v" timeout 100 $T bench --only frame --progress --json $R/frame-$v-$i.json > $R/frame-$v-$i.txt 2>&1
    echo "$v $i: $(grep -E '^  frame-gpu-span' $R/frame-$v-$i.txt | awk '{print $1, $3}' | tr '\n' ' ')"
    TALLY_JAVA_OPTS="-Dtally.hack=$v" timeout 60 $T demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json $R/demo4k-$v-$i.json > $R/demo4k-$v-$i.log 2>&1
  done
done
TALLY_JAVA_OPTS="-Dtally.hack=early-capture" timeout 120 $T demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate > $R/validate-early.log 2>&1; tail -1 $R/validate-early.log
for i in 1 2; do
  for v in v0 vA vB vC; do
    timeout 60 $T bench --only hud --progress --set shaders.dir=$D/hudp/$v > $R/hud-$v-$i.txt 2>&1
    echo "hud $v $i: $(grep -E '^  hud' $R/hud-$v-$i.txt | tr '\n' ' ')"
  done
done
python3 - $R <<'PY'
import json,sys,glob,os
for f in sorted(glob.glob(sys.argv[1]+'/demo4k-*.json')):
    try: d=json.load(open(f))
    except Exception as e: print(os.path.basename(f), 'unreadable', e); continue
    print(os.path.basename(f), ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))
PY
