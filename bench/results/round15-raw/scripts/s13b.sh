#!/usr/bin/env bash
# Session 13 call 2: the tonemap's stores, formatted (rgba8 image2D) against raw (r32ui, packUnorm4x8, into the same
# rgba8 image: a timing experiment only), with loads and store-only, alternated twice.
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
for i in 1 2; do
  for v in base raw storef storer; do
    timeout 60 $T bench --only tonemap --set shaders.dir=$D/s13t/$v > $R/t$v$i.txt 2>&1
    echo "$v $i $(grep -E '^tonemap ' $R/t$v$i.txt | awk '{print $4, $5, $6}') $(grep -ciE 'error|exception' $R/t$v$i.txt)"
  done
done
for i in 1 2; do
  for v in base raw; do
    timeout 60 $T bench --only hud --set shaders.dir=$D/s13h/$v > $R/h$v$i.txt 2>&1
    echo "hud-$v $i $(grep -E '^hud ' $R/h$v$i.txt | awk '{print $4, $5, $6}') $(grep -ciE 'error|exception' $R/h$v$i.txt)"
  done
done
for i in 1 2; do
  for v in base raw; do
    timeout 90 $T bench --only exposure --set shaders.dir=$D/s13g/$v > $R/g$v$i.txt 2>&1
    echo "hist-$v $i $(grep -E '^exposure' $R/g$v$i.txt | awk '{print $1, $4}' | paste -sd' ')"; grep -iE 'error|exception' $R/g$v$i.txt | head -2
  done
done
tar czf $OUT/s13b.tgz -C $R .
