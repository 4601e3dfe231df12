#version 460
// Segmented sort of tiny segments (of at most SEGSORT_TINY_LIMIT elements; a plan bounded to
// that records this kernel alone, an unbounded plan records it first): each subgroup sorts
// whole segments, one at a time by a grid stride over the segments. Each
// lane loads its elements of the segment (lane, lane + subgroup size, ...) into registers and
// stages one rank word for each in the subgroup's part of shared memory; every lane then
// counts, in one loop over the staged words, the words that go before each of its elements
// (smaller, or equal and earlier: stable), and writes the element, with its value, at the
// segment's start plus that rank. 32-bit keys rank by one 64-bit comparison: the word holds the
// masked key above the element's position. A segment longer than the limit is left as it is
// (the block pass's; in a bounded plan, a broken bound); in an unbounded plan the longest one
// left goes to the segment table's tail, which sizes the block pass (partition.comp
// block_args). No subgroup waits on another, and there is no workgroup barrier.
#include "segsort_common.glsl"

#define SUBGROUP_SLOTS ((WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE)
// The most elements of one segment a lane holds.
#define PER_LANE ((SEGSORT_TINY_LIMIT + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE)
// Rank words are read four at a time; a segment's words are padded to a multiple of four.
#define STAGED_LIMIT ((SEGSORT_TINY_LIMIT + 3u) & ~3u)

// A rank word: 32-bit keys: the masked key above the element's position in the segment (6
// bits: SEGSORT_TINY_LIMIT <= 64); 64-bit keys: the masked key (equal keys: by position).
#define RANK_T uint64_t
#if KEY_BITS == 32
RANK_T rank_word(KEY_T ordered, uint x) {
    return (uint64_t(masked(ordered)) << 6) | uint64_t(x);
}
bool goes_before(RANK_T other, uint y, RANK_T mine, uint x) {
    return other < mine;
}
#else
RANK_T rank_word(KEY_T ordered, uint x) {
    return masked(ordered);
}
bool goes_before(RANK_T other, uint y, RANK_T mine, uint x) {
    return other < mine || (other == mine && y < x);
}
#endif
// Padding: after every element (the largest word, and a position past the segment).
const RANK_T RANK_PAD = 0xFFFFFFFFFFFFFFFFul;

shared RANK_T s_rank[SUBGROUP_SLOTS * STAGED_LIMIT];

void main() {
    uint n = element_count();
    uint segs = segment_count();
    uint slot = gl_SubgroupID * STAGED_LIMIT;
    uint subgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumSubgroups;
    uint lane = gl_SubgroupInvocationID;
    uint sg = gl_SubgroupSize;
    uint longest = 0u;  // of the segments left (subgroup-uniform)
    for (uint s = linear_workgroup_id() * gl_NumSubgroups + gl_SubgroupID; s < segs; s += subgroups) {
        uint first = segment_start(s, segs, n);
        uint end = max(segment_start(s + 1u, segs, n), first);
        uint len = end - first;
        if (len < 2u || len > SEGSORT_TINY_LIMIT) {
            longest = max(longest, len);
            continue;  // subgroup-uniform: every lane reads the same offsets
        }
        uint staged = (len + 3u) & ~3u;
        // Every read of the segment happens before the subgroup's first write (in place).
        KEY_T raw[PER_LANE];
#if VALUE_WORDS > 0
        VALUE_T value[PER_LANE];
#endif
        RANK_T mine[PER_LANE];
        [[unroll]] for (uint k = 0u; k < PER_LANE; ++k) {
            uint x = lane + k * sg;
            mine[k] = RANK_T(0);  // counts nothing: a lane past the segment writes nothing
            if (x < len) {
                raw[k] = load_key(pc.keys, uint64_t(first + x));
#if VALUE_WORDS > 0
                value[k] = load_value(pc.values, uint64_t(first + x));
#endif
                mine[k] = rank_word(ordered_bits(raw[k]), x);
                s_rank[slot + x] = mine[k];
            } else if (x < staged) {
                s_rank[slot + x] = RANK_PAD;
            }
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        uint rank[PER_LANE];
        [[unroll]] for (uint k = 0u; k < PER_LANE; ++k) {
            rank[k] = 0u;
        }
        for (uint y = 0u; y < staged; y += 4u) {
            RANK_T w0 = s_rank[slot + y];
            RANK_T w1 = s_rank[slot + y + 1u];
            RANK_T w2 = s_rank[slot + y + 2u];
            RANK_T w3 = s_rank[slot + y + 3u];
            [[unroll]] for (uint k = 0u; k < PER_LANE; ++k) {
                if (k * sg < len) {  // subgroup-uniform
                    uint x = lane + k * sg;
                    rank[k] += (goes_before(w0, y, mine[k], x) ? 1u : 0u) +
                               (goes_before(w1, y + 1u, mine[k], x) ? 1u : 0u) +
                               (goes_before(w2, y + 2u, mine[k], x) ? 1u : 0u) +
                               (goes_before(w3, y + 3u, mine[k], x) ? 1u : 0u);
                }
            }
        }
        [[unroll]] for (uint k = 0u; k < PER_LANE; ++k) {
            if (lane + k * sg < len) {
#if VALUE_WORDS > 0
                store_value(pc.values, uint64_t(first + rank[k]), value[k]);
#endif
                store_key(pc.keys, uint64_t(first + rank[k]), raw[k]);
            }
        }
        // The slot is staged again by the next segment.
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    // One atomic a subgroup that left a segment, none where the current maximum is as long.
    if (pc.pass == SEGSORT_PASS_TINY_FIRST && longest > SEGSORT_TINY_LIMIT && subgroupElect()) {
        U32AtomicRef left = U32AtomicRef(table_tail());
        if (left.v[0] < longest) {
            atomicMax(left.v[0], longest);
        }
    }
}
