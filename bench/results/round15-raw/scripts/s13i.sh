#!/usr/bin/env bash
# Session 13 call 8: the tonemap in the frame loop with a persistent LDR target kept in GENERAL (TALLY_PROBE_LDR=1)
# against the transient one made each frame, and the probe kernel with the product's sRGB encode (-srgb).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for m in compute compute-cold; do
    for l in no yes; do
      if [ $l = yes ]; then export TALLY_PROBE_LDR=1; else unset TALLY_PROBE_LDR; fi
      TALLY_PROBE_FILL=$m timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13p > $R/t$m$l$i.txt 2>&1
      echo "tonemap $m ldr-persist=$l $i: $(grep -E '^(tonemap |probe-tonemap-sampled)' $R/t$m$l$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/t$m$l$i.txt | head -2
    done
  done
done
unset TALLY_PROBE_LDR
tar czf $OUT/s13i.tgz -C $R .
