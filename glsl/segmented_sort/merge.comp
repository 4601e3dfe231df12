#version 460
// Segmented sort, merge rounds: each workgroup merges tiles of the round's tile table
// (partition.comp; a grid stride over the round's tiles, whose count the rounds' scan holds)
// from the keys into the alternate buffers at the same positions: the tile's
// spans of A and B are staged in shared memory (ordered keys), every invocation finds the
// co-rank of its first output by binary search in shared memory and merges ITEMS outputs by
// masked keys (equal keys: A's first) into registers; the merged keys, then their sources, go
// back through shared memory so that every store (and the values' gathers) is coalesced.
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
    KEY_T staged[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        staged[e] = KEY_T(0);
        if (x < len) {
            staged[e] = x < s.la ? load_key(pc.keys, uint64_t(s.a0 + x)) : load_key(pc.keys, uint64_t(s.b0 + (x - s.la)));
        }
    }
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            s_keys[x] = ordered_bits(staged[e]);
        }
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
    KEY_T keys[ITEMS];
    uint src[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        KEY_T ka = s_keys[min(ai, TILE - 1u)];
        KEY_T kb = s_keys[min(bi, TILE - 1u)];
        bool take_a = ai < s.la && (bi >= len || masked(ka) <= masked(kb));
        keys[e] = take_a ? ka : kb;
        src[e] = take_a ? ai : bi;
        ai += take_a ? 1u : 0u;
        bi += take_a ? 0u : 1u;
    }
    // The merged tile goes out through shared memory, so that the stores are coalesced.
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        if (first + e < len) {
            s_keys[first + e] = keys[e];
        }
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            store_key(pc.keys_alt, uint64_t(s.out0 + x), raw_bits(s_keys[x]));
        }
    }
#if VALUE_WORDS > 0
    barrier();  // the keys are out: the array takes the sources (tile indices: A's from 0, B's from la)
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        if (first + e < len) {
            s_keys[first + e] = KEY_T(src[e]);
        }
    }
    barrier();
    VALUE_T values[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            uint from = uint(s_keys[x]);
            values[e] = load_value(pc.values, uint64_t(from < s.la ? s.a0 + from : s.b0 + (from - s.la)));
        }
    }
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            store_value(pc.values_alt, uint64_t(s.out0 + x), values[e]);
        }
    }
#endif
    barrier();  // every read of s_keys is done before the next tile is staged
}

void main() {
    uint tiles = round_tiles();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
        merge_tile(t);
    }
}
