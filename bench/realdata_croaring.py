#!/usr/bin/env python3
"""CRoaring (through pyroaring) on one CPU core over the real datasets, the classes of
`vkalgo-bench realdata` (crates/vkalgo-bench/src/realdata/mod.rs says what each times).

Usage: realdata_croaring.py DATA_DIR [reps=5] [dataset,...] [group,...]
(groups as `vkalgo-bench realdata --groups`: successive, wide, contains; default all three;
the build and serialization always run.)
DATA_DIR holds the datasets' <name>.bin files (the .bin.gz files of the datasets' folder,
gunzipped). Output: `RESULT croaring realdata_<class> <dataset> <values> <median ms> <G values/s>
cpu` and `DIGEST croaring <dataset> <class> <crc32>-<bytes>` lines: the digests are those
vkalgo-bench prints for the same results (the bitmaps' serializations after run_optimize, as vkalgo writes
them; cardinalities and hit counts as little-endian u64; to-array values as little-endian u32),
so bench/realdata_table.py can tell both sides computed the same bytes. Results of operations
are compared by their values: CRoaring keeps a container whose run and array (or bitmap)
forms are the same size in the form it had, so two equal bitmaps with different histories may
serialize differently.
"""
import array
import struct
import sys
import time
import zlib

from pyroaring import BitMap

DATASETS = ("census-income census-income_srt census1881 census1881_srt uscensus2000 "
            "weather_sept_85 weather_sept_85_srt wikileaks-noquotes wikileaks-noquotes_srt").split()
QUERIES = 1 << 20
MASK = (1 << 64) - 1


def read(path):
    """The bitmaps of a VKRD file (format: the datasets' README), each a sorted array('I')."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"VKRD" or struct.unpack_from("<I", data, 4)[0] != 1:
        raise ValueError(f"{path}: not a VKRD version 1 file")
    count = struct.unpack_from("<I", data, 8)[0]
    at, bitmaps = 12, []
    for _ in range(count):
        _file, length, width = struct.unpack_from("<III", data, at)
        at += 12
        code = {1: "B", 2: "H", 4: "I"}[width]
        gaps = array.array(code, data[at:at + length * width])
        at += length * width
        values, v = array.array("I"), 0
        for g in gaps:
            v += g
            values.append(v)
        bitmaps.append(values)
    return bitmaps


class Digest:
    def __init__(self):
        self.crc, self.len = 0, 0

    def add(self, b):
        self.crc = zlib.crc32(b, self.crc)
        self.len += len(b)

    def hex(self):
        return f"{self.crc:08x}-{self.len}"


def timed(reps, f):
    out = f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        t.append((time.perf_counter() - t0) * 1e3)
    t.sort()
    return t[len(t) // 2], out


def queries(bitmaps):
    """Each bitmap's queries, as vkalgo-bench draws them (a 64-bit xorshift seeded per bitmap)."""
    per = QUERIES // max(1, len(bitmaps))
    out = []
    for i, v in enumerate(bitmaps):
        x = 0x9E3779B97F4A7C15 ^ (i + 1)
        top = v[-1] + 1 if len(v) else 1
        q = array.array("I")
        for k in range(per):
            x ^= (x << 13) & MASK
            x ^= x >> 7
            x ^= (x << 17) & MASK
            q.append(v[x % len(v)] if k % 2 == 0 and len(v) else x % top)
        out.append(q)
    return out


def serialized(bm):
    c = BitMap(bm)
    c.run_optimize()
    return c.serialize()


def run(name, bitmaps, reps, groups):
    values = sum(len(v) for v in bitmaps)

    def result(cls, ms):
        rate = values / (ms * 1e-3) / 1e9
        print(f"RESULT\tcroaring\trealdata_{cls}\t{name}\t{values}\t{ms:.6f}\t{rate:.4f}\tcpu", flush=True)

    def digest(cls, d):
        print(f"DIGEST\tcroaring\t{name}\t{cls}\t{d.hex()}", flush=True)

    ms, bms = timed(reps, lambda: [BitMap(v) for v in bitmaps])
    result("build", ms)
    ms, blobs = timed(reps, lambda: [b.serialize() for b in bms])
    result("serialize", ms)
    d = Digest()
    for b in bms:
        d.add(serialized(b))
    digest("serialize", d)
    ms, _ = timed(reps, lambda: [BitMap.deserialize(b) for b in blobs])
    result("deserialize", ms)
    if "successive" in groups:
        successive(bms, reps, result, digest)
    if "wide" in groups:
        wide(bms, reps, result, digest)
    if "contains" in groups:
        qs = queries(bitmaps)
        ms, hits = timed(max(1, reps // 2), lambda: [sum(1 for x in q if x in b) for b, q in zip(bms, qs)])
        result("contains", ms)
        d = Digest()
        for h in hits:
            d.add(struct.pack("<Q", h))
        digest("contains", d)


def successive(bms, reps, result, digest):
    """The successive pairs' operations, their cardinalities, and to_array of the ANDs."""
    pairs = [(bms[i - 1], bms[i]) for i in range(1, len(bms))]
    ops = {
        "and": (lambda a, b: a & b, lambda a, b: a.intersection_cardinality(b)),
        "or": (lambda a, b: a | b, lambda a, b: a.union_cardinality(b)),
        "andnot": (lambda a, b: a - b, lambda a, b: a.difference_cardinality(b)),
        "xor": (lambda a, b: a ^ b, lambda a, b: a.symmetric_difference_cardinality(b)),
    }
    for op, (f, card) in ops.items():
        ms, results = timed(reps, lambda: [f(a, b) for a, b in pairs])
        result(f"{op}_successive", ms)
        d = Digest()
        for r in results:
            d.add(array.array("I", r.to_array()).tobytes())
        digest(f"{op}_successive", d)
        ms, cards = timed(reps, lambda: [card(a, b) for a, b in pairs])
        result(f"{op}_cardinalities", ms)
        d = Digest()
        for c in cards:
            d.add(struct.pack("<Q", c))
        digest(f"{op}_cardinalities", d)
        if op == "and":
            ms, arrays = timed(reps, lambda: [r.to_array() for r in results])
            result("to_array", ms)
            d = Digest()
            for a in arrays:
                d.add(array.array("I", a).tobytes())
            digest("to_array", d)


def wide(bms, reps, result, digest):
    """The many-way union and intersection of every bitmap, and their cardinalities."""
    for cls, f in (("wide_or", BitMap.union), ("wide_and", BitMap.intersection)):
        ms, r = timed(reps, lambda: f(*bms))
        result(cls, ms)
        d = Digest()
        d.add(array.array("I", r.to_array()).tobytes())
        digest(cls, d)
    # The same operations' cardinalities (CRoaring has no many-way count: the result, then its
    # cardinality).
    for cls, f in (("wide_or_cardinality", BitMap.union), ("wide_and_cardinality", BitMap.intersection)):
        ms, n = timed(reps, lambda: len(f(*bms)))
        result(cls, ms)
        d = Digest()
        d.add(struct.pack("<Q", n))
        digest(cls, d)


def main():
    data = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else DATASETS
    groups = sys.argv[4].split(",") if len(sys.argv) > 4 else ["successive", "wide", "contains"]
    for name in names:
        run(name, read(f"{data}/{name}.bin"), reps, groups)


if __name__ == "__main__":
    main()
