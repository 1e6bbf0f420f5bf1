#!/usr/bin/env bash
# Alternating frame-cpu runs of variants NAME=LIBDIR:JVMFLAGS (LIBDIR "-" = the dist's own jars), ROUNDS rounds, into OUT.
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; ROUNDS="$2"; shift 2
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
lscpu | grep -E "Model name|^CPU\(s\)" > "$OUT/cpu.txt"
J="${JAVA_BIN:-$G/tally/runtime/bin/java}"; "$J" -version 2>> "$OUT/cpu.txt"
for r in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    name="${spec%%=*}"; rest="${spec#*=}"; lib="${rest%%:*}"; flags="${rest#*:}"
    cp="$G/tally/lib/*"; [ "$lib" != "-" ] && cp="$G/$lib/*:$G/tally/lib/*"
    timeout 120 "$J" -Xss4m $flags -cp "$cp" dev.tally.tools.ToolsMain bench --only frame > "$OUT/b-$name-$r.txt" 2>&1
    printf '%-8s r%d %s\n' "$name" "$r" "$(grep -h '^frame-cpu ' "$OUT/b-$name-$r.txt" | sed 's/.*not countable); //; s/ replaying the frame.*less the same waits//')" | tee -a "$OUT/summary.txt"
  done
done
