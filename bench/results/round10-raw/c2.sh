#!/usr/bin/env bash
# Session 8 call 2: a JFR profile (1 ms Java and native samples) of the demo's frame loop at 1280x720; then variants
# alternated twice: base, v1 (timestamp queries reset from the host), v2 (the demo's capture declared before the
# tonemap), v2np (v2 without the probed texel): bench --only frame and the 4K demo's per-pass medians.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=$PWD/.devrun; R=$OUT/r; mkdir -p $R
TALLY_JAVA_OPTS="-XX:StartFlightRecording=filename=$OUT/prof.jfr,settings=$D/prof.jfc" timeout 120 $D/tally/tally demo --headless --width 1280 --height 720 \
  --frames 60000 --fixed-dt 0.0166 > $R/prof-demo.log 2>&1; echo "rc $?" >> $R/prof-demo.log
tail -2 $R/prof-demo.log
mk() { rm -rf /tmp/$1; cp -r $D/tally /tmp/$1; [ -n "$2" ] && cp $D/var/$2/*.jar /tmp/$1/lib/; true; }
mk base ""; mk v1 v1; mk v2 v2
for round in 1 2; do
  for v in base v1 v2 v2np; do
    d=$v; opts=""; [ $v = v2np ] && { d=v2; opts="-Dnoprobe=true"; }
    TALLY_JAVA_OPTS="$opts" timeout 100 /tmp/$d/tally bench --only frame --progress > $R/frame-$v-$round.txt 2>&1
    TALLY_JAVA_OPTS="$opts" timeout 60 /tmp/$d/tally demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 \
      --stats-json $R/demo-$v-$round.json > $R/demo-$v-$round.log 2>&1
    printf '%s %s: ' $v $round; grep -E "^  frame-gpu-span " $R/frame-$v-$round.txt | tr -s ' ' | tr '\n' ' '; grep -o '"frameSpanMicrosMedian": [0-9.]*' $R/demo-$v-$round.json
  done
done
tar czf $OUT/c2.tgz -C $OUT r
