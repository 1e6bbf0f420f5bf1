#!/usr/bin/env bash
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT"
timeout 100 "$B/tally/runtime/bin/java" -Xss4m -cp "$B/tally/lib/*:$B/jmh/*" org.openjdk.jmh.Main FrameBenchmark -prof "stack:lines=3;top=40;detailLine=false" \
  -p size=160x90 -wi 3 -w 2s -i 3 -r 3s -f 1 > "$OUT/jmh-stack.txt" 2>&1
sed -n '/Secondary result "dev.tally.demo.jmh.FrameBenchmark.demoFrame:stack"/,$p' "$OUT/jmh-stack.txt" | head -150
