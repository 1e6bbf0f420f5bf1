#!/usr/bin/env bash
# Session 8 call 5: frame-cpu three times with the 20,000-frame warm-up; a validated soak of 60,000 frames (host query resets).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; T=$D/tally/tally; R=$OUT/r; mkdir -p $R
for i in 1 2 3; do
  timeout 120 $T bench --only frame --progress --json $R/frame$i.json > $R/frame$i.txt 2>&1; echo "rc $?" >> $R/frame$i.txt
  grep -E "frame-cpu [0-9]|replay of" $R/frame$i.txt
done
timeout 300 $T soak --frames 60000 > $R/soak60k.txt 2>&1; echo "rc $?" >> $R/soak60k.txt
grep -E 'soak|rc ' $R/soak60k.txt | tail -6
tar czf $OUT/c5.tgz -C $OUT r
