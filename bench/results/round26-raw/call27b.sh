#!/usr/bin/env bash
# round 26 call 3: lib-s26 (18314b3) against lib-s27 (the captures' source lists: the demo's capture from a refilled list), in turn
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="${2:-8}"
bash "$G/ab25.sh" "$OUT" "$R" "s26=lib-s26:-XX:+UseTransparentHugePages" "s27=lib-s27:-XX:+UseTransparentHugePages"
cat "$OUT/summary.txt"
