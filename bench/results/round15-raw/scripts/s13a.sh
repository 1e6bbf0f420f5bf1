#!/usr/bin/env bash
# Session 13 call 1: where the statistics kernel's ~2 us over the sum goes (timing-only variants in s13d: no shift
# load, no subgroup butterfly, no workgroup round, no fold, no ticket), and the one-pass group count.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
V="--set shaders.dir=$D/s13d"
DIAG="--stats-variant zs=reduce_stats_diag.comp:DIAG_ZERO_SHIFT=1 --stats-variant nb=reduce_stats_diag.comp:DIAG_NO_BUTTERFLY=1,DIAG_FAKE=1 --stats-variant nwg=reduce_stats_diag.comp:DIAG_NO_WG=1,DIAG_FAKE=1 --stats-variant nf=reduce_stats_diag.comp:DIAG_NO_FOLD=1,DIAG_FAKE=1 --stats-variant nt=reduce_stats_diag.comp:DIAG_NO_TICKET=1 --stats-variant g256=reduce_stats_diag.comp:GROUP_SIZE=256"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
show() { grep -E "^(reduce-sum|reduce-stats)" $1 | awk '$2==65536||$2==1048576||$2==16777216{print $1, $2, $4}' | paste -sd' ' | sed 's/reduce-//g'; grep -iE "error|exception" $1 | head -3; }
for i in 1 2; do
  echo "== diag run $i $(date +%T)"
  timeout 170 $T bench --only reduce --max-log2 24 $V $DIAG > $R/d$i.txt 2>&1; show $R/d$i.txt
done
for g in 396 528 198; do
  echo "== groups $g $(date +%T)"
  timeout 100 $T bench --only reduce --max-log2 24 $V --set reduce.groups=$g --stats-variant g256=reduce_stats_diag.comp:GROUP_SIZE=256 > $R/g$g.txt 2>&1; show $R/g$g.txt
done
echo "== done $(date +%T)"
grep -E "^reduce-stats " $R/d1.txt | head -3
tar czf $OUT/s13a.tgz -C $R .
