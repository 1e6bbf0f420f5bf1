#!/usr/bin/env python3
"""Folds CUB's figures (bench/cub_reference.py --json) into the bench's results file of the same device call,
so that each device keeps one results file: python3 bench/fold_cub.py BENCH_JSON CUB_JSON"""
import json
import sys

if len(sys.argv) != 3:
    sys.exit("usage: fold_cub.py BENCH_JSON CUB_JSON")
bench_path, cub_path = sys.argv[1], sys.argv[2]
with open(bench_path) as f:
    bench = json.load(f)
with open(cub_path) as f:
    cub = json.load(f)
if cub.get("device") != bench.get("device"):
    sys.exit(f"fold_cub.py: {cub_path} is from {cub.get('device')!r}, {bench_path} from {bench.get('device')!r}")
flush = sorted({c.get("flush") for c in cub["cases"]})
if "cub" in bench:
    sys.exit(f"fold_cub.py: {bench_path} already holds CUB's figures")
# The bench's text is kept byte for byte (one case a line); CUB's block goes after its cases.
with open(bench_path) as f:
    text = f.read().rstrip()
if not text.endswith("]}"):
    sys.exit("fold_cub.py: " + bench_path + " does not end with its cases (']}')")
header = {"command": "python3 bench/cub_reference.py --flush " + "/".join(flush),
          "note": "CUB DeviceReduce::Sum, CUDA events, in the same device call as the cases above"}
block = ",\n".join("  " + json.dumps(c) for c in cub["cases"])
text = text[:-1] + ',\n"cub": ' + json.dumps(header)[:-1] + ', "cases": [\n' + block + "\n]}}\n"
json.loads(text)
with open(bench_path, "w") as f:
    f.write(text)
