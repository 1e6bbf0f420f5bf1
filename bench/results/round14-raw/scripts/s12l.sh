#!/usr/bin/env bash
# Session 12 call 13: statistics kernels for small n beside the engine's (bench --stats-variant, sizes 2^10..2^20):
# one32 one subgroup of 32 with 8 loads a round and no workgroup round for a single subgroup; one64 64 invocations,
# 4 loads; one32l4 32 invocations, 4 loads.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  timeout 200 $T bench --only reduce --max-log2 20 --set shaders.dir=$D/statsv \
    --stats-variant one32=reduce_stats_one.comp:GROUP_SIZE=32,LOADS=8 \
    --stats-variant one64=reduce_stats_one.comp:GROUP_SIZE=64,LOADS=4 \
    --stats-variant one32l4=reduce_stats_one.comp:GROUP_SIZE=32,LOADS=4 > $R/b.txt 2>&1
  echo "run $i"; grep -E "^reduce-(sum|stats)" $R/b.txt | awk '{print $1, $2, $4}'
  grep -iE "error|exception|mismatch" $R/b.txt | head -3
done
rm -f $R/*
