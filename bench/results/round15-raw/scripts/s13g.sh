#!/usr/bin/env bash
# Session 13 call 6: the shipped tonemap kernel in the bench's frame loop with its HDR image made four ways
# (TALLY_PROBE_FILL): clear (as shipped: vkCmdClearColorImage, SAMPLED|TRANSFER_DST), clear-storage (the same with
# STORAGE usage too), compute (written each frame by a compute pass, as a compute scene does), once (written once, imported);
# and with loads only (s13t/loadf) for clear and compute.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for m in clear clear-storage compute once; do
    TALLY_PROBE_FILL=$m timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13p > $R/$m$i.txt 2>&1
    echo "$m $i: $(grep -E '^(tonemap |probe-tonemap-sampled|tonemap-floor)' $R/$m$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/$m$i.txt | head -2
  done
  for m in clear compute; do
    TALLY_PROBE_FILL=$m timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13t/loadf > $R/l$m$i.txt 2>&1
    echo "loadonly $m $i: $(grep -E '^tonemap ' $R/l$m$i.txt | awk '{print $1, $4}')"; grep -iE 'error|exception' $R/l$m$i.txt | head -2
  done
done
tar czf $OUT/s13g.tgz -C $R .
