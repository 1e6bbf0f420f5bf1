#!/bin/bash
# Statistics-kernel variants beside the sum, one process per repeat.
cd "$(dirname "$0")"
K=reduce_stats_knobs.comp
V=(--stats-variant "knobs=$K"
   --stats-variant "lean=$K:LEAN"
   --stats-variant "par=$K:PAR_FOLD"
   --stats-variant "ref=$K:FOLD_REF"
   --stats-variant "lean-par=$K:LEAN,PAR_FOLD"
   --stats-variant "lean-ref=$K:LEAN,FOLD_REF"
   --stats-variant "inv=$K:LEAN,INV_SHIFT"
   --stats-variant "inv-par=$K:LEAN,PAR_FOLD,INV_SHIFT"
   --stats-variant "inv-ref=$K:LEAN,FOLD_REF,INV_SHIFT"
   --stats-variant "inv-ref-u1=$K:LEAN,FOLD_REF,INV_SHIFT,UNROLL_OVERRIDE=1u"
   --stats-variant "inv-ref-u4=$K:LEAN,FOLD_REF,INV_SHIFT,UNROLL_OVERRIDE=4u")
start=$SECONDS
for r in 1 2; do
  if [ $r = 2 ] && [ $((SECONDS - start)) -gt 45 ]; then echo "no time for repeat 2"; break; fi
  echo "== repeat $r $(date -u +%T)"
  TALLY_HOME=$PWD/home timeout 75 tally/tally bench --only reduce --samples 50 --max-log2 28 "${V[@]}" --json "$OUT/bench-$r.json" > "$OUT/bench-$r.txt" 2> "$OUT/bench-$r.err"
  echo "rc $?"
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> "$OUT/bench-1.err" 2>&1
