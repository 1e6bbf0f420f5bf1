#!/usr/bin/env bash
# Second round-4 call: what per-pass timestamps cost the frame (graph.passTimingInterval 1 vs 8) and the frame
# cases with span-only timing. Usage on the GPU machine: bash h200-round4b.sh OUTDIR
set -u
B="$(cd "$(dirname "$0")" && pwd)"
OUT="$1"; R="$OUT/r"; mkdir -p "$R"
T="$B/tally/tally"
pack() { tar czf "$OUT/round4b.tgz" -C "$OUT" r; }
demo() {   # name, extra args...
  local n="$1"; shift
  echo "== demo $n $(date +%T)" >> "$R/steps.txt"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 600 --fixed-dt 0.0166 --stats-json "$R/demo-$n.json" "$@" > "$R/demo-$n.log" 2>&1
  echo "rc $?" >> "$R/demo-$n.log"
}
for i in 1 8; do demo "interval$i" --set graph.passTimingInterval=$i; done
for i in 1 8; do demo "interval$i-rgba16f" --hdr-format rgba16f --set graph.passTimingInterval=$i; done
for i in 1 8; do demo "interval$i-hudoff" --hud off --set graph.passTimingInterval=$i; done
pack
echo "== bench frame interval 8 $(date +%T)" >> "$R/steps.txt"
timeout 120 "$T" bench --only frame,hud,tonemap,exposure --progress --set graph.passTimingInterval=8 --json "$R/bench-interval8.json" \
  > "$R/bench-interval8.txt" 2> "$R/bench-interval8.log"
pack
for f in "$R"/demo-*.json; do
  printf '%s ' "$(basename "$f")"; grep -o '"frameSpanMicrosMedian": [0-9.]*' "$f" | tr '\n' ' '
  grep -o '"name": "[^"]*", "gpuMicrosMedian": [0-9.]*' "$f" | sed 's/"name": //; s/, "gpuMicrosMedian": /=/' | tr '\n' ' '; echo
done
grep -E "^(frame-|hud|tonemap|exposure-)" "$R/bench-interval8.txt"
