#!/usr/bin/env python3
"""Merge benchmark table: vkalgo against CUB (merges) and Thrust (set operations).

Reads RESULT lines (tab-separated; other lines are ignored):

    RESULT <impl> <algo> <variant> <N> <median ms> <G elements/s> <bytes moved>

from bench/cuda/merge_bench.cu and `vkalgo-bench merge`. Copy lines (algo copy_u32x4, rate in
GB/s) give each implementation's copy bandwidth: the CUDA kernel's for cub/thrust rows, the
compute shader's for vkalgo rows. Every other row gets its GB/s (bytes moved / time), that as
% of its own copy bandwidth, and its rate as a ratio to the reference (cub, else thrust) at the
same algo and N (above 1.00: faster than the reference; vkalgo's set_*_csw rows, the
count-scan-write path, are compared with the same operation's reference).

A row measured several times (bench/gpu_merge.sh with PROCESSES > 1 runs each program in
several processes) keeps its fastest median, for CUB/Thrust and vkalgo alike, and the copy
bandwidth its fastest: on the H200 some vkalgo processes ran a set operation 5-69% slow for a
while: the same work at a lower SM clock, for many batches
(docs/benchmarks/2026-11-26-h200-setop-occupancy.md).

Usage: merge_compare.py FILE...
"""

import sys

REFERENCES = ("cub", "thrust")


def main(paths):
    rows = {}
    runs = {}
    copy = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                start = line.find("RESULT\t")
                if start < 0:
                    continue
                fields = line[start:].rstrip("\r\n").split("\t")
                if len(fields) < 8:
                    continue
                _, impl, algo, variant, n, ms, rate, extra = fields[:8]
                try:
                    n, ms, rate, extra = int(n), float(ms), float(rate), float(extra)
                except ValueError:
                    continue
                if algo == "copy_u32x4":
                    side = "vkalgo" if impl == "vkalgo" else "cuda"
                    copy[side] = max(copy.get(side, 0.0), rate)
                if algo.startswith("copy"):
                    continue
                key = (algo, n, impl, variant)
                runs[key] = runs.get(key, 0) + 1
                if key not in rows or ms < rows[key][0]:
                    rows[key] = (ms, rate, extra)
    if not rows:
        print("no RESULT lines found", file=sys.stderr)
        return 1
    print(f"copy bandwidth: CUDA kernel {copy.get('cuda', 0):.0f} GB/s, "
          f"vkalgo compute shader {copy.get('vkalgo', 0):.0f} GB/s")
    fewest, most = min(runs.values()), max(runs.values())
    if most > 1:
        count = most if fewest == most else f"{fewest}-{most}"
        print(f"each row: the fastest of its {count} measurements (one a process)")
    print()
    print("| algo | A + B | impl | variant | ms | G elem/s | GB/s | % of copy | vs ref |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    for algo in sorted({k[0] for k in rows}):
        for n in sorted({k[1] for k in rows if k[0] == algo}):
            ref = None
            base = algo[:-4] if algo.endswith("_csw") else algo  # count-scan-write rows
            for r in REFERENCES:
                rates = [v[1] for k, v in rows.items() if k[0] == base and k[1] == n and k[2] == r]
                if rates:
                    ref = max(rates)
                    break
            keys = sorted((k for k in rows if k[0] == algo and k[1] == n),
                          key=lambda k: (k[2] not in REFERENCES, k[2], k[3]))
            for key in keys:
                ms, rate, extra = rows[key]
                gbs = extra / (ms * 1e-3) / 1e9
                own = copy.get("vkalgo" if key[2] == "vkalgo" else "cuda")
                pct = f"{100 * gbs / own:.0f}%" if own else "-"
                ratio = f"{rate / ref:.2f}" if ref else "-"
                half = n // 2
                size = f"2^{half.bit_length() - 1} + 2^{half.bit_length() - 1}" if half & (half - 1) == 0 else str(n)
                print(f"| {algo} | {size} | {key[2]} | {key[3]} | {ms:.4f} | {rate:.1f} | {gbs:.0f} | {pct} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
