#!/usr/bin/env bash
# Session 12 call 10 (dist with f40c277's engine): the HUD by part, k6 rectangles skipped, k7 histogram bars skipped.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  for v in h0 k6 k7; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/hudp/$v > $R/hud.txt 2>&1
    echo "hud $v $i: $(grep -E '^hud ' $R/hud.txt | awk '{print $4}') $(grep -iE 'error|exception' $R/hud.txt | head -2)"
  done
done
rm -f $R/*
