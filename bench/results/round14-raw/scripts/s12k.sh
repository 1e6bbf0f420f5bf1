#!/usr/bin/env bash
# Session 12 call 12 (f40c277's engine): the 160x90 soak with validation, 24,000 frames, a report every 2,000 (RSS over time).
set -u
OUT=$1
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
T=$D/tally/tally
timeout 500 $T soak --frames 24000 --report-every 2000 > $R/soak24k.txt 2>&1; echo "rc $?" >> $R/soak24k.txt
grep -o 'frame [0-9]* at 160x90.*RSS [0-9.]* MiB' $R/soak24k.txt | sed 's/validation.*heap/heap/'
grep -E 'soak|frame time|rc ' $R/soak24k.txt | grep -v '^soak: ' | tail -4
