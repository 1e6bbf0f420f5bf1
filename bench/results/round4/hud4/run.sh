#!/bin/bash
# Usage: run.sh VARIANT...  (each a folder under var/ with shaders/); results under $OUT/res, tarred after each step.
cd "$(dirname "$0")"
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
for v in "$@"; do
  export TALLY_HOME=$PWD/var/$v
  start=$(date +%s.%N)
  timeout 45 tally/tally bench --only hud --samples 50 --json $R/$v-bench.json > $R/$v-bench.txt 2>&1; echo "rc $?" >> $R/$v-bench.txt
  timeout 45 tally/tally demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json $R/$v-demo.json > $R/$v-demo.log 2>&1; echo "rc $?" >> $R/$v-demo.log
  end=$(date +%s.%N)
  b=$(grep -o 'hud 3840x2160 compute *[0-9.]* us' $R/$v-bench.txt | head -1)
  d=$(grep -o '"name": "hud", "gpuMicrosMedian": [0-9.]*' $R/$v-demo.json 2>/dev/null)
  echo "$v | $b | $d | wall $start $end" | tee -a $R/summary.txt
  tail -c 1500 $R/$v-bench.txt | grep -i "error\|exception\|validation" | head -3 >> $R/summary.txt
  tar czf $OUT/res.tgz -C $OUT res
done
cp $R/summary.txt $OUT/summary.txt
