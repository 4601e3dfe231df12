#!/usr/bin/env python3
"""Mutated Roaring64 files and CRoaring's verdict on each (through pyroaring's BitMap64), for the
differential test of vkalgo's Roaring64 reader (tests/set64/fuzz.rs).

  roaring64_mutations.py DIR COUNT SEED   writes DIR/files.bin: COUNT records of
                                          [u32 length][bytes], each a valid serialization with
                                          random damage, and DIR/verdicts.bin: per record
                                          [u8 accepted][u64 cardinality][u32 CRC-32 of the
                                          values, ascending, as u64 LE] (zeros when refused),
                                          little-endian
"""
import array
import random
import struct
import sys
import zlib

from pyroaring import BitMap64

U64_MAX = (1 << 64) - 1


def seeds(rng):
    """Valid serializations: several high keys, every container kind, runs, edges, none."""
    sets = []
    sets.append(BitMap64((rng.getrandbits(32) << 32) | rng.getrandbits(32) for _ in range(40)))
    dense = BitMap64((1 << 32) | rng.randrange(0, 1 << 17) for _ in range(9000))
    dense.add_range((3 << 32) + (3 << 16), (3 << 32) + (4 << 16))  # a full chunk
    sets.append(dense)
    runs = BitMap64()
    for _ in range(5):
        start = rng.getrandbits(40) & ~0xFFF
        runs.add_range(start, start + rng.randrange(1, 70000))
    runs.add_range((1 << 32) - 300, (1 << 32) + 300)  # across 2^32
    runs.run_optimize()
    sets.append(runs)
    sets.append(BitMap64([0, 65535, 65536, (1 << 32) - 1, 1 << 32, U64_MAX - 1, U64_MAX]))
    few = BitMap64(range((9 << 32) + 100, (9 << 32) + 200))
    few.add(5)
    sets.append(few)  # runs without offsets (< 4 containers) in two bitmaps
    sets.append(BitMap64())
    return [s.serialize() for s in sets]


def mutate(rng, data):
    m = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(7)
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
        elif kind == 5 and len(m) >= 8:  # the bitmap count made extreme
            m[0:8] = struct.pack("<Q", rng.choice([0, 1, 2, 3, 7, 1 << 32, (1 << 32) + 1, U64_MAX]))
        elif len(m) >= 4:  # a u16 or u32 field made extreme (keys, counts, run lengths)
            i = rng.randrange(len(m) - 3) & ~1
            if rng.randrange(2):
                m[i:i + 2] = struct.pack("<H", rng.choice([0, 1, 0xFFFF, 0x8000, 4096, 4097]))
            else:
                m[i:i + 4] = struct.pack("<I", rng.choice([0, 1, 0xFFFFFFFF, 12346, 12347]))
    return bytes(m)


def main(d, count, seed):
    rng = random.Random(seed)
    base = seeds(rng)
    with open(f"{d}/files.bin", "wb") as files, open(f"{d}/verdicts.bin", "wb") as verdicts:
        for i in range(count):
            data = mutate(rng, base[i % len(base)]) if i >= len(base) else base[i]
            files.write(struct.pack("<I", len(data)) + data)
            try:
                bm = BitMap64.deserialize(data)
            except Exception:  # CRoaring refused it (pyroaring raises ValueError)
                verdicts.write(struct.pack("<BQI", 0, 0, 0))
                continue
            values = array.array("Q", bm)
            if sys.byteorder != "little":
                values.byteswap()
            verdicts.write(struct.pack("<BQI", 1, len(bm), zlib.crc32(values.tobytes())))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
