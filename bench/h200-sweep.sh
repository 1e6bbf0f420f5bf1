#!/usr/bin/env bash
# One device call: the rows sweep and frames in flight 1 vs 3 (round2), JMH (final), then the full bench
# and CUB in the same run, CUB folded into the bench's file. Usage on the GPU machine, from the directory
# holding tally/: bash h200-sweep.sh OUTDIR [round2|final|full]
set -u
B="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"; MODE="${2:-full}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
if [[ "$MODE" == round2 ]]; then
  echo "== sweep (engine shaders)"
  "$B/tally/tally" bench --max-log2 0 --sweep --samples 10 2> "$OUT/sweep.log" > /dev/null
  grep -E "exposure .*(histogram|chain)|tonemap" "$OUT/sweep.log"
  for f in 1 3; do
    echo "== frames in flight $f"
    "$B/tally/tally" bench --max-log2 0 --samples 10 --set frames.inFlight=$f --set readback.slots=4 2> "$OUT/inflight$f.log" > /dev/null
    grep -E "exposure |tonemap" "$OUT/inflight$f.log"
  done
  MODE=full
fi
if [[ "$MODE" == final ]]; then
  "$B/tally/runtime/bin/java" -Xss4m -cp "$B/tally/lib/*" org.openjdk.jmh.Main FrameBenchmark -prof gc -p size=160x90,1280x720 > "$OUT/jmh.txt" 2>&1
  grep -E "frame CPU|demoFrame " "$OUT/jmh.txt"; grep -E "alloc.rate.norm" "$OUT/jmh.txt"
  MODE=full
fi
if [[ "$MODE" == full ]]; then
  "$B/tally/tally" bench --json "$OUT/nvidia-h200.json" > "$OUT/bench.txt" 2> "$OUT/bench.log"
  python3 "$B/cub_reference.py" --flush clean --json "$OUT/cub-h200-clean-flush.json" > "$OUT/cub.txt" 2>&1
  python3 "$B/fold_cub.py" "$OUT/nvidia-h200.json" "$OUT/cub-h200-clean-flush.json"
  grep -E "frame-|exposure-|tonemap|reduce-sum|reduce-stats" "$OUT/bench.txt"; grep -E "frame-" "$OUT/bench.log"; tail -7 "$OUT/cub.txt"
fi
