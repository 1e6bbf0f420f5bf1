#!/usr/bin/env bash
# round 25 call 2: lib-s25 (664a360, round 24's engine) against lib-s26 (18314b3: the age window's lazy median), and
# lib-s26 without LWJGL's argument checks (-Dorg.lwjgl.util.NoChecks=true), in turn
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="${2:-3}"
bash "$G/ab25.sh" "$OUT" "$R" "s25=lib-s25:-XX:+UseTransparentHugePages" "s26=lib-s26:-XX:+UseTransparentHugePages"

cat "$OUT/summary.txt"
