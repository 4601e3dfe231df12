#version 460
// Segmented sort of tiny segments (a plan bounded to SEGSORT_TINY_LIMIT elements a segment):
// each subgroup sorts whole segments, one at a time by a grid stride over the segments. It
// stages a segment's ordered keys in its own part of shared memory; each of its elements then
// counts the segment's keys that go before it (smaller, or equal and earlier: stable) in a loop
// every lane of the subgroup runs alike, and is written, with its value, at the segment's start
// plus that rank. A segment longer than the limit (a broken bound) is left as it is. No
// subgroup waits on another, and there is no workgroup barrier.
#include "segsort_common.glsl"

#define SUBGROUP_SLOTS ((WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE)

shared KEY_T s_tiny[SUBGROUP_SLOTS * SEGSORT_TINY_LIMIT];
#if VALUE_WORDS > 0
shared VALUE_T s_tiny_values[SUBGROUP_SLOTS * SEGSORT_TINY_LIMIT];
#endif

void main() {
    uint n = element_count();
    uint segs = segment_count();
    uint slot = gl_SubgroupID * SEGSORT_TINY_LIMIT;
    uint subgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumSubgroups;
    uint lane = gl_SubgroupInvocationID;
    for (uint s = linear_workgroup_id() * gl_NumSubgroups + gl_SubgroupID; s < segs; s += subgroups) {
        uint first = segment_start(s, segs, n);
        uint end = max(segment_start(s + 1u, segs, n), first);
        uint len = end - first;
        if (len < 2u || len > SEGSORT_TINY_LIMIT) {
            continue;  // subgroup-uniform: every lane reads the same offsets
        }
        // Each lane's elements: lane, lane + subgroup size, ... (every read of the segment
        // happens before the subgroup's first write: the sort is in place).
        for (uint x = lane; x < len; x += gl_SubgroupSize) {
            s_tiny[slot + x] = load_ordered(pc.keys, uint64_t(first + x));
#if VALUE_WORDS > 0
            s_tiny_values[slot + x] = load_value(pc.values, uint64_t(first + x));
#endif
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        for (uint x = lane; x < len; x += gl_SubgroupSize) {
            KEY_T mine = masked(s_tiny[slot + x]);
            uint rank = 0u;
            for (uint y = 0u; y < len; ++y) {
                KEY_T other = masked(s_tiny[slot + y]);
                rank += (other < mine || (other == mine && y < x)) ? 1u : 0u;
            }
#if VALUE_WORDS > 0
            store_value(pc.values, uint64_t(first + rank), s_tiny_values[slot + x]);
#endif
            store_key(pc.keys, uint64_t(first + rank), raw_bits(s_tiny[slot + x]));
        }
        // The slot is staged again by the next segment.
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
}
