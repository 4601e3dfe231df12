#version 460
// Segmented sort's bookkeeping. SEGSORT_PASS_SEGMENT_TABLE (first): invocation k writes the
// segment of position k * SMALL_LIMIT (of the last position past the end), so that the block
// pass finds the segments of its range by short searches. Merge rounds: SEGSORT_PASS_COUNT
// (once, for every round): invocation e takes
// entry e of the rounds' layout (round r, halves of TILE * 2^r elements, has `pairs_r` =
// ceil(layout_count / (2 * width)) pairs and pairs_r + 1 entries: one per pair, then 0) and
// writes the tiles of that pair's merge (segsort_common.glsl pair_merge), for one exclusive scan
// in place of every round's entries. SEGSORT_PASS_PARTITION (each round): every invocation
// takes tiles of the round by a grid stride; for tile t it finds the pair (the last whose first
// tile is <= t), the tile's outputs [k0, k1) of the pair's merge and their two co-ranks by
// binary search in global memory, and writes the tile's entry. SEGSORT_PASS_BLOCK_ARGS (after
// the tiny kernel): the block pass's dispatch size. SEGSORT_PASS_ROUND_ARGS (after
// the scan): invocation r writes round r's dispatch size, so that rounds with no merge
// dispatch no workgroups. No workgroup waits on another.
#include "segsort_common.glsl"

// Co-rank of output d of the stable merge of A (la elements at a_base) and B (lb at b_base) by
// masked keys: A elements among its first d outputs (equal keys: A's first). At most 33 probes.
uint co_rank(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint d) {
    uint lo = d > lb ? d - lb : 0u;
    uint hi = min(d, la);
    while (lo < hi) {
        uint mid = lo + ((hi - lo) >> 1);
        if (masked(load_ordered(a_base, uint64_t(mid))) > masked(load_ordered(b_base, uint64_t(d - 1u - mid)))) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

// Writes the tiles of entry e of every round's layout.
void count_entry(uint e, uint n, uint segs) {
    uint64_t width = uint64_t(TILE);
    uint first = 0u;
    // The round of entry e: at most 32 rounds (widths double up to the layout's count).
    for (uint r = 0u; r < 32u && width < uint64_t(pc.layout_count); ++r) {
        uint pairs = uint((uint64_t(pc.layout_count) + 2ul * width - 1ul) / (2ul * width));
        if (e < first + pairs + 1u) {
            uint p = e - first;
            uint tiles = 0u;
            if (p < pairs) {
                uvec3 m = pair_merge(p, uint(width), n, segs);
                tiles = ceil_div(m.z - m.x, TILE);
            }
            U32Ref(u32_addr(pc.starts, e)).v[0] = tiles;
            return;
        }
        first += pairs + 1u;
        width *= 2ul;
    }
}

// Writes the entry of tile t of this round.
void partition_tile(uint t, uint n, uint segs) {
    uint base = round_start(0u);
    // The last pair whose first tile is <= t.
    uint lo = 0u;
    uint hi = pc.pairs;
    while (lo < hi) {
        uint probe = lo + ((hi - lo) >> 1);
        if (round_start(probe) - base <= t) {
            lo = probe + 1u;
        } else {
            hi = probe;
        }
    }
    uint pair = max(lo, 1u) - 1u;
    uvec3 m = pair_merge(pair, pc.width, n, segs);
    uint la = m.y - m.x;
    uint lb = m.z - m.y;
    uint local_tile = t - (round_start(pair) - base);
    uint len = la + lb;
    uint k0 = uint(min(uint64_t(local_tile) * uint64_t(TILE), uint64_t(len)));
    uint k1 = uint(min(uint64_t(k0) + uint64_t(TILE), uint64_t(len)));
    if (k0 == k1) {
        write_tile(t, 0u, 0u, 0u, 0u, 0u);
        return;
    }
    uint64_t a_base = pc.keys + uint64_t(m.x) * KEY_BYTES;
    uint64_t b_base = pc.keys + uint64_t(m.y) * KEY_BYTES;
    uint i0 = co_rank(a_base, la, b_base, lb, k0);
    uint i1 = co_rank(a_base, la, b_base, lb, k1);
    // Consistent even for unsorted input: 0 <= i1 - i0 <= k1 - k0 within both runs.
    uint b0 = k0 - i0;
    uint take = clamp(i1 >= i0 ? i1 - i0 : 0u, (k1 - k0) > (lb - b0) ? (k1 - k0) - (lb - b0) : 0u,
                      min(k1 - k0, la - i0));
    i1 = i0 + take;
    write_tile(t, m.x + i0, m.x + i1, m.y + (k0 - i0), m.y + (k1 - i1), m.x + k0);
}

// Writes the dispatch size of every round (`rounds` of them): its tiles (from the scanned
// counts), at most `max_groups` workgroups, none where no pair of the round merges. The
// VkDispatchIndirectCommands follow the counts of every round, at the next 16 bytes
// (src/segmented_sort/plan.rs ScratchLayout::starts).
void round_args(uint r, uint rounds, uint max_groups) {
    uint64_t width = uint64_t(TILE);
    uint entries = 0u;  // of every round
    uint first = 0u;    // of round r
    uint pairs = 0u;
    for (uint i = 0u; i < rounds; ++i) {
        uint p = uint((uint64_t(pc.layout_count) + 2ul * width - 1ul) / (2ul * width));
        if (i == r) {
            first = entries;
            pairs = p;
        }
        entries += p + 1u;
        width *= 2ul;
    }
    U32Ref starts = U32Ref(pc.starts);
    uint tiles = min(starts.v[first + pairs] - starts.v[first], pc.max_tiles);
    uint64_t args_at = pc.starts + ((uint64_t(entries) * 4ul + 15ul) & ~15ul) + uint64_t(r) * 16ul;
    U32Ref args = U32Ref(args_at);
    args.v[0] = min(tiles, max_groups);
    args.v[1] = 1u;
    args.v[2] = 1u;
}

// Writes the block pass's dispatch size (at the segment table's tail): its small parts where
// the tiny kernel left a segment, its large parts too where one is longer than SMALL_LIMIT and
// the plan has them, in rows of at most `max_x` workgroups as the host lays out a dispatch.
void block_args(uint n, bool large_parts, uint max_x) {
    uint64_t tail = table_tail();
    uint longest = U32Ref(tail).v[0];
    uint groups = 0u;
    if (longest > SEGSORT_TINY_LIMIT) {
        groups = ceil_div(n, SMALL_LIMIT);
    }
    if (longest > SMALL_LIMIT && large_parts) {
        groups += ceil_div(n, TILE);
    }
    uint rows = max(ceil_div(groups, max_x), 1u);
    U32Ref args = U32Ref(tail + 16ul);
    args.v[0] = ceil_div(groups, rows);
    args.v[1] = rows;
    args.v[2] = 1u;
}

void main() {
    uint id = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    uint n = element_count();
    uint segs = segment_count();
    if (pc.pass == SEGSORT_PASS_SEGMENT_TABLE) {
        // Entry k: the segment of position k * SMALL_LIMIT, the last position past the end;
        // the longest segment the tiny kernel leaves, none yet.
        if (id == 0u) {
            U32Ref(table_tail()).v[0] = 0u;
        }
        uint entries = ceil_div(pc.layout_count, SMALL_LIMIT) + 1u;
        if (id < entries && n > 0u) {
            uint p = uint(min(uint64_t(id) * uint64_t(SMALL_LIMIT), uint64_t(n - 1u)));
            U32Ref(pc.segment_table).v[id] = segment_of(p, segs, n);
        }
        return;
    }
    if (pc.pass == SEGSORT_PASS_BLOCK_ARGS) {
        if (id == 0u) {
            block_args(n, pc.pairs != 0u, pc.width);
        }
        return;
    }
    if (pc.pass == SEGSORT_PASS_ROUND_ARGS) {
        if (id < pc.pairs) {
            round_args(id, pc.pairs, pc.width);
        }
        return;
    }
    if (pc.pass == SEGSORT_PASS_COUNT) {
        if (id < pc.pairs) {
            count_entry(id, n, segs);
        }
        return;
    }
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    uint tiles = round_tiles();
    for (uint t = id; t < tiles; t += stride) {
        partition_tile(t, n, segs);
    }
}
