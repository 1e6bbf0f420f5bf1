#!/bin/bash
# Builds the device bundle for run.sh from this branch: ./tally dist, then one shader folder per variant
# (a copy of shaders/ with hud.comp from the commit named below and the defines shown).
# Usage (from the worktree root): bench/results/round4/hud6/make-bundle.sh /work/main/.devbundle-hud6
set -e
B=$1; [ -n "$B" ] || { echo "usage: make-bundle.sh BUNDLE_DIR" >&2; exit 2; }
./tally dist
rm -rf "$B"; mkdir -p "$B/var"; cp -r dist/tally "$B/tally"; cp bench/results/round4/hud6/run.sh "$B/run.sh"
variant() {   # NAME COMMIT DEFINE...
  local name=$1 commit=$2; shift 2
  mkdir -p "$B/var/$name"; cp -r shaders "$B/var/$name/shaders"
  git show "$commit:shaders/hud.comp" > "$B/var/$name/shaders/hud.comp"
  for d in "$@"; do sed -i "1a #define $d" "$B/var/$name/shaders/hud.comp"; done
}
variant s2 1bd6a40          # round-4 hud5 code (reference, 33.4 us bench)
variant pre 712e92e         # + ranges, rectangles, ring header, first search round read up front
variant ab 8bf18fe          # + subgroup rectangle from its first index, kind-specific shuffles
variant g 24f7079           # + first-round preload only near the plot (committed default)
variant w 24f7079 WIDE      # g with 4 first-round probes per invocation and no later rounds
variant g1 24f7079 "ROWS 1"
variant g4 24f7079 "ROWS 4"
variant w1 24f7079 WIDE "ROWS 1"
variant w4 24f7079 WIDE "ROWS 4"
variant gfloor 24f7079 FLOOR
variant empty 24f7079
sed -i 's/^void main() {$/void main() {\n    return;   \/\/ measurement only: the dispatch alone/' "$B/var/empty/shaders/hud.comp"
