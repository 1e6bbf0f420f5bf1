#!/usr/bin/env bash
# Session 11 call 3: the readback pass taken apart (engine jar with -Dtally.hack: 0 as built, 1 no copy commands,
# 2 no image texel (neither its read nor its copy), 3 no reads and no copies (fill and timestamp only), 4 no capture).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT/r"
rm -rf /tmp/x && cp -r "$B/tally" /tmp/x && cp "$B/varjar/hack.jar" /tmp/x/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2; do
  for h in 0 1 2 3 4; do
    TALLY_JAVA_OPTS="-Dtally.hack=$h" timeout 60 /tmp/x/tally bench --only frame --progress --json "$OUT/r/span-$round-$h.json" > "$OUT/r/span-$round-$h.txt" 2>&1
    echo "round $round hack $h: $(grep -E '^  frame-gpu-span' "$OUT/r/span-$round-$h.txt" | awk '{print $1, $3}' | tr '\n' ' ')"
  done
done
for h in 0 1 2 3 4; do
  TALLY_JAVA_OPTS="-Dtally.hack=$h" timeout 60 /tmp/x/tally demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 \
    --stats-json "$OUT/r/demo4k-$h.json" > "$OUT/r/demo4k-$h.log" 2>&1
  echo "demo hack $h: $(python3 -c "
import json;d=json.load(open('$OUT/r/demo4k-$h.json'));print(d.get('frameSpanMicrosMedian'), [(p['name'],round(p['gpuMicrosMedian'],2)) for p in d['passes'] if p['name'] in ('hud','readback','tonemap','hud.plot')])")"
done
tar czf "$OUT/results-s11c.tgz" -C "$OUT" r; rm -rf "$OUT/r"
