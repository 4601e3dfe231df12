#!/usr/bin/env python3
"""Replays, on the CPU, the shared tables of the group-by kernel (glsl/hash/apply_shared.comp)
over the join example's S rows (examples/hash_join/data.rs): how many rows a workgroup combines
in its table and how many it sends to the map, and how many of those carry one of the most
frequent keys. Keys are taken in tile order, one at a time (the kernel's atomics interleave;
the counts barely depend on it). Needs numpy.

Usage: bench/join_groupby_replay.py [SLOTS [INVOCATIONS [GRID]]]  (default 4096 1024 1024)
"""
import sys

import numpy as np

MASK = 0xFFFFFFFF
LOG2R, LOG2S = 24, 26
PROBES = 8  # SHARED_PROBES
HOT = 4096  # "frequent": the key indices below this


def fmix32(h):
    h = h.astype(np.uint64)
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & np.uint64(MASK)
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & np.uint64(MASK)
    h ^= h >> np.uint64(16)
    return h


def s_key_indices(rows, draw_salt=0x12345):
    """S's key index per row (data.rs: one in ten a miss, else a log-uniform rank)."""
    nr = 1 << LOG2R
    distinct = nr - nr // 4
    h = fmix32(rows ^ np.uint64(draw_salt))
    miss = (h % np.uint64(10)) == 0
    t = (np.uint64(LOG2R) * fmix32(h ^ np.uint64(0x7F4A7C15))) >> np.uint64(16)
    whole, fraction = t >> np.uint64(16), t & np.uint64(0xFFFF)
    rank = ((np.uint64(1) << whole) * (np.uint64(0x10000) + fraction)) >> np.uint64(16)
    hit = (rank - np.uint64(1)) % np.uint64(distinct)
    return np.where(miss, np.uint64(distinct) + fmix32(h) % np.uint64(nr // 4), hit).astype(np.int64)


def main():
    slots, invocations, grid = ([int(a) for a in sys.argv[1:]] + [4096, 1024, 1024][len(sys.argv) - 1 :])[:3]
    tiles_each = (1 << LOG2S) // invocations // grid
    rows = combined = to_map = to_map_hot = flushed = 0
    for group in (0, 1, grid // 2, grid - 1):
        table, held = {}, set()
        for t in range(tiles_each):
            tile = group + t * grid
            keys = s_key_indices(np.arange(tile * invocations, (tile + 1) * invocations, dtype=np.uint64))
            for k in keys.tolist():
                rows += 1
                if k in held:
                    combined += 1
                    continue
                h = (k * 0x9E3779B1) & MASK
                slot = ((h ^ (h >> 15)) * slots) >> 32
                for _ in range(PROBES):
                    if slot not in table:
                        table[slot] = k
                        held.add(k)
                        break
                    slot = (slot + 1) % slots
                if k in held:
                    combined += 1
                else:
                    to_map += 1
                    to_map_hot += k < HOT
        flushed += len(table)
    print(
        f"{slots} slots, {invocations} x 1 tiles, grid {grid}: of {rows} rows {combined / rows:.3f} "
        f"combined in the tables, {to_map / rows:.3f} to the map ({to_map_hot / max(to_map, 1):.3f} of "
        f"those with one of the {HOT} most frequent keys); {flushed / rows:.4f} table entries a row"
    )


if __name__ == "__main__":
    main()
