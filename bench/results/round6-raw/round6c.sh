#!/usr/bin/env bash
# Round 6, third call: the reduction bench with the engine's new statistics kernel, the frame cases, JMH.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; T=$D/tally/tally; J=$D/tally/runtime/bin/java
timeout 200 $T bench --only reduce,frame --json $OUT/reduce-frame.json > $OUT/reduce-frame.txt 2>&1; echo "rc $?" >> $OUT/reduce-frame.txt
timeout 150 $J -Xss4m -cp "$D/tally/lib/*:$D/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc -p size=160x90,1280x720 -wi 5 -w 2s -i 5 -r 2s -f 1 > $OUT/jmh.txt 2>&1
grep -E "^(reduce-sum|reduce-stats|frame-)" $OUT/reduce-frame.txt
grep -E "alloc.rate.norm|FrameBenchmark.demoFrame " $OUT/jmh.txt | tail -4
