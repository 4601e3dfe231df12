#!/usr/bin/env python3
"""Mutated Roaring files and CRoaring's verdict on each (through pyroaring), for the
differential test of vkalgo's reader (tests/roaring_fuzz.rs).

  roaring_mutations.py DIR COUNT SEED   writes DIR/files.bin: COUNT records of
                                        [u32 length][bytes], each a valid serialization with
                                        random damage, and DIR/verdicts.bin: per record
                                        [u8 accepted][u64 cardinality][u32 CRC-32 of the
                                        values, ascending, as u32 LE] (zeros when refused),
                                        little-endian
"""
import array
import random
import struct
import sys
import zlib

from pyroaring import BitMap


def seeds(rng):
    """Valid serializations of every container kind, with and without offsets and runs."""
    sets = []
    sets.append(BitMap(rng.getrandbits(32) for _ in range(300)))  # arrays, many containers
    dense = BitMap(rng.randrange(0, 1 << 17) for _ in range(9000))  # bitmaps
    dense.add_range(3 << 16, 4 << 16)  # a full chunk
    sets.append(dense)
    runs = BitMap()
    for _ in range(6):
        start = rng.getrandbits(32) & ~0xFFF
        runs.add_range(start, min(start + rng.randrange(1, 70000), 1 << 32))
    runs.run_optimize()
    sets.append(runs)  # runs with offsets (>= 4 containers)
    few = BitMap(range(100, 200))
    few.add_range(5 << 16, (5 << 16) + 3)
    few.run_optimize()
    sets.append(few)  # runs without offsets (< 4 containers)
    sets.append(BitMap([0, 65535, 65536, (1 << 32) - 1]))
    whole = BitMap()
    whole.add_range(0, 3 << 16)
    whole.run_optimize()
    sets.append(whole)  # full chunks as runs
    return [s.serialize() for s in sets]


def mutate(rng, data):
    m = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(6)
        if kind == 0 and m:  # flip a bit
            i = rng.randrange(len(m))
            m[i] ^= 1 << rng.randrange(8)
        elif kind == 1 and m:  # overwrite a byte
            m[rng.randrange(len(m))] = rng.randrange(256)
        elif kind == 2 and m:  # cut short
            del m[rng.randrange(len(m)):]
        elif kind == 3:  # insert bytes
            i = rng.randrange(len(m) + 1)
            m[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5)))
        elif kind == 4 and m:  # remove bytes
            i = rng.randrange(len(m))
            del m[i:i + rng.randrange(1, 5)]
        elif len(m) >= 2:  # a u16 field made extreme (counts, keys, run lengths)
            i = rng.randrange(len(m) - 1) & ~1
            m[i:i + 2] = struct.pack("<H", rng.choice([0, 1, 0xFFFF, 0xFFFE, 0x8000, 4096, 4097]))
    return bytes(m)


def main(d, count, seed):
    rng = random.Random(seed)
    base = seeds(rng)
    with open(f"{d}/files.bin", "wb") as files, open(f"{d}/verdicts.bin", "wb") as verdicts:
        for i in range(count):
            data = mutate(rng, base[i % len(base)]) if i >= len(base) else base[i]
            files.write(struct.pack("<I", len(data)) + data)
            try:
                bm = BitMap.deserialize(data)
            except Exception:  # CRoaring refused it (pyroaring raises ValueError)
                verdicts.write(struct.pack("<BQI", 0, 0, 0))
                continue
            values = array.array("I", bm)
            if sys.byteorder != "little":
                values.byteswap()
            verdicts.write(struct.pack("<BQI", 1, len(bm), zlib.crc32(values.tobytes())))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
