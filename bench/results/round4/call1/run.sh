#!/usr/bin/env bash
# One device call: the exposure/tonemap bench with the engine's shaders (input cases under --sweep), the
# same with the previous shaders (old exposure.comp), the read-only probe for every input, the demo at 4K.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT/r"; R="$OUT/r"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
date -u > "$R/times.txt"
"$B/tally/tally" bench --only exposure,tonemap --samples 50 --sweep --json "$R/new.json" > "$R/new.txt" 2> "$R/new.err"
date -u >> "$R/times.txt"
TALLY_HOME="$B/var/old" "$B/tally/tally" bench --only exposure,tonemap --samples 50 --json "$R/old.json" > "$R/old.txt" 2> "$R/old.err"
date -u >> "$R/times.txt"
TALLY_HOME="$B/var/probe" "$B/tally/tally" bench --only exposure --samples 50 --sweep --json "$R/probe.json" > "$R/probe.txt" 2> "$R/probe.err"
date -u >> "$R/times.txt"
"$B/tally/tally" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo4k.json" > "$R/demo4k.txt" 2>&1
date -u >> "$R/times.txt"
tar -czf "$OUT/results.tgz" -C "$OUT" r
cat "$R/new.txt" "$R/old.txt" "$R/probe.txt" | grep -E "exposure|tonemap"; tail -3 "$R"/*.err; cat "$R/times.txt"
