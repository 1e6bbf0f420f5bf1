#!/usr/bin/env bash
# round 26 call 1: lib-s25 (664a360, round 24's engine) against lib-s26 (18314b3: the age window's lazy median), and
# lib-s26 with LWJGL's argument checks off (-Dorg.lwjgl.util.NoChecks=true), in turn
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="${2:-3}"
bash "$G/ab25.sh" "$OUT" "$R" "s25=lib-s25:-XX:+UseTransparentHugePages" "s26=lib-s26:-XX:+UseTransparentHugePages" "s26nc=lib-s26:-XX:+UseTransparentHugePages -Dorg.lwjgl.util.NoChecks=true"
cat "$OUT/summary.txt"
