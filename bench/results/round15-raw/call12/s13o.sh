#!/usr/bin/env bash
# Session 13 call 12: a second bench run of fc1da75's dist (bench/h200.sh bench), for the spread between runs.
set -u
OUT=$1
W=/tmp/h200run; rm -rf $W; mkdir -p $W
bash $PWD/.devrun/h200.sh $W bench > $W/log.txt 2>&1
cp $W/nvidia-h200.json $OUT/call12-nvidia-h200.json; cp $W/results-bench.tgz $OUT/
grep -E "^(frame-|exposure-(histogram|chain|exposure|reduce|cleared-histogram|sampled-histogram) |tonemap|hud |reduce-sum|reduce-stats)" $W/r/bench.txt | awk '{print $1, $2, $4}'
tail -8 $W/r/cub.txt
