#!/usr/bin/env bash
# Session 11 call 4: the readback ring's buffer regions copied by compute (-Dtally.hack=5) against transfer copies (0),
# alternated three times; then the 4K demo both ways.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; mkdir -p "$OUT/r"
rm -rf /tmp/x && cp -r "$B/tally" /tmp/x && cp "$B/varjar/hack.jar" /tmp/x/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2 3; do
  for h in 0 5; do
    TALLY_JAVA_OPTS="-Dtally.hack=$h" timeout 60 /tmp/x/tally bench --only frame --progress --json "$OUT/r/span-$round-$h.json" > "$OUT/r/span-$round-$h.txt" 2>&1
    echo "round $round hack $h: $(grep -E '^  frame-gpu-span' "$OUT/r/span-$round-$h.txt" | awk '{print $1, $3}' | tr '\n' ' ')"
  done
done
for h in 0 5 0 5; do
  TALLY_JAVA_OPTS="-Dtally.hack=$h" timeout 60 /tmp/x/tally demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 \
    --stats-json "$OUT/r/demo4k-$h.json" > "$OUT/r/demo4k-$h.log" 2>&1
  echo "demo hack $h: $(tail -1 "$OUT/r/demo4k-$h.log" | cut -c1-120) $(python3 -c "
import json;d=json.load(open('$OUT/r/demo4k-$h.json'));print([(p['name'],round(p['gpuMicrosMedian'],2)) for p in d['passes'] if p['name'] in ('hud','readback','tonemap','hud.plot')], [(k,v) for k,v in d.items() if 'pan' in k.lower()][:3])")"
done
TALLY_JAVA_OPTS="-Dtally.hack=5" timeout 60 /tmp/x/tally demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate > "$OUT/r/demo1080-5.log" 2>&1
echo "validated 1080p, hack 5: $(tail -1 "$OUT/r/demo1080-5.log" | cut -c1-200)"; grep -c "SYNC-HAZARD" "$OUT/r/demo1080-5.log"
tar czf "$OUT/results-s11d.tgz" -C "$OUT" r; rm -rf "$OUT/r"
