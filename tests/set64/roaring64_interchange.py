#!/usr/bin/env python3
"""Roaring64 files both ways with CRoaring through pyroaring's BitMap64, for
tests/set64/interchange.rs.

  roaring64_interchange.py make DIR    writes, for each case NAME, DIR/p_NAME.bin (CRoaring's
                                       serialization of BitMap64(values), whose constructor
                                       run-optimizes) and DIR/p_NAME.u64 (the values,
                                       ascending, u64 little-endian)
  roaring64_interchange.py check DIR   for each DIR/g_NAME.bin vkalgo wrote with its
                                       DIR/g_NAME.u64: BitMap64.deserialize must read exactly
                                       those values, and BitMap64(values).serialize() must be
                                       the same bytes
"""
import array
import glob
import os
import random
import sys

from pyroaring import BitMap64

U64_MAX = (1 << 64) - 1


def cases():
    rng = random.Random(64)
    edges = [0, 1, 65535, 65536, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, (2 << 32) - 1, 2 << 32,
             1 << 63, ((1 << 32) - 1) << 32, U64_MAX - 65536, U64_MAX - 1, U64_MAX]
    many_keys = [(rng.getrandbits(32) << 32) | rng.getrandbits(32) for _ in range(300)]
    dense = [(1 << 32) | rng.randrange(0, 1 << 17) for _ in range(30000)]
    dense += range((1 << 32) + (1 << 20), (1 << 32) + (1 << 20) + 65536)  # a full chunk
    runs = list(range((1 << 32) - 70000, (1 << 32) + 70000))  # across 2^32
    runs += range(U64_MAX - 100000, U64_MAX + 1)  # up to 2^64 - 1
    for k in range(40):  # a chunk of 40 short runs, an array of runs
        runs += range((7 << 32) + 100 * k, (7 << 32) + 100 * k + 1 + k % 3)
    sparse = [(rng.randrange(8) << 32) | rng.getrandbits(32) for _ in range(5000)]
    return {
        "empty": [],
        "edges": edges,
        "many_keys": many_keys,
        "dense": dense,
        "runs": runs,
        "sparse": sparse,
        "mixed": edges + many_keys + dense + runs + sparse,
    }


def values_bytes(values):
    a = array.array("Q", sorted(set(values)))
    if sys.byteorder != "little":
        a.byteswap()
    return a.tobytes()


def read_values(path):
    a = array.array("Q")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    return list(a)


def make(d):
    for name, values in cases().items():
        with open(os.path.join(d, f"p_{name}.bin"), "wb") as f:
            f.write(BitMap64(values).serialize())
        with open(os.path.join(d, f"p_{name}.u64"), "wb") as f:
            f.write(values_bytes(values))


def check(d):
    checked = 0
    for path in sorted(glob.glob(os.path.join(d, "g_*.bin"))):
        name = os.path.basename(path)[2:-4]
        with open(path, "rb") as f:
            data = f.read()
        values = read_values(os.path.join(d, f"g_{name}.u64"))
        got = BitMap64.deserialize(data)
        if list(got) != values:
            sys.exit(f"{name}: CRoaring reads {len(got)} values, vkalgo wrote {len(values)}")
        ours = BitMap64(values).serialize()
        if ours != data:
            at = next((i for i, (a, b) in enumerate(zip(ours, data)) if a != b), min(len(ours), len(data)))
            sys.exit(f"{name}: CRoaring writes {len(ours)} bytes, vkalgo {len(data)} (first difference at {at})")
        checked += 1
    if checked == 0:
        sys.exit("no g_*.bin files")
    print(f"{checked} files read by CRoaring, byte-identical to its own")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
