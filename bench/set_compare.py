#!/usr/bin/env python3
"""Ratio table of the set benchmark: vkalgo-bench set vs the CUDA baselines (set_bench.cu)
and CRoaring (croaring_set.py). Usage: set_compare.py cuda.txt vkalgo.txt croaring.txt"""
import sys


def load(path):
    """RESULT rows by (name, case); a row given several times (CRoaring in several processes,
    bench/gpu_set.sh) keeps its fastest (smallest ms)."""
    rows = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) >= 6 and p[0] == "RESULT":
                    key = (p[2], p[3])
                    if key not in rows or float(p[5]) < float(rows[key][5]):
                        rows[key] = p
    except FileNotFoundError:
        pass
    return rows


cuda, vk, cr = (load(p) for p in sys.argv[1:4])
print("| vkalgo | case | vkalgo ms | baseline | baseline ms | speedup |")
print("|---|---|---|---|---|---|")
pairs = [
    ("set_and", "sparse", cuda, "thrust_set_intersection", "sparse"),
    ("set_or", "sparse", cuda, "thrust_set_union", "sparse"),
    ("set_andnot", "sparse", cuda, "thrust_set_difference", "sparse"),
    ("set_build_sorted", "sparse", cuda, "array_to_flat_bitmap", "sparse"),
    ("set_to_array", "sparse", cuda, "flat_bitmap_to_array", "sparse"),
    ("set_and", "sparse", cuda, "flat_and", "sparse"),
    ("set_or", "sparse", cuda, "flat_or", "sparse"),
    ("set_and", "dense", cuda, "flat_and", "sparse"),
    ("set_or", "dense", cuda, "flat_or", "sparse"),
    ("set_and_reserved", "sparse", cuda, "thrust_set_intersection", "sparse"),
    ("set_or_reserved", "sparse", cuda, "thrust_set_union", "sparse"),
    ("set_andnot_reserved", "sparse", cuda, "thrust_set_difference", "sparse"),
]
# Every chunk a bitmap (`full`: the flat bitmaps' size) against the flat 2^32-bit bitmaps.
for op in ["and", "or", "andnot", "xor"]:
    pairs.append(("set_" + op, "full", cuda, "flat_" + op, "sparse"))
    pairs.append(("set_" + op + "_reserved", "full", cuda, "flat_" + op, "sparse"))
for case in ["sparse", "dense", "clustered"]:
    for op in ["build_sorted", "and", "or", "andnot", "xor", "and_cardinality", "or_cardinality",
               "andnot_cardinality", "xor_cardinality", "contains", "to_array", "cardinality",
               "range_cardinality"]:
        pairs.append(("set_" + op, case, cr, "set_" + op, case))
        if op == "cardinality":  # the host call, against the same CRoaring row
            pairs.append(("set_cardinality_host", case, cr, "set_cardinality", case))
            pairs.append(("set_cardinality_host_counted", case, cr, "set_cardinality", case))
        if op in ("and", "or", "andnot", "xor"):
            pairs.append(("set_" + op + "_reserved", case, cr, "set_" + op, case))
for name, case, base, bname, bcase in pairs:
    v = vk.get((name, case))
    b = base.get((bname, bcase))
    if v and b:
        label = ("croaring " if base is cr else "cuda ") + bname
        vm, bm = float(v[5]), float(b[5])
        print(f"| {name} | {case} | {vm:.4f} | {label} | {bm:.4f} | {bm / vm:.2f}x |")
print()
full = [(k[0], v) for k, v in vk.items() if k[1] == "full" and "copyBW" in v[7]]
if full:
    print("| vkalgo, every chunk a bitmap | ms | share of the copy bandwidth (bitmap bytes) |")
    print("|---|---|---|")
    for name, v in sorted(full):
        print(f"| {name} | {float(v[5]):.4f} | {v[7].split('%')[0]}% |")
    print()
# Memory: each vkalgo set against its own Roaring portable serialization (what CRoaring writes
# for the same values after run_optimize: run containers where smaller), and per value against
# CRoaring's serialization of its own draw (Python's generator, same distributions).
print("| case | vkalgo memory | Roaring serialization of the same set | memory / serialization | per value, against CRoaring's draw |")
print("|---|---|---|---|---|")
for case in ["sparse", "dense", "clustered"]:
    v = vk.get(("set_memory_ratio", case))
    m = vk.get(("set_memory_bytes", case))
    c = cr.get(("set_serialized_bytes", case))
    if v and m:
        mem = int(m[7])
        cols = [f"{mem} bytes", f"{v[7]} bytes", f"{float(v[6]):.3f}x"]
        if c:
            runs = int(c[7].split("run_optimized=")[1]) if "run_optimized=" in c[7] else int(c[7].split(",")[0])
            cols.append(f"{(mem / int(v[4])) / (runs / int(c[4])):.3f}x ({runs} bytes for {c[4]} values)")
        else:
            cols.append("-")
        print(f"| {case} | " + " | ".join(cols) + " |")
        pv = vk.get(("set_memory_packed_ratio", case))
        pm = vk.get(("set_memory_packed_bytes", case))
        if pv and pm:
            print(f"| {case}, packed (GpuSet::pack) | {int(pm[7])} bytes | {pv[7]} bytes | {float(pv[6]):.3f}x | - |")
