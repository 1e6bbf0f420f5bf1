#!/usr/bin/env bash
# usage: hw.sh OUT LIBDIR EVENT:INTERVAL ...  -- one `bench --only frame` per event under async-profiler (PMU events), collapsed stacks
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; LIB="$2"; shift 2
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
{ lscpu; cat /sys/kernel/mm/transparent_hugepage/enabled; cat /proc/sys/kernel/perf_event_paranoid; } > "$OUT/cpu.txt" 2>&1
J="$G/tally/runtime/bin/java"
for spec in "$@"; do
  ev="${spec%%:*}"; iv="${spec#*:}"
  timeout 170 "$J" -Xss4m -XX:+UseTransparentHugePages -agentpath:"$G/libasyncProfiler.so=start,event=$ev,interval=$iv,cstack=no,file=$OUT/$ev.collapsed,collapsed" \
     -cp "$G/$LIB/*:$G/tally/lib/*" dev.tally.tools.ToolsMain bench --only frame > "$OUT/b-$ev.txt" 2>&1
  echo "$ev rc $? $(grep -h '^frame-cpu ' "$OUT/b-$ev.txt" | cut -c1-300)"
  gzip -f "$OUT/$ev.collapsed" 2>/dev/null
done
