#!/usr/bin/env bash
# Session 8 call 1: frame-cpu after the JIT settles (twice), JMH at the frame-cpu size with the frame thread's bytes,
# and a JFR profile (Java and native samples, 1 ms) of the demo's frame loop at 1280x720.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; T=$D/tally/tally; R=$OUT/r; mkdir -p $R
lscpu | grep -E "Model name|^CPU\(s\)" > $R/cpu.txt
for i in 1 2; do
  timeout 120 $T bench --only frame --progress --json $R/frame$i.json > $R/frame$i.txt 2>&1; echo "rc $?" >> $R/frame$i.txt
  grep -E "frame-cpu [0-9]|replay of" $R/frame$i.txt
done
timeout 150 $D/tally/runtime/bin/java -Xss4m -cp "$D/tally/lib/*:$D/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc \
  -p size=1280x720 -wi 5 -w 2s -i 6 -r 2s -f 1 > $R/jmh.txt 2>&1; echo "rc $?" >> $R/jmh.txt
grep -E "frame thread|alloc.rate.norm|^FrameBenchmark|frame CPU" $R/jmh.txt | tail -16
TALLY_JAVA_OPTS="-XX:StartFlightRecording=filename=$OUT/prof.jfr,settings=$D/prof.jfc" timeout 120 $T demo --headless --width 1280 --height 720 \
  --frames 60000 --fixed-dt 0.0166 > $R/demo.log 2>&1; echo "rc $?" >> $R/demo.log
tail -3 $R/demo.log
tar czf $OUT/c1.tgz -C $OUT r
