"""CUB (cupy.sum) and torch.sum on the same GPU, cold L2, median of 50: the figures Tally is measured against.

Run on the GPU machine: python3 bench/cub_reference.py [--flush clean|dirty] [--json FILE]
dirty: a 512 MiB write before each sample (the cache is left full of dirty lines).
clean: a 512 MiB read before each sample (the cache is left full of clean lines), as ./tally bench does by default.
"""
import json
import sys

import cupy as cp

args = sys.argv[1:]
mode = args[args.index("--flush") + 1] if "--flush" in args else "dirty"
flush = cp.zeros(128 << 20, dtype=cp.float32)  # 512 MiB


def evict(i):
    if mode == "dirty":
        flush.fill(i & 0xFF)
    else:
        flush.sum()


def time_sum(fn, x, samples=50, warmup=5):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    out = []
    for i in range(warmup + samples):
        evict(i)  # push the input out of the 60 MB L2 before each sample
        start.record()
        fn(x)
        end.record()
        end.synchronize()
        if i >= warmup:
            out.append(cp.cuda.get_elapsed_time(start, end) * 1000.0)
    out.sort()
    return out[len(out) // 2], out[0], out[-1]


rows = []
for log2 in (10, 16, 20, 24, 26, 28):
    x = cp.ones(1 << log2, dtype=cp.float32)
    med, lo, hi = time_sum(cp.sum, x)
    rows.append({"name": "cub-sum", "flush": mode, "n": 1 << log2, "gpuMicrosMedian": med, "gpuMicrosMin": lo, "gpuMicrosMax": hi,
                 "bandwidthGBs": 4 * (1 << log2) / (med * 1e3)})
    print(f"cupy.sum ({mode} flush) n=2^{log2}: {med:.2f} us ({lo:.2f}..{hi:.2f})", flush=True)
if "--json" in args:
    with open(args[args.index("--json") + 1], "w") as f:
        json.dump({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "cases": rows}, f, indent=1)
