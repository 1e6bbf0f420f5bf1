#!/usr/bin/env bash
# One device call for the H200's figures: the full bench, CUB in the same call, the frame's CPU cost and
# allocation (JMH), the demo at 4K in both HDR formats and a validated 1080p run.
# On the GPU machine, from a folder holding tally/ (./tally dist), jmh/ (jmh-core, jopt-simple, commons-math3
# jars), cub_reference.py and fold_cub.py:   bash h200.sh OUTDIR [bench|frame|all]
# bench: the full bench and CUB, folded into OUTDIR/nvidia-h200.json; frame: JMH and the demo runs (each part fits
# one 10-minute device command). Writes OUTDIR/results-PART.tgz (every raw output).
set -u
B="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"; PART="${2:-all}"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
pack() { tar czf "$OUT/results-$PART.tgz" -C "$OUT" r; }
step() { echo "== $1 $(date +%T)" | tee -a "$R/steps.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" > "$R/cpu.txt" 2>&1
if [ "$PART" != frame ]; then
step bench
timeout 300 "$T" bench --progress --json "$R/bench.json" > "$R/bench.txt" 2> "$R/bench.log"; echo "rc $?" >> "$R/bench.txt"
pack
step cub
timeout 120 python3 "$B/cub_reference.py" --flush clean --json "$R/cub.json" > "$R/cub.txt" 2>&1; echo "rc $?" >> "$R/cub.txt"
step fold
cp "$R/bench.json" "$OUT/nvidia-h200.json" && python3 "$B/fold_cub.py" "$OUT/nvidia-h200.json" "$R/cub.json"
grep -E "^(frame-|exposure-|tonemap|hud|reduce-sum|reduce-stats)" "$R/bench.txt"; tail -8 "$R/cub.txt"
fi
if [ "$PART" != bench ]; then
step jmh
timeout 150 "$B/tally/runtime/bin/java" -Xss4m -cp "$B/tally/lib/*:$B/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc \
  -p size=160x90,1280x720 -wi 5 -w 2s -i 5 -r 2s -f 1 > "$R/jmh.txt" 2>&1; echo "rc $?" >> "$R/jmh.txt"
pack
for f in b10g11r11 rgba16f; do
  step "demo4k $f"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --hdr-format $f --stats-json "$R/demo4k-$f.json" \
    > "$R/demo4k-$f.log" 2>&1; echo "rc $?" >> "$R/demo4k-$f.log"
done
step "demo1080 validate"
timeout 60 "$T" demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate --stats-json "$R/demo1080-validate.json" \
  > "$R/demo1080-validate.log" 2>&1; echo "rc $?" >> "$R/demo1080-validate.log"
pack
step done
grep -E "alloc.rate.norm|FrameBenchmark" "$R/jmh.txt" | tail -8
for f in "$R"/demo*.json; do printf '%s ' "$(basename "$f")"; grep -o '"frameSpanMicrosMedian": [0-9.]*' "$f"; done
tail -2 "$R/demo1080-validate.log"
fi
