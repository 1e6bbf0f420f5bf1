#!/usr/bin/env bash
# Alternating `bench --only frame` runs of variants NAME=LIBDIR:JVMFLAGS[|BENCHARGS], ROUNDS rounds, into OUT; summary.txt
# the frame-cpu line of each, phases-by-run.txt the phases of each, raw.tgz every run's output.
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; ROUNDS="$2"; shift 2
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
{ lscpu | grep -E "Model name|^CPU\(s\)"; cat /sys/kernel/mm/transparent_hugepage/enabled; } > "$OUT/cpu.txt"
J="$G/tally/runtime/bin/java"; "$J" -version 2>> "$OUT/cpu.txt"
for r in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    name="${spec%%=*}"; rest="${spec#*=}"; lib="${rest%%:*}"; rest="${rest#*:}"; flags="${rest%%|*}"; args=""
    [[ "$rest" == *"|"* ]] && args="${rest#*|}"
    cp="$G/tally/lib/*"; [ "$lib" != "-" ] && cp="$G/$lib/*:$G/tally/lib/*"
    envs=(); jflags=()
    for t in $flags; do if [[ "$t" == -* ]]; then jflags+=("$t"); else envs+=("$t"); fi; done
    timeout 150 env "${envs[@]}" "$J" -Xss4m "${jflags[@]}" -cp "$cp" dev.tally.tools.ToolsMain bench --only frame $args > "$OUT/b-$name-$r.txt" 2>&1
    printf '%-8s r%d %s\n' "$name" "$r" "$(grep -h '^frame-cpu ' "$OUT/b-$name-$r.txt" | sed 's/.*not countable); //; s/ replaying the frame.*less the same waits//')" >> "$OUT/summary.txt"
    printf '%-8s r%d %s\n' "$name" "$r" "$(grep -h '^frame-cpu-phases' "$OUT/b-$name-$r.txt" | sed 's/.*median per phase): //')" >> "$OUT/phases-by-run.txt"
  done
done
cd "$OUT" && tar czf raw.tgz b-*.txt && rm -f b-*.txt
