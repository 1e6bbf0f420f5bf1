#!/usr/bin/env bash
# Session 13 call 5 (probe v2: images cleared / written by compute / sampled, B10G11R11, RGBA16F buffer): the tonemap's HDR read from an image, an RGBA16F buffer and a packed B10G11R11 buffer (probe kernels,
# same sampler), tonemap-floor (a compute copy of the tonemap's bytes), and the shipped tonemap with loads only.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2 3; do
  timeout 90 $T bench --only tonemap --set shaders.dir=$D/s13p > $R/p$i.txt 2>&1
  echo "probe $i: $(grep -E '^(tonemap|probe)' $R/p$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/p$i.txt | head -2
  timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13t/loadf > $R/l$i.txt 2>&1
  echo "loadonly $i: $(grep -E '^tonemap ' $R/l$i.txt | awk '{print $1, $4}')"; grep -iE 'error|exception' $R/l$i.txt | head -2
done
tar czf $OUT/s13f.tgz -C $R .
