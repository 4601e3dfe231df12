#version 460
// Segmented sort, merge rounds: each workgroup merges tiles of the round's tile table
// (partition.comp; a grid stride over the round's tiles, whose count the rounds' scan holds)
// from the keys into the alternate buffers at the same positions: the tile's
// spans of A and B are staged in shared memory (ordered keys), every invocation finds the
// co-rank of its first output by binary search in shared memory and merges ITEMS outputs by
// masked keys (equal keys: A's first), writing the raw keys and the values of their sources.
// No workgroup waits on another.
#include "segsort_common.glsl"

shared KEY_T s_keys[TILE];

// Merges tile t (workgroup-uniform control flow; s_keys is free again after a barrier).
void merge_tile(uint t) {
    TileSpan s = read_tile(t);
    uint len = s.la + s.lb;
    if (len == 0u || len > TILE) {
        return;
    }
    for (uint x = gl_LocalInvocationIndex; x < len; x += WG_SIZE) {
        s_keys[x] = x < s.la ? load_ordered(pc.keys, uint64_t(s.a0 + x))
                             : load_ordered(pc.keys, uint64_t(s.b0 + (x - s.la)));
    }
    barrier();
    uint first = min(gl_LocalInvocationIndex * ITEMS, len);
    uint lo = first > s.lb ? first - s.lb : 0u;
    uint hi = min(first, s.la);
    while (lo < hi) {
        uint mid = lo + ((hi - lo) >> 1);
        if (masked(s_keys[mid]) > masked(s_keys[s.la + first - 1u - mid])) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    uint ai = lo;
    uint bi = s.la + first - lo;
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint out_index = first + e;
        if (out_index < len) {
            KEY_T ka = s_keys[min(ai, TILE - 1u)];
            KEY_T kb = s_keys[min(bi, TILE - 1u)];
            bool take_a = ai < s.la && (bi >= len || masked(ka) <= masked(kb));
            uint from = take_a ? ai : bi;
            store_key(pc.keys_alt, uint64_t(s.out0 + out_index), raw_bits(take_a ? ka : kb));
#if VALUE_WORDS > 0
            uint src = from < s.la ? s.a0 + from : s.b0 + (from - s.la);
            store_value(pc.values_alt, uint64_t(s.out0 + out_index), load_value(pc.values, uint64_t(src)));
#endif
            ai += take_a ? 1u : 0u;
            bi += take_a ? 0u : 1u;
        }
    }
    barrier();  // every read of s_keys is done before the next tile is staged
}

void main() {
    uint tiles = round_tiles();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
        merge_tile(t);
    }
}
