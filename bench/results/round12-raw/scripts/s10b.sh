#!/usr/bin/env bash
# Session 10 call 2 on 29ef6f3's dist: (1) the 4K demo: dist engine, barriers hoisted (engine-hoist.jar), hoisted with the
# readback slot's host-stage barrier dropped (engine-nohost.jar, a measurement hack), alternated twice; (2) the statistics
# kernel with few-step rounds (v3; FEW_STEPS 4, 8, 16) beside the engine's; (3) tonemap, exposure and HUD benches twice.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s10b"; mkdir -p "$R"; T="$B/tally/tally"
for v in hoist nohost; do rm -rf /tmp/$v && cp -r "$B/tally" /tmp/$v && cp "$B/varjar/engine-$v.jar" /tmp/$v/lib/tally-engine-0.1.0-SNAPSHOT.jar; done
for round in 1 2; do for j in base hoist nohost; do
  TT="$T"; [ $j != base ] && TT=/tmp/$j/tally; n=$j-$round
  timeout 60 "$TT" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done; done | tee "$R/hoist-ab.txt"
for round in 1 2; do for v in base tmskip; do
  n=live-$v-$round; L="--set shaders.live=true --set shaders.dir=$B/scv/$v"
  timeout 60 "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 $L --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done; done | tee "$R/tmskip-ab.txt"
timeout 240 "$T" bench --only reduce --progress --set shaders.live=true --set shaders.dir="$B/scv/stats2" --stats-variant v3=reduce_stats_v3.comp \
  --stats-variant v3f4=reduce_stats_v3.comp:FEW_STEPS=4u --stats-variant v3f16=reduce_stats_v3.comp:FEW_STEPS=16u \
  --json "$R/stats.json" > "$R/stats.txt" 2> "$R/stats.log"; echo "stats rc $?"
grep -E "^reduce-(sum|stats)" "$R/stats.txt"
for round in 1 2; do
  timeout 150 "$T" bench --only exposure,tonemap,hud --progress --json "$R/passes-$round.json" > "$R/passes-$round.txt" 2> "$R/passes-$round.log"; echo "passes $round rc $?"
  grep -E "^(exposure-|tonemap|hud)" "$R/passes-$round.txt"
done
tar czf "$OUT/s10b.tgz" -C "$OUT" s10b
