#!/usr/bin/env bash
# Session 13 call 3: statistics tail variants (s13v/reduce_stats_v.comp): SHORT_BUTTERFLY (butterflies over the lanes that
# hold records only), FOLD_SUBGROUP (the last group's subgroup 0 folds alone, FOLD_BATCH record loads at once, no barrier).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
V="--set shaders.dir=$D/s13v"
VARS="--stats-variant sb=reduce_stats_v.comp:SHORT_BUTTERFLY=1 --stats-variant fs1=reduce_stats_v.comp:FOLD_SUBGROUP=1 --stats-variant fs2=reduce_stats_v.comp:FOLD_SUBGROUP=1,FOLD_BATCH=2 --stats-variant fs4=reduce_stats_v.comp:FOLD_SUBGROUP=1,FOLD_BATCH=4 --stats-variant fs1sb=reduce_stats_v.comp:FOLD_SUBGROUP=1,SHORT_BUTTERFLY=1 --stats-variant fs3sb=reduce_stats_v.comp:FOLD_SUBGROUP=1,FOLD_BATCH=3,SHORT_BUTTERFLY=1"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
show() { grep -E "^(reduce-sum|reduce-stats)" $1 | awk '$2==65536||$2==1048576||$2==16777216||$2==67108864{print $1, $2, $4}' | paste -sd' ' | sed 's/reduce-//g'; grep -iE "error|exception" $1 | head -3; }
for i in 1 2 3; do
  echo "== run $i $(date +%T)"
  timeout 170 $T bench --only reduce --max-log2 26 $V $VARS > $R/v$i.txt 2>&1; show $R/v$i.txt
done
echo "== done $(date +%T)"
tar czf $OUT/s13c.tgz -C $R .
