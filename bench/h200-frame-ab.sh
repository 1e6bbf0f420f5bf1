#!/usr/bin/env bash
# One device call: frame-cpu of a base dist against new jars (and the new jars under ParallelGC), alternated in
# rounds, then an async-profiler CPU profile of the new jars' demo loop. From a folder (listed in .git/info/exclude)
# holding tally/ (./tally dist of the base commit), newlib/ (the new build's tally-engine, tally-demo and tally-tools
# jars), debs/ (Debian's libvulkan1; libglvnd0, libglx0, libegl1, libgl1, libopengl0 where the driver's libGLX_nvidia
# needs them, as on the H100 machine) and libasyncProfiler.so (tools.profiler:async-profiler, linux-x64), copied there:
#   VARIANTS="base new par" bash FOLDER/h200-frame-ab.sh OUTDIR ROUNDS [prof|noprof]
# A variant NAME with a folder lib-NAME/ there runs those jars instead of newlib/ (a third build beside the two), with
# a file lib-NAME.args there, the bench with those arguments too (e.g. --set hud.textRefreshMs=0), and with a file
# lib-NAME.jvm there, the JVM with those options (e.g. -XX:+UseParallelGC; "par" alone means the new jars under it).
# It writes a few files a round: give it a work folder and pack that into the call's $OUT (tar czf "$OUT/ab.tgz" -C WORK .),
# since a device call brings back at most eight files.
set -u
G="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; ROUNDS="${2:-2}"; PROF="${3:-prof}"
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
lscpu | grep -E "Model name|^CPU\(s\)" > "$OUT/cpu.txt"; nvidia-smi --query-gpu=name,driver_version --format=csv >> "$OUT/cpu.txt" 2>&1
J="$G/tally/runtime/bin/java"
for r in $(seq 1 "$ROUNDS"); do
  for v in ${VARIANTS:-base new}; do
    cp="$G/tally/lib/*"; [ "$v" != base ] && cp="$G/newlib/*:$G/tally/lib/*"; [ -d "$G/lib-$v" ] && cp="$G/lib-$v/*:$G/tally/lib/*"
    gc="-XX:+UseG1GC"; [ "$v" = par ] && gc="-XX:+UseParallelGC"; [ -f "$G/lib-$v.jvm" ] && gc="$(cat "$G/lib-$v.jvm")"
    echo "== $v round $r $(date +%T)" | tee -a "$OUT/steps.txt"
    args=""; [ -f "$G/lib-$v.args" ] && args="$(cat "$G/lib-$v.args")"
    timeout 200 "$J" -Xss4m $gc -cp "$cp" dev.tally.tools.ToolsMain bench --only frame $args > "$OUT/bench-$v-$r.txt" 2>&1
    echo "rc $?" >> "$OUT/bench-$v-$r.txt"
    grep -h "frame-cpu " "$OUT/bench-$v-$r.txt" | grep -v "pair" | tail -2
  done
done
if [ "$PROF" = prof ]; then
  echo "== profile $(date +%T)" | tee -a "$OUT/steps.txt"
  timeout 45 "$J" -Xss4m -agentpath:"$G/libasyncProfiler.so=start,event=cpu,interval=20us,threads,file=$OUT/prof-new.collapsed,collapsed" \
    -cp "$G/newlib/*:$G/tally/lib/*" dev.tally.tools.ToolsMain demo --headless --width 1280 --height 720 --frames 60000 --fixed-dt 0.0166 \
    > "$OUT/demo-prof.log" 2>&1
  echo "rc $?" >> "$OUT/demo-prof.log"; tail -2 "$OUT/demo-prof.log"
fi
echo "== done $(date +%T)" | tee -a "$OUT/steps.txt"
