#!/usr/bin/env bash
# Round 23's A/B: frame-cpu of round 21's jars (lib-s21c, 84ec6b7), round 22's (lib-s22t: 29b0579's engine and demo, 3e1c693's
# tools for the replay's phases) and round 23's (lib-s23), in turn: base, s22, s23, then s22 and s23 again.
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
bash "$G/gc.sh" "$OUT" 1 "base=lib-s21c:-XX:+UseG1GC" "s22=lib-s22t:-XX:+UseG1GC" "s23=lib-s23:-XX:+UseG1GC"
bash "$G/gc.sh" "$OUT" 1 "s22again=lib-s22t:-XX:+UseG1GC" "s23again=lib-s23:-XX:+UseG1GC"
for f in "$OUT"/b-*-*.txt; do echo "$(basename $f): $(grep -h 'frame-cpu-phases' $f | grep -v '^frame-cpu-phases ' | sed 's/^ *//' | tr '\n' ' ')"; done | tee "$OUT/phases.txt"
cd "$OUT" && tar czf raw.tgz b-*.txt && rm -f b-*.txt
