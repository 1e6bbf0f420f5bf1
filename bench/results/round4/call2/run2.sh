#!/usr/bin/env bash
set -u
B="$(cd "$(dirname "$0")" && pwd)"; OUT="$1"; R="$OUT/r2"; mkdir -p "$R"
T="$B/tally/tally"
bench() { local name="$1"; shift; date -u +"%T $name" >> "$R/times.txt"; "$@" > "$R/$name.txt" 2> "$R/$name.err"; }
bench engine "$T" bench --only exposure,tonemap --samples 50 --sweep --json "$R/engine.json"
bench demo-engine "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-engine.json"
TALLY_HOME="$B/var/expo1" bench expo1 "$T" bench --only exposure --samples 50 --json "$R/expo1.json"
TALLY_HOME="$B/var/b4" bench b4 "$T" bench --only exposure --samples 50 --sweep --json "$R/b4.json"
TALLY_HOME="$B/var/probeb4" bench probeb4 "$T" bench --only exposure --samples 50 --sweep --json "$R/probeb4.json"
TALLY_HOME="$B/var/atom" bench atom "$T" bench --only exposure --samples 50 --json "$R/atom.json"
TALLY_HOME="$B/var/atom" bench demo-atom "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-atom.json"
TALLY_HOME="$B/var/probe" bench demo-probe "$T" demo --headless --width 3840 --height 2160 --frames 300 --fixed-dt 0.0166 --stats-json "$R/demo-probe.json"
date -u +"%T end" >> "$R/times.txt"
tar -czf "$OUT/results2.tgz" -C "$OUT" r2
for f in engine expo1 b4 probeb4 atom; do echo "== $f"; grep -E "^(exposure|tonemap)" "$R/$f.txt" | awk '{print $1, $4}' | tr '\n' ';'; echo; done
for f in demo-engine demo-atom demo-probe; do echo "== $f"; python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print({p['name']:round(p['gpuMicrosMedian'],2) for p in d['passes']})" "$R/$f.json" 2>&1 | tail -1; done
tail -2 "$R"/*.err | head -40; cat "$R/times.txt"
