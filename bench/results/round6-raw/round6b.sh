#!/usr/bin/env bash
# Round 6, second call: frame-cpu A/B (round 5's jars against HEAD's, alternating, same call) and the statistics candidates.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; S=$PWD/.gpuvar; T=$D/tally/tally; J=$D/tally/runtime/bin/java
OTHER=$(ls $D/tally/lib/*.jar | grep -v 'tally-' | tr '\n' ':')
for i in 1 2 3; do
  echo "== frame head $i $(date +%T)" >> $OUT/steps.txt
  timeout 90 $T bench --only frame --json $OUT/frame-head-$i.json > $OUT/frame-head-$i.txt 2>&1
  echo "== frame r5 $i $(date +%T)" >> $OUT/steps.txt
  timeout 90 $J -Xss4m -cp "$D/r5lib/*:$OTHER" dev.tally.demo.Main bench --only frame --json $OUT/frame-r5-$i.json > $OUT/frame-r5-$i.txt 2>&1
done
echo "== jmh $(date +%T)" >> $OUT/steps.txt
timeout 150 $J -Xss4m -cp "$D/tally/lib/*:$D/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc -p size=160x90,1280x720 -wi 5 -w 2s -i 5 -r 2s -f 1 > $OUT/jmh.txt 2>&1
if ls $S/stats2/shaders/*.comp >/dev/null 2>&1; then
  echo "== stats2 $(date +%T)" >> $OUT/steps.txt
  TALLY_HOME=$S/stats2 timeout 200 $T bench --only reduce --json $OUT/stats2.json $(cat $S/stats2/args.txt) > $OUT/stats2.txt 2>&1
fi
echo "== done $(date +%T)" >> $OUT/steps.txt
grep -h 'frame-cpu ' $OUT/frame-*.txt | cut -c1-60
for f in $OUT/frame-*.json; do python3 -c "import json,sys;c=[x for x in json.load(open(sys.argv[1]))['cases'] if x['name']=='frame-cpu'][0];print(sys.argv[1].split('/')[-1],c.get('cpuMicrosMedian'),c.get('threadCpuMicrosMedian'),c.get('bytesPerFrame'),c.get('replayCpuMicrosPerFrame'),c.get('tallyOverReplay'))" $f; done
grep -E "alloc.rate.norm|FrameBenchmark.demoFrame " $OUT/jmh.txt | tail -4
grep -E "^reduce-(stats|sum)" $OUT/stats2.txt 2>/dev/null | awk '$2>=16777216' | head -30
