#!/usr/bin/env bash
# Round 6 device call: the full h200.sh run, then the statistics and histogram candidates (live shaders from .gpuvar).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; S=$PWD/.gpuvar; T=$D/tally/tally
bash $D/h200.sh /tmp/h200 all > $OUT/h200-all.txt 2>&1
cp /tmp/h200/results-all.tgz /tmp/h200/nvidia-h200.json $OUT/ 2>/dev/null
echo "== stats variants $(date +%T)" >> $OUT/steps.txt
TALLY_HOME=$S/stats timeout 200 $T bench --only reduce --json $OUT/stats.json --stats-variant v1=reduce_stats_v1.comp --stats-variant v2=reduce_stats_v2.comp --stats-variant v3=reduce_stats_v3.comp --stats-variant v4=reduce_stats_v4.comp --stats-variant v3l4=reduce_stats_v3.comp:LOADS=4 --stats-variant v4l4=reduce_stats_v4.comp:LOADS=4 --stats-variant v2b16=reduce_stats_v2.comp:BLOCK_STEPS=16 > $OUT/stats.txt 2>&1; echo "rc $?" >> $OUT/stats.txt
echo "== exposure $(date +%T)" >> $OUT/steps.txt
timeout 60 $T bench --only exposure --json $OUT/exposure.json > $OUT/exposure.txt 2>&1; echo "rc $?" >> $OUT/exposure.txt
TALLY_HOME=$S/gather timeout 60 $T bench --only exposure --json $OUT/exposure-gather.json > $OUT/exposure-gather.txt 2>&1; echo "rc $?" >> $OUT/exposure-gather.txt
echo "== done $(date +%T)" >> $OUT/steps.txt
grep -E "^(reduce-stats|reduce-sum)" $OUT/stats.txt | head -40
grep -E "histogram|chain" $OUT/exposure.txt $OUT/exposure-gather.txt | head
