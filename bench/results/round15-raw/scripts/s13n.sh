#!/usr/bin/env bash
# Session 13 call 11: the full round (bench/h200.sh all) on fc1da75's dist; only the folded JSON and the raw archive come back.
set -u
OUT=$1
W=/tmp/h200run; rm -rf $W; mkdir -p $W
bash $PWD/.devrun/h200.sh $W all
cp $W/nvidia-h200.json $OUT/ ; cp $W/results-all.tgz $OUT/
