#!/usr/bin/env bash
# Round 9, call 2: A/B of engine jars on HEAD's dist (V0 = d34afea's engine, V1 = 288094f's: no barrier move, V2 = HEAD),
# two alternating rounds of bench --only frame,hud and the 4K demo; then the full h200.sh run on V2.  bash r9b.sh OUT
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/ab"; mkdir -p "$R"
for v in V0 V1; do rm -rf /tmp/t$v && cp -r "$B/tally" /tmp/t$v; done
cp "$B/var/engine-d34afea.jar" /tmp/tV0/lib/tally-engine-0.1.0-SNAPSHOT.jar
cp "$B/var/engine-288094f.jar" /tmp/tV1/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2; do
  for v in V0 V1 V2; do
    T=$([ $v = V2 ] && echo "$B/tally/tally" || echo /tmp/t$v/tally)
    echo "== $v round $round $(date +%T)" >> "$R/steps.txt"
    timeout 120 "$T" bench --only frame,hud --progress > "$R/frame-$v-$round.txt" 2>&1
    timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo4k-$v-$round.json" > "$R/demo4k-$v-$round.log" 2>&1
  done
done
for f in "$R"/frame-*.txt; do echo "## $(basename $f)"; grep -E "^(frame-gpu-span|frame-cpu|hud )" "$f" | cut -c1-60,150-420; done
for f in "$R"/demo4k-*.json; do printf '%s ' "$(basename "$f")"; python3 -c "import json; d=json.load(open('$f')); print(d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))"; done
tar czf "$OUT/ab.tgz" -C "$OUT" ab && rm -rf "$R"
echo "== full run $(date +%T)"
bash "$B/h200.sh" "$OUT/full" all > "$OUT/full.log" 2>&1; tail -30 "$OUT/full.log"
cd "$OUT/full" && tar czf "$OUT/full-r.tgz" r && rm -rf r
