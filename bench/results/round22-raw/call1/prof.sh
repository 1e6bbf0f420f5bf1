#!/usr/bin/env bash
# usage: prof.sh OUT  -- phase medians of the demo loop (wall and thread CPU), one plain frame bench, then one profiled
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
lscpu | grep -E "Model name|^CPU\(s\)" > "$OUT/cpu.txt"; nvidia-smi --query-gpu=name,driver_version --format=csv >> "$OUT/cpu.txt" 2>&1
J="$G/tally/runtime/bin/java"
for mode in false true; do
timeout 60 "$J" -Xss4m -Dphase.cpu=$mode -cp "$G/lib-phase/*:$G/tally/lib/*" dev.tally.tools.ToolsMain demo --headless --width 1280 --height 720 --frames 150000 --fixed-dt 0.0166 > "$OUT/phase-$mode.txt" 2>&1; tail -2 "$OUT/phase-$mode.txt"
done
cp="$G/lib-s21c/*:$G/tally/lib/*"
timeout 200 "$J" -Xss4m -agentpath:"$G/libasyncProfiler.so=start,event=cpu,interval=100us,cstack=no,file=$OUT/prof.collapsed,collapsed" -cp "$cp" dev.tally.tools.ToolsMain bench --only frame > "$OUT/prof.txt" 2>&1; echo rc $?; grep -h "^frame-cpu " "$OUT/prof.txt" | cut -c1-700
ls -la $OUT
