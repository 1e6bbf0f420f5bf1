#!/usr/bin/env bash
# Session 12 call 11 (f40c277's engine): soaks with validation and synchronization validation: 10,000 frames at 160x90,
# 3,000 at 1920x1080 with a resize every 500 frames (the compute HUD's tiles at every size).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
timeout 280 $T soak --frames 10000 > $R/soak160.txt 2>&1; echo "rc $?" >> $R/soak160.txt
grep -E 'soak|frame time|rc ' $R/soak160.txt | grep -v '^soak: ' | tail -4
timeout 280 $T soak --frames 3000 --width 1920 --height 1080 --resize-every 500 > $R/soak1080.txt 2>&1; echo "rc $?" >> $R/soak1080.txt
grep -E 'soak|frame time|rc ' $R/soak1080.txt | grep -v '^soak: ' | tail -4
grep -o 'frame [0-9]* at [0-9x]*: validation [0-9]*; VMA [0-9]* allocations' $R/soak1080.txt | tail -3
