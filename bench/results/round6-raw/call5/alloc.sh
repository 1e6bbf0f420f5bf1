#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; J=$D/tally/runtime/bin/java
timeout 120 $J -Xss4m -XX:TLABSize=2k -XX:-ResizeTLAB -XX:StartFlightRecording=filename=$OUT/demo.jfr,settings=$D/alloc.jfc -cp "$D/tally/lib/*" dev.tally.demo.Main demo --headless --width 1280 --height 720 --frames 6000 --fixed-dt 0.0166 > $OUT/demo.log 2>&1; echo "rc $?" >> $OUT/demo.log
timeout 120 $J -Xss4m -XX:TLABSize=2k -XX:-ResizeTLAB -XX:StartFlightRecording=filename=$OUT/bench.jfr,settings=$D/alloc.jfc -cp "$D/tally/lib/*" dev.tally.demo.Main bench --only frame > $OUT/bench.log 2>&1; echo "rc $?" >> $OUT/bench.log
ls -la $OUT; tail -3 $OUT/demo.log
