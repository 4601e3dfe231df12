#!/usr/bin/env python3
"""Roaring interchange with CRoaring (through pyroaring), driven by tests/set/roaring.rs.

  roaring_interchange.py make DIR   writes p_<name>.bin (pyroaring's portable serialization;
                                    p_runs.bin after run_optimize, so with run containers and
                                    cookie 12347) and p_<name>.u32 (the sorted values, u32 LE)
  roaring_interchange.py check DIR  for every g_<name>.bin written by vkalgo with g_<name>.u32:
                                    pyroaring must read exactly those values, and pyroaring's
                                    own (run-optimized) serialization of them must be the
                                    same bytes
"""
import array
import os
import random
import sys

from pyroaring import BitMap


def write_case(d, name, bm):
    with open(os.path.join(d, f"p_{name}.bin"), "wb") as f:
        f.write(bm.serialize())
    values = array.array("I", bm)
    assert values.itemsize == 4
    if sys.byteorder != "little":
        values.byteswap()
    with open(os.path.join(d, f"p_{name}.u32"), "wb") as f:
        f.write(values.tobytes())


def make(d):
    rng = random.Random(7)
    write_case(d, "sparse", BitMap(rng.getrandbits(32) for _ in range(5000)))
    dense = BitMap(rng.randrange(0, 1 << 17) for _ in range(40000))
    dense.add_range(5 << 16, 6 << 16)  # a full chunk
    write_case(d, "dense", dense)
    runs = BitMap()
    for k in range(40):
        start = rng.getrandbits(32) & ~0xFFF
        runs.add_range(start, min(start + rng.randrange(1, 9000), 1 << 32))
    runs.add_range((1 << 32) - 70000, 1 << 32)
    # No array of n = 2r + 1 values in r runs, here or after tests/set/roaring.rs inserts 42: CRoaring 5
    # keeps those as arrays, CRoaring 4 made them runs (src/set/roaring.rs written_form), and
    # vkalgo follows CRoaring 5; the bytes then agree with both.
    runs.update([0, 1, 2, 3, 10, 11, 12])
    runs.run_optimize()
    write_case(d, "runs", runs)
    write_case(d, "empty", BitMap())
    write_case(d, "edges", BitMap([0, (1 << 32) - 1, 65535, 65536]))


def check(d):
    checked = 0
    runs = 0
    for name in sorted(os.listdir(d)):
        if not (name.startswith("g_") and name.endswith(".bin")):
            continue
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        values = array.array("I")
        with open(os.path.join(d, name[:-4] + ".u32"), "rb") as f:
            values.frombytes(f.read())
        if sys.byteorder != "little":
            values.byteswap()
        got = BitMap.deserialize(data)
        want = BitMap(values)
        if got != want:
            sys.exit(f"{name}: pyroaring read {len(got)} values, vkalgo wrote {len(want)}")
        # BitMap(values) is run-optimized (pyroaring's default), and vkalgo picks each chunk's
        # container by CRoaring's run_optimize rule: the same bytes, runs or not.
        if want.serialize() != data:
            sys.exit(f"{name}: pyroaring serializes the same values differently")
        runs += int(data[:2] == (12347).to_bytes(2, "little"))
        checked += 1
    if checked == 0:
        sys.exit("no g_*.bin files")
    if runs < 2:
        sys.exit(f"only {runs} vkalgo files with run containers")
    print(f"pyroaring read {checked} vkalgo files, each byte for byte, {runs} with run containers")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
