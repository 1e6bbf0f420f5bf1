#!/usr/bin/env bash
# Session 12 call 3: FrameRecorder.record by part and each pass's record callback (instrumented engine and demo jars).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
rm -rf /tmp/t12 && cp -r $D/tally /tmp/t12 && cp $D/s12/tally-demo.jar /tmp/t12/lib/tally-demo-0.1.0-SNAPSHOT.jar && cp $D/s12/tally-engine.jar /tmp/t12/lib/tally-engine-0.1.0-SNAPSHOT.jar
T=/tmp/t12/tally
for i in 1 2 3; do
  TALLY_JAVA_OPTS="-Dtally.sections=true" timeout 60 $T demo --headless --width 1280 --height 720 --frames 60000 --fixed-dt 0.0166 > $R/sections$i.log 2>&1
  grep -E "sections|frames in" $R/sections$i.log
done
