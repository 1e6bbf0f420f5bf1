#!/bin/bash
# Usage: run.sh BUDGET_S VARIANT...  (each a folder under var/ with shaders/); results under $OUT/res, tarred after each variant.
# No new variant starts once BUDGET_S seconds have passed since the script began.
cd "$(dirname "$0")"
T0=$(date +%s)
BUDGET=$1; shift
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
for v in "$@"; do
  if [ $(( $(date +%s) - T0 )) -gt $BUDGET ]; then echo "$v | not run (budget)" | tee -a $R/summary.txt; continue; fi
  export TALLY_HOME=$PWD/var/$v
  start=$(date +%s.%N)
  timeout 30 tally/tally bench --only hud --samples 50 --json $R/$v-bench.json > $R/$v-bench.txt 2>&1; echo "rc $?" >> $R/$v-bench.txt
  timeout 30 tally/tally demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json $R/$v-demo.json > $R/$v-demo.log 2>&1; echo "rc $?" >> $R/$v-demo.log
  end=$(date +%s.%N)
  b=$(grep -E '^hud +[0-9]' $R/$v-bench.txt | awk '{print "bench", $4}')
  d=$(grep -o '"name": "hud", "gpuMicrosMedian": [0-9.]*' $R/$v-demo.json 2>/dev/null)
  p=$(grep -o '"name": "hud.plot", "gpuMicrosMedian": [0-9.]*' $R/$v-demo.json 2>/dev/null)
  ev=$(grep -o '"ev": [-0-9.NaN"]*' $R/$v-demo.json 2>/dev/null | head -1)
  echo "$v | $b | $d | $p | $ev | wall $start $end" | tee -a $R/summary.txt
  tail -c 1500 $R/$v-bench.txt | grep -i "error\|exception\|validation" | head -3 >> $R/summary.txt
  tail -c 1500 $R/$v-demo.log | grep -i "error\|exception\|validation" | head -3 >> $R/summary.txt
  cp $R/summary.txt $OUT/summary.txt
  tar czf $OUT/res.tgz -C $OUT res
done
echo "total $(( $(date +%s) - T0 )) s" >> $R/summary.txt
cp $R/summary.txt $OUT/summary.txt
tar czf $OUT/res.tgz -C $OUT res
