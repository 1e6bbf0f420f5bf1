#!/usr/bin/env bash
# Session 10 call 1 on 29ef6f3's dist: (1) the statistics kernel with loads in predicated rounds and a one-level fold
# for few records (v2, compiled live) beside the engine's; (2) the 4K demo with barriers hoisted to the latest earlier
# pass that covers them (engine-hoist.jar) against the dist's engine, alternated twice; (3) the hoisted engine at 1080p
# with validation and synchronization validation.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/s10a"; mkdir -p "$R"; T="$B/tally/tally"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
rm -rf /tmp/hoist && cp -r "$B/tally" /tmp/hoist && cp "$B/varjar/engine-hoist.jar" /tmp/hoist/lib/tally-engine-0.1.0-SNAPSHOT.jar
for round in 1 2; do for j in base hoist; do
  TT="$T"; [ $j = hoist ] && TT=/tmp/hoist/tally; n=$j-$round
  timeout 60 "$TT" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-$n.json" > "$R/demo-$n.log" 2>&1
  printf '%s ' "$n"; python3 -c "import json; d=json.load(open('$R/demo-$n.json')); print('span %.2f' % d['async']['frameSpanMicrosMedian'], ' '.join('%s=%.2f' % (p['name'], p['gpuMicrosMedian']) for p in d['passes']))" 2>&1 | tail -1
done; done | tee "$R/hoist-ab.txt"
timeout 90 /tmp/hoist/tally demo --headless --width 1920 --height 1080 --frames 120 --fixed-dt 0.0166 --validate --stats-json "$R/hoist-1080-validate.json" > "$R/hoist-1080-validate.log" 2>&1
echo "validate rc $? $(tail -2 "$R/hoist-1080-validate.log" | tr '\n' ' ')"
timeout 240 "$T" bench --only reduce --progress --set shaders.live=true --set shaders.dir="$B/scv/stats2" --stats-variant v2=reduce_stats_v2.comp \
  --json "$R/stats.json" > "$R/stats.txt" 2> "$R/stats.log"; echo "stats rc $?"
grep -E "^reduce-(sum|stats)" "$R/stats.txt"
tar czf "$OUT/s10a.tgz" -C "$OUT" s10a
