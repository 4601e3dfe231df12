#version 460
// Stable merge of two sorted runs (or of pairs of runs of one array, by the tile table) in
// tiles of TILE outputs. Keys of A come first among equal keys. With values
// (VALUE_WORDS > 0) each output's source index passes through the same shared array once the
// keys are out, and its value is read from the source run (the reads of a tile stay within
// the tile's two spans). One tile of keys is all the shared memory the kernel declares: on
// NVIDIA's Vulkan driver a multiprocessor gives about 48 KiB to workgroups, so this decides how
// many workgroups run at once (docs/tuning/merge.md#shared-memory-per-multiprocessor).
#if VALUE_WORDS == 0
#define LANE_ADDRESSES 0
#endif
#include "merge_tile.glsl"

// Consecutive tiles each workgroup merges (src/merge/tuning.rs TILES_PER_GROUP: 2 for keys
// alone, 1 with values).
layout(constant_id = 5) const uint TILES_PER_GROUP = 1;

// Merges the staged tile s (workgroup-uniform control flow; ends with the tile's outputs
// written, s_keys free again after a barrier).
void merge_staged(TileSpan s) {
    uint len = s.la + s.lb;
    if (len == 0u) {
        return;
    }
    uint first = gl_LocalInvocationIndex * ITEMS;
    uint d = min(first, len);
    uint ai = co_rank_shared(s.la, s.lb, d);
    uint bi = s.la + d - ai;
    KEY_T keys[ITEMS];
    uint src[ITEMS];
    // The next key of each side stays in a register; each output reads one key from shared
    // memory, the successor of the side it took (ModernGPU's serial merge has the same shape).
    KEY_T ka = s_keys[min(ai, TILE - 1u)];
    KEY_T kb = s_keys[min(bi, TILE - 1u)];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        bool take_a = ai < s.la && (bi >= len || ka <= kb);
        keys[e] = take_a ? ka : kb;
        src[e] = take_a ? ai : bi;
        ai += take_a ? 1u : 0u;
        bi += take_a ? 0u : 1u;
        KEY_T next = s_keys[min(take_a ? ai : bi, TILE - 1u)];
        ka = take_a ? next : ka;
        kb = take_a ? kb : next;
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = first + e;
        if (x < len) {
            s_keys[x] = keys[e];
        }
    }
    barrier();
#if LANE_ADDRESSES
    uint64_t out_lane = lane_address(pc.out_keys, s.out0, KEY_BYTES);
#endif
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
#if LANE_ADDRESSES
            store_key(out_lane, uint64_t(e * WG_SIZE), raw_bits(s_keys[x]));
#else
            store_key(pc.out_keys, s.out0 + uint64_t(x), raw_bits(s_keys[x]));
#endif
        }
    }
#if VALUE_WORDS > 0
    barrier();  // the keys are out: the array takes the sources
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = first + e;
        if (x < len) {
            s_keys[x] = KEY_T(src[e]);
        }
    }
    barrier();
    // Every gather is issued before the first store. The sources are indices into the staged
    // tile: A's span from 0, B's from la.
    uint64_t a_span = pc.a_values + uint64_t(s.a0) * VALUE_BYTES;
    uint64_t b_span = pc.b_values + (uint64_t(s.b0) - uint64_t(s.la)) * VALUE_BYTES;
    VALUE_T values[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            uint from = uint(s_keys[x]);
            values[e] = from < s.la ? load_value(a_span, uint64_t(from)) : load_value(b_span, uint64_t(from));
        }
    }
    uint64_t out_values_lane = lane_address(pc.out_values, s.out0, VALUE_BYTES);
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            store_value(out_values_lane, uint64_t(e * WG_SIZE), values[e]);
        }
    }
#endif
}

#if VALUE_WORDS == 0
// Keys alone: each workgroup merges TILES_PER_GROUP consecutive tiles, loading the next tile's
// keys (and the table entry after it) into registers while the current one merges, so that
// registers hold a second tile in flight where shared memory has room for one. With values the
// extra registers cost more than they gain, so the pairs merge takes one tile per workgroup
// (docs/tuning/merge.md#merge-tiles-per-group).
void main() {
    uint first_tile = linear_workgroup_id() * TILES_PER_GROUP;
    if (first_tile >= pc.max_tiles) {
        return;
    }
    uint end_tile = first_tile + min(TILES_PER_GROUP, pc.max_tiles - first_tile);
    const bool table = FUSED == 0;
    TileSpan s = tile_span(first_tile);
    KEY_T staged[ITEMS];
    load_tile(s, staged);
    TileSpan next = s;
    if (table && first_tile + 1u < end_tile) {
        next = read_tile(first_tile + 1u);
    }
    for (uint t = first_tile; t < end_tile; ++t) {
        TileSpan current = s;
        stage_loaded(current, staged);
        if (t + 1u < end_tile) {
            s = table ? next : tile_span(t + 1u);
            load_tile(s, staged);
            if (table && t + 2u < end_tile) {
                next = read_tile(t + 2u);
            }
        }
        merge_staged(current);
        barrier();  // every read of s_keys is done before the next tile is staged
    }
}
#else
void main() {
    uint t = linear_workgroup_id();
    if (t >= pc.max_tiles) {
        return;
    }
    TileSpan s = tile_span(t);
    if (s.la + s.lb == 0u) {
        return;
    }
    stage_tile(s);
    merge_staged(s);
}
#endif
