#!/bin/bash
# Round 4, second call: the committed statistics kernel (reduce-stats), the one before it (orig), and
# epilogue variants of the measurement copy, beside the sum; up to three repeats.
cd "$(dirname "$0")"
K=reduce_stats_knobs.comp
V=(--stats-variant "orig=reduce_stats_orig.comp"
   --stats-variant "ref=$K:FOLD_REF"
   --stats-variant "e0=$K:FOLD_REF,EPILOGUE=0,DIRECT"
   --stats-variant "e1=$K:FOLD_REF,EPILOGUE=1,DIRECT"
   --stats-variant "e2=$K:FOLD_REF,EPILOGUE=2,DIRECT"
   --stats-variant "e3=$K:FOLD_REF,EPILOGUE=3,DIRECT"
   --stats-variant "e1-u4=$K:FOLD_REF,EPILOGUE=1,DIRECT,UNROLL_OVERRIDE=4u"
   --stats-variant "e3-u4=$K:FOLD_REF,EPILOGUE=3,DIRECT,UNROLL_OVERRIDE=4u"
   --stats-variant "lean-e1=$K:LEAN,FOLD_REF,EPILOGUE=1,DIRECT"
   --stats-variant "inv-e3=$K:LEAN,INV_SHIFT,FOLD_REF,EPILOGUE=3,DIRECT")
start=$SECONDS
for r in 1 2 3; do
  if [ $r -gt 1 ] && [ $((SECONDS - start)) -gt 40 ]; then echo "no time for repeat $r"; break; fi
  echo "== repeat $r $(date -u +%T)"
  TALLY_HOME=$PWD/home timeout 60 tally/tally bench --only reduce --samples 50 --max-log2 28 "${V[@]}" --json "$OUT/bench-$r.json" > "$OUT/bench-$r.txt" 2> "$OUT/bench-$r.err"
  echo "rc $?"
done
