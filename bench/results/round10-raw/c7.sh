#!/usr/bin/env bash
# Session 8 call 7: where frame-cpu's 0.3 B come from in the full bench: JFR allocation events (no TLABs) of the whole bench
# but the reduction sweep; the events whose stack holds DemoFrames.measure are the measured run's.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; T=$D/tally/tally; R=$OUT/r; mkdir -p $R
TALLY_JAVA_OPTS="-XX:-UseTLAB -XX:FlightRecorderOptions=stackdepth=96 -XX:StartFlightRecording=filename=$R/bench.jfr,settings=$D/alloc2.jfc" \
  timeout 400 $T bench --progress --only reduce,exposure,tonemap,hud,frame > $R/bench.txt 2>&1; echo "rc $?" >> $R/bench.txt
grep -E "frame-cpu [0-9]|replay of" $R/bench.txt
ls -la $R
tar czf $OUT/c7.tgz -C $OUT r
