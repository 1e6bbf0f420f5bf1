#!/usr/bin/env bash
# Session 13 call 7: per-pass figures against the L2's state and the input's making. Tonemap (TALLY_PROBE_FILL):
# clear (shipped), compute, once, once-cold and compute-cold (a 512 MiB clean flush pass right before the tonemap).
# Exposure (TALLY_PROBE_EXPOSURE_FILL, TALLY_PROBE_COMPUTE_FILL=1: the image written by a compute pass, not a clear).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for m in clear compute once once-cold compute-cold; do
    TALLY_PROBE_FILL=$m timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13p > $R/t$m$i.txt 2>&1
    echo "tonemap $m $i: $(grep -E '^(tonemap |probe-tonemap-sampled)' $R/t$m$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/t$m$i.txt | head -2
  done
done
for i in 1 2; do
  for f in CLEAR ONCE_COLD ONCE_WARM; do
    for c in no yes; do
      if [ $c = yes ]; then export TALLY_PROBE_COMPUTE_FILL=1; else unset TALLY_PROBE_COMPUTE_FILL; fi
      TALLY_PROBE_EXPOSURE_FILL=$f timeout 90 $T bench --only exposure --set shaders.dir=$D/s13p > $R/e$f$c$i.txt 2>&1
      echo "exposure $f compute=$c $i: $(grep -E '^exposure-(histogram|reduce|exposure|chain|sampled-histogram) ' $R/e$f$c$i.txt | awk '{print $1, $4}' | sed 's/exposure-//' | paste -sd' ')"; grep -iE 'error|exception' $R/e$f$c$i.txt | head -2
    done
  done
done
unset TALLY_PROBE_COMPUTE_FILL
tar czf $OUT/s13h.tgz -C $R .
