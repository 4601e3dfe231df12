#!/usr/bin/env python3
"""Hash-map benchmark comparison: vkalgo (`vkalgo-bench hash`) vs the linear-probing CUDA table
(bench/cuda/hash_bench.cu) from the same run, and vs cuCollections' static_map figures measured
on an H200 (issue 4's anchors; cuCollections is not installed on the GPU machine, so those are
quoted, not measured in this run).

Input: RESULT lines (tab-separated) from both programs, in any files:

    RESULT <impl> <algo> <variant> <N> <median ms> <G keys/s> <extra>

Usage: hash_compare.py FILE...   (prints Markdown tables; the ratio table last)
"""

import sys

# cuCollections static_map on an H200, u32 keys and values, 2^26 keys (issue 4).
CUCO = {
    ("insert", "0.5"): 14.6,
    ("find_hit", "0.5"): 27.8,
    ("find_miss", "0.5"): 30.0,
    ("insert", "0.8"): 12.7,
    ("find_hit", "0.8"): 20.3,
}


def parse(paths):
    rows = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                start = line.find("RESULT\t")
                if start < 0:
                    continue
                fields = line[start:].rstrip("\r\n").split("\t")
                if len(fields) < 7:
                    continue
                _, impl, algo, variant, n, ms, rate = fields[:7]
                try:
                    rows.append((impl, algo, variant, int(n), float(ms), float(rate)))
                except ValueError:
                    pass
    return rows


def split_variant(variant):
    """'load0.5_256x1_unpacked' -> ('0.5', '256x1_unpacked'); 'load0.5' -> ('0.5', '')."""
    head, _, rest = variant.partition("_")
    return head[len("load"):], rest


def main(paths):
    rows = parse(paths)
    vk = {}
    lp = {}
    for impl, algo, variant, n, ms, rate in rows:
        if not algo.startswith("hash_") or algo.startswith("hash_sweep") or variant.endswith("sweep"):
            continue
        op = algo[len("hash_"):-len("_u32")]
        load, tuning = split_variant(variant)
        if impl == "vkalgo":
            vk[(op, load, tuning)] = rate
        elif impl == "cuda_lp":
            lp[(op, load)] = rate
    print("### Operations at fixed load (G keys/s; ratio = vkalgo / other)\n")
    print("| op | load | vkalgo variant | vkalgo | linear probing (this run) | vs LP | cuCo static_map (H200 anchor) | vs cuCo |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (op, load, tuning), rate in sorted(vk.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        other = lp.get((op, load))
        anchor = CUCO.get((op, load))
        print(
            f"| {op} | {load} | {tuning} | {rate:.2f} | "
            + (f"{other:.2f} | {rate / other:.2f}x | " if other else "- | - | ")
            + (f"{anchor:.1f} | {rate / anchor:.2f}x |" if anchor else "- | - |")
        )

    sweep_vk = [(v, r) for i, a, v, n, ms, r in rows if i == "vkalgo" and a == "hash_sweep_insert_u32"]
    sweep_lp = [(v, r) for i, a, v, n, ms, r in rows if i == "cuda_lp" and a == "hash_sweep_insert_u32"]
    if sweep_vk or sweep_lp:
        print("\n### Load sweep: insert throughput per batch (G keys/s)\n")
        print("| batch | vkalgo loads | vkalgo | LP loads | linear probing | vkalgo / LP |")
        print("|---:|---|---:|---|---:|---:|")
        for b in range(max(len(sweep_vk), len(sweep_lp))):
            a = sweep_vk[b] if b < len(sweep_vk) else ("-", None)
            c = sweep_lp[b] if b < len(sweep_lp) else ("-", None)
            ratio = f"{a[1] / c[1]:.1f}x" if a[1] and c[1] else "-"
            fa = f"{a[1]:.2f}" if a[1] is not None else "-"
            fc = f"{c[1]:.2f}" if c[1] is not None else "-"
            print(f"| {b} | {a[0]} | {fa} | {c[0]} | {fc} | {ratio} |")
    band = {i: r for i, a, v, n, ms, r in rows if a == "hash_sweep_band_u32"}
    sweep_find = {i: (v, r) for i, a, v, n, ms, r in rows if a == "hash_find_hit_u32" and v.endswith("sweep")}
    print("\n### Summary\n")
    print("| measure | vkalgo | linear probing | ratio | target |")
    print("|---|---:|---:|---:|---|")
    if "vkalgo" in band and "cuda_lp" in band:
        r = band["vkalgo"] / band["cuda_lp"]
        print(f"| insert, loads 0.90 -> 0.95 | {band['vkalgo']:.3f} | {band['cuda_lp']:.3f} | {r:.1f}x | >= 10x |")
    if "vkalgo" in sweep_find and "cuda_lp" in sweep_find:
        a, c = sweep_find["vkalgo"][1], sweep_find["cuda_lp"][1]
        print(f"| find hits at load 0.95 | {a:.2f} | {c:.2f} | {a / c:.2f}x | - |")
    for (op, load), anchor in sorted(CUCO.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        best = max((r for (o, l, t), r in vk.items() if o == op and l == load), default=None)
        if best is not None:
            print(f"| {op} at {load}, best variant vs cuCo {anchor} | {best:.2f} | - | {best / anchor:.2f}x | >= 1.0x |")


if __name__ == "__main__":
    main(sys.argv[1:])
