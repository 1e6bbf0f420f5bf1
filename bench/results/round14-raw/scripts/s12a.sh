#!/usr/bin/env bash
# Session 12 call 1: a JFR profile (Java and native samples, 1 ms) of the demo's frame loop at 1280x720 on HEAD's dist,
# perf if the machine has it, and one frame bench run.
set -u
OUT=$1
D=$PWD/.devrun; T=$D/tally/tally; R=$OUT/r; mkdir -p $R
lscpu | grep -E "Model name|^CPU\(s\)|MHz" > $R/cpu.txt; cat $R/cpu.txt
which perf gdb strace ltrace 2>&1 | head -5
TALLY_JAVA_OPTS="-XX:StartFlightRecording=filename=$OUT/prof.jfr,settings=$D/prof.jfc" timeout 150 $T demo --headless --width 1280 --height 720 \
  --frames 60000 --fixed-dt 0.0166 > $R/demo.log 2>&1; echo "rc $?" >> $R/demo.log
tail -2 $R/demo.log
timeout 200 $T bench --only frame --progress --json $R/frame.json > $R/frame.txt 2>&1; echo "rc $?" >> $R/frame.txt
grep -E "frame-gpu|frame-cpu [0-9]|replay of|rc " $R/frame.txt
