#!/usr/bin/env bash
# Session 9 call 4 on dc13163's dist: (1) the histogram compiled live: shipped before 60ccede (hold), as shipped (hnew3),
# four loads a batch (hb4); (2) frame-cpu with the engine jar before the HUD text change (60ccede) and after, alternated;
# (3) a JFR profile of the demo's frame thread; (4) the full round (bench/h200.sh all).
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s4"; mkdir -p "$R"; T="$B/tally/tally"
for round in 1 2; do for v in hold hnew3 hb4; do
  n=$v-$round; L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done; done | tee "$R/histogram-ab.txt"
rm -rf /tmp/old && cp -r "$B/tally" /tmp/old && cp "$B/varjar/engine-60ccede.jar" /tmp/old/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2; do for j in new old; do
  TT="$T"; [ $j = old ] && TT=/tmp/old/tally
  timeout 120 "$TT" bench --only frame --progress > "$R/frame-$j-$round.txt" 2>&1
  echo "$j-$round $(grep -E 'frame-cpu [0-9]|replay of' "$R/frame-$j-$round.txt" | cut -c1-200 | tr '\n' ' ')"
done; done | tee "$R/cpu-ab.txt"
TALLY_JAVA_OPTS="-XX:StartFlightRecording=filename=$R/prof.jfr,settings=$B/prof.jfc" timeout 120 "$T" demo --headless --width 1280 --height 720 \
  --frames 60000 --fixed-dt 0.0166 > "$R/prof-demo.log" 2>&1; echo "rc $?" >> "$R/prof-demo.log"
tar czf "$OUT/s4.tgz" -C "$OUT" s4 && rm -rf "$R"
bash "$B/h200.sh" "$OUT" all > "$OUT/h200-all.txt" 2>&1
tail -30 "$OUT/h200-all.txt"
rm -rf "$OUT/r"
