#!/usr/bin/env bash
# Session 13 call 13: the full round (bench/h200.sh all) on a038429's dist (the written image within 2 % of one colour).
set -u
OUT=$1
W=/tmp/h200run; rm -rf $W; mkdir -p $W
bash $PWD/.devrun/h200.sh $W all > $W/log.txt 2>&1
cp $W/nvidia-h200.json $OUT/ ; cp $W/results-all.tgz $OUT/
grep -E "^(frame-|exposure-(histogram|chain|exposure|reduce|cleared-histogram|sampled-histogram) |tonemap|hud |reduce-sum|reduce-stats)" $W/r/bench.txt | awk '{print $1, $2, $4}'
tail -8 $W/r/cub.txt
grep -o "frame-cpu 1280x720 median.*" $W/r/bench.log | cut -c1-260
for f in $W/r/demo*.json; do printf '%s ' "$(basename $f)"; grep -o '"frameSpanMicrosMedian": [0-9.]*' $f; done
tail -1 $W/r/demo1080-validate.log; tail -2 $W/log.txt
