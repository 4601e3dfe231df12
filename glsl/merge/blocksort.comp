#version 460
// Merge sort, first step: each workgroup sorts one block of TILE elements (stable), in
// place or into another buffer, by the block merge sort of common/block_merge_sort.glsl. A
// partial last block is padded with the largest key after its elements: the sort is stable,
// so the padding stays behind every real key, equal ones included. WG_SIZE must be a power
// of two.
#include "merge_common.glsl"

shared KEY_T s_keys[TILE];
shared uint s_src[TILE];

#define BMS_KEY_T KEY_T
#define BMS_ITEMS ITEMS
#define BMS_TILE TILE
bool bms_after(KEY_T a, KEY_T b) {
    return a > b;
}
#include "../common/block_merge_sort.glsl"

void main() {
    uint n = count_a();
    uint64_t start64 = uint64_t(linear_workgroup_id()) * uint64_t(TILE);
    if (start64 >= uint64_t(n)) {
        return;
    }
    uint start = uint(start64);
    uint len = min(n - start, TILE);
    for (uint x = gl_LocalInvocationIndex; x < TILE; x += WG_SIZE) {
        s_keys[x] = x < len ? load_ordered(pc.a_keys, uint64_t(start + x)) : KEY_MAX;
    }
    barrier();
    block_merge_sort();
#if VALUE_WORDS > 0
    // All reads of the block's values happen before any write (the sort may be in place).
    VALUE_T held[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = gl_LocalInvocationIndex + e * WG_SIZE;
        if (x < len) {
            held[e] = load_value(pc.a_values, uint64_t(start + s_src[x]));
        }
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = gl_LocalInvocationIndex + e * WG_SIZE;
        if (x < len) {
            store_value(pc.out_values, uint64_t(start + x), held[e]);
        }
    }
#endif
    for (uint x = gl_LocalInvocationIndex; x < len; x += WG_SIZE) {
        store_key(pc.out_keys, uint64_t(start + x), raw_bits(s_keys[x]));
    }
}
