set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; J=$D/tally/runtime/bin/java
timeout 200 $J -Xss4m -cp "$D/tally/lib/*:$D/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc -p size=1280x720 -wi 3 -w 2s -i 3 -r 2s -f 1 -jvmArgsAppend "-XX:TLABSize=2k -XX:-ResizeTLAB -XX:StartFlightRecording=filename=$OUT/jmh.jfr,settings=$D/alloc.jfc" > $OUT/jmh.txt 2>&1
grep -E 'alloc.rate.norm|demoFrame ' $OUT/jmh.txt | tail -3; ls -la $OUT
