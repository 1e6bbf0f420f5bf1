#!/usr/bin/env bash
# round 25 call 1: PMU profiles (cycles, instructions) of one frame bench each, then base against -XX:-TieredCompilation
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
mkdir -p "$OUT/hw" "$OUT/ab"
bash "$G/hw.sh" "$OUT/hw" lib-s25 cycles:200000 instructions:200000
bash "$G/ab25.sh" "$OUT/ab" 2 "base=lib-s25:-XX:+UseTransparentHugePages" "notier=lib-s25:-XX:+UseTransparentHugePages -XX:-TieredCompilation"
cat "$OUT/ab/summary.txt"
