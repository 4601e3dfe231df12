// Segmented sort: declarations shared by its kernels (src/segmented_sort/).
//
// Permutation defines: KEY_BITS (32 or 64), VALUE_WORDS (0: keys only, 1: 4-byte values,
// 2: 8-byte values). The key kind and order are specialization constant 6 (KEY_ORDER), as in
// the merge family: keys are compared through their order-preserving bits
// (glsl/common/vkalgo.glsl, complemented for a descending order) ANDed with the push
// constants' key_mask (the bit range), so every comparison is an unsigned comparison and the
// raw key is recovered from the staged bits with raw_bits.
//
// Segments: `segments` segments with u32 offsets at `offsets` (segments + 1 of them, from 0 to
// the count, non-decreasing). Every offset read is clamped into [0, count], so bad offsets
// give an unspecified order inside the buffers but no stray access. The segment of position p
// is the last s with offset(s) <= p (empty segments hold no position).
#ifndef VKALGO_SEGSORT_COMMON_GLSL
#define VKALGO_SEGSORT_COMMON_GLSL

#include "../common/vkalgo.glsl"
// SEGSORT_* (generated from src/segmented_sort/shared_constants.rs).
#include "../generated/segmented_sort.glsl"

// KEY_T, VALUE_T, their sizes and references (KEY_BITS, VALUE_WORDS).
#include "../common/key_value.glsl"

// Must match src/segmented_sort/kernels.rs (SegmentedSortPush).
layout(push_constant) uniform SegmentedSortPush {
    uint64_t keys;           // the keys, sorted in place
    uint64_t values;         // 0 without values
    uint64_t keys_alt;       // merge output (scratch)
    uint64_t values_alt;
    uint64_t offsets;        // segments + 1 u32 segment starts
    uint64_t tiles;          // tile table of the merge rounds (8 u32 per tile)
    uint64_t starts;         // first tile of each pair of the round (exclusive scan), then the total
    uint64_t count_addr;     // 0: use count; else the address of a u32 count
    uint64_t segments_addr;  // 0: use segments; else the address of a u32 segment count
    uint64_t key_mask;       // the bit range in ordered bits (32-bit keys: the low word)
    uint64_t segment_table;  // the segment of every SMALL_LIMIT-th position (partition.comp)
    uint count;
    uint max_count;
    uint segments;
    uint max_segments;
    uint width;              // merge rounds: elements of each of a pair's halves; the
                             // round-args pass: the most workgroups of a round's dispatch;
                             // the block-args pass: the most workgroups of a row
    uint max_tiles;          // merge rounds: entries of the tile table
    uint pairs;              // merge rounds: pairs of this round (the host's bound); the count
                             // pass: entries of every round; the round-args pass: rounds;
                             // the block-args pass: 1 where the plan has large parts
    uint round_base;         // merge rounds: this round's first entry in `starts`
    uint layout_count;       // the element count the rounds' layout is for (the host's bound)
    uint pass;               // partition.comp: SEGSORT_PASS_*; tiny.comp: SEGSORT_PASS_TINY_FIRST
                             // in an unbounded plan
} pc;

#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)
// Segments of at most SMALL_LIMIT elements are sorted whole by one workgroup (block.comp);
// larger ones by blocks and merge rounds.
#define SMALL_LIMIT (TILE / 2u)

// ceil(a / b) without overflow (counts reach 2^32 - 1).
uint ceil_div(uint a, uint b) {
    return a / b + (a % b != 0u ? 1u : 0u);
}

KEY_T masked(KEY_T ordered) {
    return ordered & KEY_T(pc.key_mask);
}

KEY_T load_ordered(uint64_t base, uint64_t i) {
    return ordered_bits(load_key(base, i));
}

uint element_count() {
    return load_count(pc.count_addr, pc.count, pc.max_count);
}

uint segment_count() {
    return load_count(pc.segments_addr, pc.segments, pc.max_segments);
}

// Start of segment s of `segs` (s = segs: the end), clamped into [0, n].
uint segment_start(uint s, uint segs, uint n) {
    if (s == 0u) {
        return 0u;
    }
    if (s >= segs) {
        return n;
    }
    return min(U32Ref(u32_addr(pc.offsets, s)).v[0], n);
}

// The segment of position p: the last s in [lo, hi) with segment_start(s) <= p, searched
// within [lo, hi) (a range known to hold it; lo when none). At most 33 probes.
uint segment_of_within(uint p, uint lo, uint hi, uint segs, uint n) {
    // The first s in (lo, hi) with start > p, minus one.
    uint a = lo + 1u;
    uint b = max(hi, a);
    while (a < b) {
        uint mid = a + ((b - a) >> 1);
        if (segment_start(mid, segs, n) <= p) {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    return a - 1u;
}

uint segment_of(uint p, uint segs, uint n) {
    return segment_of_within(p, 0u, segs, segs, n);
}

// The segment of position p < n from the segment table (SEGSORT_PASS_SEGMENT_TABLE wrote the
// segment of every SMALL_LIMIT-th position, then that of the last): a search between the
// segments of the table's positions around p.
uint segment_at(uint p, uint segs, uint n) {
    uint k = p / SMALL_LIMIT;
    U32Ref table = U32Ref(pc.segment_table);
    uint lo = table.v[k];
    if (k * SMALL_LIMIT == p) {
        return lo;  // a position of the table (every block pass workgroup's first)
    }
    uint hi = max(table.v[k + 1u], lo);
    return segment_of_within(p, lo, hi + 1u, segs, n);
}

// The segment table's tail, from the next 16 bytes after its entries
// (src/segmented_sort/kernels.rs TABLE_TAIL_BYTES): the longest segment the tiny kernel left
// (u32), then at 16 bytes the block pass's VkDispatchIndirectCommand.
uint64_t table_tail() {
    uint entries = ceil_div(pc.layout_count, SMALL_LIMIT) + 1u;
    return pc.segment_table + ((uint64_t(entries) * 4ul + 15ul) & ~15ul);
}

// One tile of a merge round: A = keys[a0, a0 + la) and B = keys[b0, b0 + lb) merge into
// keys_alt[out0, out0 + la + lb).
struct TileSpan {
    uint a0;
    uint la;
    uint b0;
    uint lb;
    uint out0;
};

TileSpan read_tile(uint t) {
    U32Ref e = U32Ref(pc.tiles + uint64_t(t) * 32ul);
    TileSpan s;
    s.a0 = e.v[0];
    s.la = e.v[1] - e.v[0];
    s.b0 = e.v[2];
    s.lb = e.v[3] - e.v[2];
    s.out0 = e.v[4];
    return s;
}

void write_tile(uint t, uint a0, uint a1, uint b0, uint b1, uint out0) {
    U32Ref e = U32Ref(pc.tiles + uint64_t(t) * 32ul);
    e.v[0] = a0;
    e.v[1] = a1;
    e.v[2] = b0;
    e.v[3] = b1;
    e.v[4] = out0;
    e.v[5] = 0u;
    e.v[6] = 0u;
    e.v[7] = 0u;
}

// The part of pair p's merge in the round of halves of `width` elements: the one large
// segment (more than SMALL_LIMIT elements) that holds both the last position of the pair's first half and the first of its
// second half, cut to the pair: A = [x, mid), B = [mid, y); uvec3(x, mid, y), or x == y when
// the pair merges nothing. Segments that do not straddle the halves' boundary lie in one
// half, which the rounds before have sorted.
uvec3 pair_merge(uint p, uint width, uint n, uint segs) {
    uint64_t start64 = uint64_t(p) * 2ul * uint64_t(width);
    uint64_t mid64 = start64 + uint64_t(width);
    if (mid64 >= uint64_t(n)) {
        return uvec3(0u);
    }
    uint start = uint(start64);
    uint mid = uint(mid64);
    uint end = uint(min(mid64 + uint64_t(width), uint64_t(n)));
    uint s = segment_at(mid, segs, n);
    uint first = segment_start(s, segs, n);
    uint last = max(segment_start(s + 1u, segs, n), first);
    if (first >= mid || last - first <= SMALL_LIMIT) {
        return uvec3(0u);
    }
    return uvec3(max(first, start), mid, min(last, end));
}

// The first entry of this round in `starts` (an exclusive scan of every round's tiles per pair).
uint round_start(uint i) {
    return U32Ref(u32_addr(pc.starts, pc.round_base + i)).v[0];
}

// Tiles of this round's merges (at most the tile table's entries).
uint round_tiles() {
    return min(round_start(pc.pairs) - round_start(0u), pc.max_tiles);
}

#endif
