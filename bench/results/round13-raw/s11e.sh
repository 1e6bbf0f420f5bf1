#!/usr/bin/env bash
# Session 11 call 5: the full round on f143715's dist (captures gathered by compute), then frame-gpu-span once more.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
bash "$B/h200.sh" "$OUT" all
echo "== frame again $(date +%T)"
timeout 90 "$B/tally/tally" bench --only frame --progress --json "$OUT/r/frame-2.json" > "$OUT/r/frame-2.txt" 2>&1; echo "rc $?" >> "$OUT/r/frame-2.txt"
grep -E "frame-gpu-span|Tally/replay" "$OUT/r/frame-2.txt" | head -6
python3 - "$OUT" <<'P'
import json,sys
d=json.load(open(sys.argv[1]+'/r/demo4k-b10g11r11.json'))
print('demo4k passes', [(p['name'],round(p['gpuMicrosMedian'],2)) for p in d['passes']])
P
tar czf "$OUT/results-s11e.tgz" -C "$OUT" r; rm -rf "$OUT/r"
