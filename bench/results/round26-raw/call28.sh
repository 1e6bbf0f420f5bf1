#!/usr/bin/env bash
# round 26 call 5: a JDK 25 runtime (this round's jars, LWJGL's core without FFM) with and without compact object headers, in turn
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="${2:-8}"
F="-XX:+UseTransparentHugePages --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
bash "$G/ab25.sh" "$OUT" "$R" "j25=-:$F" "j25coh=-:$F -XX:+UseCompactObjectHeaders"
cat "$OUT/summary.txt"
