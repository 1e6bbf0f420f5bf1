#!/usr/bin/env bash
# One device call: histogram and tonemap variants (shader copies under TALLY_HOME), then the full
# bench and CUB in the same run. Usage on the GPU machine, from the directory holding tally/ and
# shaders/: bash h200-sweep.sh OUTDIR [full]
set -u
B="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"; MODE="${2:-sweep}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
variant() {   # name, then sed expression applied to histogram.comp
  local v="$B/var/$1"; rm -rf "$v"; mkdir -p "$v"; cp -r "$B/shaders" "$v/"
  [[ -n "$2" ]] && sed -i "$2" "$v/shaders/histogram.comp"
  [[ -n "${3:-}" ]] && cp "$3" "$v/shaders/histogram.comp"
}
if [[ "$MODE" == sweep ]]; then
  variant b1 's/^#define LOAD_BATCH 4$/#define LOAD_BATCH 1/'
  variant b2 's/^#define LOAD_BATCH 4$/#define LOAD_BATCH 2/'
  variant b4 ''
  variant b8 's/^#define LOAD_BATCH 4$/#define LOAD_BATCH 8/'
  variant probe4 's/^#define LOAD_BATCH 4$/#define LOAD_BATCH 4\n#define HISTOGRAM_READ_PROBE/'
  [[ -f "$B/histogram-old.comp" ]] && variant old '' "$B/histogram-old.comp"
  for v in b4 b8 b2 b1 probe4 old; do
    [[ -d "$B/var/$v" ]] || continue
    echo "== $v"
    TALLY_HOME="$B/var/$v" "$B/tally/tally" bench --max-log2 0 --sweep --samples 10 2> "$OUT/$v.log" > /dev/null
    grep -E "exposure .*(histogram|chain)|tonemap" "$OUT/$v.log" | sed "s/^/$v /"
  done
fi
if [[ "$MODE" == gather ]]; then
  v="$B/var/gather"; rm -rf "$v"; mkdir -p "$v"; cp -r "$B/shaders" "$v/"; cp "$B/tonemap-gather.comp" "$v/shaders/tonemap.comp"
  for home in "$B/var/gather" ""; do
    echo "== tonemap ${home:-engine}"
    TALLY_HOME="$home" "$B/tally/tally" bench --max-log2 0 --samples 10 2> "$OUT/t.log" > /dev/null
    grep -E "tonemap" "$OUT/t.log"
  done
fi
if [[ "$MODE" == shapes ]]; then
  for v in histogram-8x4 histogram-8x4-probe histogram-probe tonemap-8x4; do
    d="$B/var/$v"; rm -rf "$d"; mkdir -p "$d"; cp -r "$B/shaders" "$d/"; cp "$B/$v.comp" "$d/shaders/${v%%-*}.comp"
  done
  for v in histogram-8x4 histogram-8x4-probe histogram-probe tonemap-8x4 engine; do
    echo "== $v"
    home="$B/var/$v"; [[ $v == engine ]] && home="$B"
    TALLY_HOME="$home" "$B/tally/tally" bench --max-log2 0 --samples 10 2> "$OUT/$v.log" > /dev/null
    grep -E "exposure .*(histogram|chain)|tonemap .*compute" "$OUT/$v.log" | sed "s/^/$v /"
  done
  MODE=full
fi
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
  grep -E "frame-|exposure-|tonemap|reduce-sum|reduce-stats" "$OUT/bench.txt"; grep -E "frame-" "$OUT/bench.log"; tail -7 "$OUT/cub.txt"
fi
