#!/usr/bin/env bash
# JMH FrameBenchmark A/B: the previous engine (oldlib/, main at f34709b) against this bundle's, same JVM and machine,
# interleaved old, new, new, old. Usage: bash ab-cpu.sh OUTDIR
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT"
COMMON=$(ls "$B"/tally/lib/*.jar | grep -v '/tally-' | tr '\n' ':')
for v in old new new old; do
  if [ $v = old ]; then CP="$B/oldlib/*:$COMMON$B/jmh/*"; else CP="$B/tally/lib/*:$B/jmh/*"; fi
  echo "== $v $(date +%T)" >> "$OUT/ab.txt"
  timeout 100 "$B/tally/runtime/bin/java" -Xss4m -cp "$CP" org.openjdk.jmh.Main FrameBenchmark -prof gc -p size=160x90,1280x720 \
    -wi 3 -w 2s -i 3 -r 2s -f 1 > "$OUT/jmh-$v.txt" 2>&1
  grep -E "frame CPU|demoFrame  |alloc.rate.norm" "$OUT/jmh-$v.txt" | sed "s/^/$v /" >> "$OUT/ab.txt"
  cat "$OUT/jmh-$v.txt" >> "$OUT/jmh-all-$v.txt"
done
cat "$OUT/ab.txt"
