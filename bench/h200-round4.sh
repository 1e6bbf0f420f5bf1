#!/usr/bin/env bash
# One device call for the round-4 figures. Run on the GPU machine from a folder holding tally/ (./tally dist),
# jmh/ (jmh-core, jopt-simple, commons-math3 jars) and cub_reference.py: bash h200-round4.sh OUTDIR [extra-demo-args...]
# Writes: gpu.txt, jmh.txt, bench.txt/bench.log/nvidia-h200.json (CUB folded in), cub.txt/cub-h200-clean-flush.json,
# demo4k-FORMAT.json/.log, demo1080-validate.json/.log, sweep.log, then packs everything into round4.tgz (the device returns few files).
set -u
B="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"; shift
mkdir -p "$OUT/r"
R="$OUT/r"
T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
pack() { tar czf "$OUT/round4.tgz" -C "$OUT" r; }
step() { echo "== $1 $(date +%T)" | tee -a "$R/steps.txt"; }
step jmh
timeout 150 "$B/tally/runtime/bin/java" -Xss4m -cp "$B/tally/lib/*:$B/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc \
  -p size=160x90,1280x720 -wi 5 -w 2s -i 5 -r 2s -f 1 > "$R/jmh.txt" 2>&1; echo "rc $?" >> "$R/jmh.txt"
pack
step bench
timeout 300 "$T" bench --progress --json "$R/nvidia-h200.json" > "$R/bench.txt" 2> "$R/bench.log"; echo "rc $?" >> "$R/bench.txt"
pack
step cub
timeout 120 python3 "$B/cub_reference.py" --flush clean --json "$R/cub-h200-clean-flush.json" > "$R/cub.txt" 2>&1
python3 "$B/fold_cub.py" "$R/nvidia-h200.json" "$R/cub-h200-clean-flush.json"   # one results file: bench/results/nvidia-h200.json
pack
for f in b10g11r11 rgba16f; do
  step "demo4k $f"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --hdr-format $f --stats-json "$R/demo4k-$f.json" "$@" \
    > "$R/demo4k-$f.log" 2>&1; echo "rc $?" >> "$R/demo4k-$f.log"
done
step "demo1080 validate"
timeout 60 "$T" demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate --stats-json "$R/demo1080-validate.json" \
  > "$R/demo1080-validate.log" 2>&1; echo "rc $?" >> "$R/demo1080-validate.log"
pack
step sweep
timeout 90 "$T" bench --only exposure --sweep --progress --samples 50 > "$R/sweep.txt" 2> "$R/sweep.log"
pack
step done
grep -E "^(frame-|exposure-|tonemap|hud|reduce-sum|reduce-stats)" "$R/bench.txt"; tail -8 "$R/cub.txt"
grep -E "alloc.rate.norm|FrameBenchmark" "$R/jmh.txt" | tail -8
