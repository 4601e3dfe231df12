#!/usr/bin/env python3
"""CRoaring (through pyroaring) on one CPU core, the same kinds of sets as `vkalgo-bench set`.

Usage: croaring_set.py [log2n=24] [reps=3]
For each case (sparse: uniform over 2^32; dense: uniform over [0, 2^(log2n+1)); clustered:
runs of 1..4096 values at random places) two bitmaps of about 2^log2n values (Python's random,
not the benchmark's generator: same distributions, different values) are built from sorted
arrays, then AND / OR / XOR / ANDNOT, the cardinality of each without materializing it,
contains of 2^20 queries (a Python loop: per-query cost scaled to the full count, an upper
bound), to_array, the cardinality and the cardinality of a range over half the universe are
timed (median of reps). Also the portable serialization size, with
and without run_optimize.
Output: RESULT croaring <name> <case> <n> <median ms> <G values/s> <extra>
"""
import array
import random
import sys
import time

from pyroaring import BitMap


def values(case, n, rng):
    if case == "sparse":
        v = [rng.getrandbits(32) for _ in range(n)]
    elif case == "dense":
        v = [rng.randrange(0, 2 * n) for _ in range(n)]
    else:
        v = []
        while len(v) < n:
            start = rng.getrandbits(32)
            length = 1 + rng.randrange(4096)
            v.extend((start + i) & 0xFFFFFFFF for i in range(length))
    return array.array("I", sorted(set(v)))


def timed(reps, f):
    f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append((time.perf_counter() - t0) * 1e3)
    t.sort()
    return t[len(t) // 2]


def result(name, case, n, ms, extra=""):
    rate = n / (ms * 1e-3) / 1e9
    print(f"{name:<22} {case:<10} n={n:<10} {ms:>9.4f} ms {rate:>8.3f} G/s {extra}")
    print(f"RESULT\tcroaring\tset_{name}\t{case}\t{n}\t{ms:.6f}\t{rate:.4f}\t{extra}", flush=True)


# The range of the range_cardinality row (crates/vkalgo-bench/src/set.rs RANGE).
RANGE = ((1 << 30) + 12_345, 3 * (1 << 30) + 6_789)


def main():
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    n = 1 << log2n
    rng = random.Random(1)
    for case in ["sparse", "dense", "clustered"]:
        va, vb = values(case, n, rng), values(case, n, rng)
        ms = timed(reps, lambda: BitMap(va))
        result("build_sorted", case, len(va), ms)
        a, b = BitMap(va), BitMap(vb)
        size = len(a.serialize())
        ra = BitMap(va)
        ra.run_optimize()
        print(f"RESULT\tcroaring\tset_serialized_bytes\t{case}\t{len(va)}\t0\t0\t{size},run_optimized={len(ra.serialize())}")
        m = len(va) + len(vb)
        for name, f, g in [
            ("and", lambda: a & b, lambda: a.intersection_cardinality(b)),
            ("or", lambda: a | b, lambda: a.union_cardinality(b)),
            ("andnot", lambda: a - b, lambda: a.difference_cardinality(b)),
            ("xor", lambda: a ^ b, lambda: a.symmetric_difference_cardinality(b)),
        ]:
            result(name, case, m, timed(reps, f))
            result(name + "_cardinality", case, m, timed(reps, g))
        q = vb[: 1 << 20]
        ms = timed(1, lambda: sum(1 for x in q if x in a))
        result("contains", case, len(vb), ms * len(vb) / len(q), "python loop, scaled")
        result("to_array", case, len(va), timed(reps, lambda: a.to_array()))
        result("cardinality", case, len(va), timed(reps, lambda: len(a)))
        lo, hi = RANGE
        result("range_cardinality", case, len(va), timed(reps, lambda: a.range_cardinality(lo, hi)))


if __name__ == "__main__":
    main()
