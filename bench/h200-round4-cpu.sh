#!/usr/bin/env bash
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT"
timeout 60 "$B/tally/tally" bench --only frame --progress --json "$OUT/frame.json" > "$OUT/frame.txt" 2> "$OUT/frame.log"
timeout 120 "$B/tally/runtime/bin/java" -Xss4m -cp "$B/tally/lib/*:$B/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof gc \
  -p size=160x90,1280x720 -wi 3 -w 2s -i 3 -r 2s -f 1 > "$OUT/jmh.txt" 2>&1
grep frame-cpu "$OUT/frame.log"; grep -E "frame CPU|demoFrame  |alloc.rate.norm  " "$OUT/jmh.txt"
