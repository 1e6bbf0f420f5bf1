#!/usr/bin/env bash
# Session 11 call 1: the full round on 542a804's dist (frame-cpu in seven pairs), then frame-cpu twice more.
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
for f in /work/.gl/*.deb .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" / ; done; ldconfig
bash "$B/h200.sh" "$OUT" all
for k in 2 3; do
  echo "== frame-cpu run $k $(date +%T)"
  timeout 90 "$B/tally/tally" bench --only frame --progress --json "$OUT/r/frame-$k.json" > "$OUT/r/frame-$k.txt" 2>&1; echo "rc $?" >> "$OUT/r/frame-$k.txt"
  grep "frame-cpu" "$OUT/r/frame-$k.txt" | head -12
done
tar czf "$OUT/results-all.tgz" -C "$OUT" r
