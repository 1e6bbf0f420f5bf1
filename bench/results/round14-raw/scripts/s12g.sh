#!/usr/bin/env bash
# Session 12 call 7: the HUD by part on f40c277's shader (x0): k1 plot skipped, k2 glyphs skipped, k3 every range skipped,
# k5 the target's pixels not loaded.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
for i in 1 2; do
  for v in x0 k1 k2 k3 k5; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/hudp/$v > $R/hud.txt 2>&1
    echo "hud $v $i: $(grep -E '^hud ' $R/hud.txt | awk '{print $4}') $(grep -iE 'error|exception' $R/hud.txt | head -2)"
  done
done
rm -f $R/*
