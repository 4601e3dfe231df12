#version 460
// Merge path partition: one invocation per output tile writes the tile's spans of A and B
// (its two co-ranks, found by binary search in global memory) into the tile table. No
// workgroup waits on another.
//
// MODE_TWO: tile t covers outputs [t * TILE, (t + 1) * TILE) of the merge of A and B.
// MODE_TWO_BALANCED (set operations): the same diagonals, each moved onto the balanced path
// (merge_common.glsl balanced_point_global), so a tile never splits a pair of equal keys and
// holds TILE - 1 to TILE + 1 elements.
// MODE_UNIFORM: the array holds runs of `width` elements (a multiple of TILE); pair p merges
// runs 2p and 2p + 1 into [2p * width, (2p + 2) * width), in 2 * width / TILE tiles.
// MODE_OFFSETS: `runs` runs with u32 offsets at aux_addr (runs + 1 of them); pair p merges
// runs [2p * width, (2p + 1) * width) and [(2p + 1) * width, (2p + 2) * width) (width runs per
// half); the pairs' first tiles are at aux2_addr (an exclusive scan of tiles per pair, then
// the total).
// Tiles past the end get empty entries (every merge workgroup reads its entry).
// MODE_TWO_BALANCED with `width` 1: the set operations' look-back path; the kernel also zeroes
// the look-back state at aux_addr (16 bytes, then 8 per tile).
// Two-run modes: cluster c of pc.lanes invocations of workgroup w finds the co-rank of boundary
// w * (B - 1) + c, B = WG_SIZE / pc.lanes (the diagonal where that tile starts), and the first
// B - 1 clusters write the entries of their tiles from their own boundary and the next, so
// each boundary is searched once. The host runs these modes in small workgroups
// (src/merge/tuning.rs PARTITION, the tile size kept through ITEMS) so that the
// searches, chains of dependent random loads, spread over every multiprocessor, and gives a
// boundary more lanes the fewer boundaries there are (a cluster search shortens the chain,
// a binary search loads less). With one lane per boundary, each binary search stays within
// the co-ranks of its workgroup's first and last boundaries, found first by two subgroups.
// Segmented modes: two invocations per tile search its two co-ranks side by side, then the
// first writes the entry.
// MODE_COUNT_TILES (before MODE_OFFSETS): invocation p writes the tiles of pair p to
// aux2_addr[p] (0 for p = pairs), for an exclusive scan in place.
#include "merge_common.glsl"

uint offset_of(uint run) {
    return U32Ref(u32_addr(pc.aux_addr, min(run, pc.runs))).v[0];
}

shared uint s_co_rank[WG_SIZE];
shared uint s_extra[WG_SIZE];

// The merge one tile belongs to: A at a_base (la elements, starting at `start` in its buffer),
// B at b_base (lb elements, starting at `mid`), the tile's outputs [k0, k1) of that merge, and
// the output position of the merge's first element.
struct TileMerge {
    uint64_t a_base;
    uint64_t b_base;
    uint la;
    uint lb;
    uint start;
    uint mid;
    uint64_t k0;
    uint64_t k1;
    uint64_t out_base;
};

// The merge of tile t (k0 == k1: an empty tile).
TileMerge tile_merge(uint t) {
    uint64_t tile = uint64_t(TILE);
    TileMerge r;
    if (pc.mode == MODE_TWO || pc.mode == MODE_TWO_BALANCED) {
        uint m = count_a();
        uint n = count_b();
        uint64_t total = uint64_t(m) + uint64_t(n);
        r.a_base = pc.a_keys;
        r.b_base = pc.b_keys;
        r.la = m;
        r.lb = n;
        r.start = 0u;
        r.mid = 0u;
        r.k0 = min(uint64_t(t) * tile, total);
        r.k1 = min(r.k0 + tile, total);
        r.out_base = 0ul;
        return r;
    }
    // Segmented modes: find the pair, its runs [start, mid) and [mid, end), and the tile's
    // place in the pair.
    uint total = count_a();
    uint start = 0u;
    uint mid = 0u;
    uint end = 0u;
    uint local_tile = 0u;
    if (pc.mode == MODE_UNIFORM) {
        uint tiles_per_pair = 2u * (pc.width / TILE);
        uint pair = t / tiles_per_pair;
        local_tile = t - pair * tiles_per_pair;
        uint64_t s = uint64_t(pair) * 2ul * uint64_t(pc.width);
        start = uint(min(s, uint64_t(total)));
        mid = uint(min(s + uint64_t(pc.width), uint64_t(total)));
        end = uint(min(s + 2ul * uint64_t(pc.width), uint64_t(total)));
    } else {
        uint per_half = pc.width;
        uint pairs = (pc.runs + 2u * per_half - 1u) / (2u * per_half);
        // The last pair whose first tile is <= t (tile starts are non-decreasing).
        uint lo = 0u;
        uint hi = pairs;
        while (lo < hi) {
            uint probe = lo + ((hi - lo) >> 1);
            if (U32Ref(u32_addr(pc.aux2_addr, probe)).v[0] <= t) {
                lo = probe + 1u;
            } else {
                hi = probe;
            }
        }
        uint all_tiles = U32Ref(u32_addr(pc.aux2_addr, pairs)).v[0];
        if (lo > 0u && t < all_tiles) {
            uint pair = lo - 1u;
            local_tile = t - U32Ref(u32_addr(pc.aux2_addr, pair)).v[0];
            uint first_run = pair * 2u * per_half;
            // Offsets are clamped into [0, total] and made non-decreasing within the pair, so
            // a bad offset array gives unspecified output but no stray access.
            start = min(offset_of(first_run), total);
            mid = clamp(offset_of(first_run + per_half), start, total);
            end = clamp(offset_of(first_run + 2u * per_half), mid, total);
        }
    }
    r.a_base = pc.a_keys + uint64_t(start) * KEY_BYTES;
    r.b_base = pc.a_keys + uint64_t(mid) * KEY_BYTES;
    r.la = mid - start;
    r.lb = end - mid;
    r.start = start;
    r.mid = mid;
    uint64_t len = uint64_t(r.la) + uint64_t(r.lb);
    r.k0 = min(uint64_t(local_tile) * tile, len);
    r.k1 = min(r.k0 + tile, len);
    r.out_base = uint64_t(start);
    return r;
}

// MODE_TWO and MODE_TWO_BALANCED: one search per tile boundary (see the top of the file), by a
// cluster of pc.lanes invocations (a power of two dividing the subgroup size and half the
// workgroup at most; src/merge/tuning.rs partition_lanes).
void partition_two_runs() {
    uint lanes = max(pc.lanes, 1u);
    uint lid = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint cluster = lid / lanes;
    bool leader = lid % lanes == 0u;
    uint boundaries = WG_SIZE / lanes;
    uint boundary = linear_workgroup_id() * (boundaries - 1u) + cluster;
    uint m = count_a();
    uint n = count_b();
    uint64_t total = uint64_t(m) + uint64_t(n);
    if (pc.mode == MODE_TWO_BALANCED && pc.width != 0u) {
        // The set operations' look-back state (setop.comp): a 16-byte header, then one u64
        // status word per tile, zeroed here so that the look-back pass needs no clear of its
        // own (the barrier after this pass orders both).
        if (leader && boundary < pc.max_tiles) {
            U32Ref status = U32Ref(pc.aux_addr + 16ul + uint64_t(boundary) * 8ul);
            status.v[0] = 0u;
            status.v[1] = 0u;
        }
        if (leader && boundary < 4u) {
            U32Ref(pc.aux_addr).v[boundary] = 0u;
        }
    }
    uint64_t k = min(uint64_t(min(boundary, pc.max_tiles)) * uint64_t(TILE), total);
    uint co_rank;
    if (lanes == 1u) {
        // Many boundaries: subgroups 0 and 1 find the co-ranks of the workgroup's first and
        // last boundaries (whole-subgroup searches, a few rounds), and every invocation's binary
        // search stays between them, in a window of WG_SIZE tiles whose probes neighbouring
        // searches share (in cache) instead of one probe in a different place per search.
        uint first = linear_workgroup_id() * (boundaries - 1u);
        uint64_t k_first = min(uint64_t(min(first, pc.max_tiles)) * uint64_t(TILE), total);
        uint64_t k_last = min(uint64_t(min(first + boundaries - 1u, pc.max_tiles)) * uint64_t(TILE), total);
        uvec2 window = workgroup_two_co_ranks(pc.a_keys, m, pc.b_keys, n, k_first, k_last);
        // Started from the co-rank interpolated between the window's two ends: runs drawn from
        // similar distributions leave it a few positions away.
        uint64_t span = max(k_last - k_first, 1ul);
        uint64_t along = min(k, k_last) - min(k_first, k);
        uint guess = window.x + uint((along * uint64_t(window.y - min(window.x, window.y))) / span);
        co_rank = co_rank_global_from(pc.a_keys, m, pc.b_keys, n, k, window.x, window.y, guess);
    } else {
        co_rank = cluster_co_rank(pc.a_keys, m, pc.b_keys, n, k, lanes);
    }
    if (leader && boundary <= pc.max_tiles) {
        uint extra = 0u;
        if (pc.mode == MODE_TWO_BALANCED) {
            uvec2 p = balanced_point_global(pc.a_keys, m, pc.b_keys, n, co_rank, k);
            co_rank = p.x;
            extra = p.y;
        }
        s_co_rank[cluster] = co_rank;
        s_extra[cluster] = extra;
    }
    barrier();
    uint t = boundary;
    if (!leader || cluster + 1u == boundaries || t >= pc.max_tiles) {
        return;
    }
    uint64_t k0 = min(uint64_t(t) * uint64_t(TILE), total);
    uint64_t k1 = min(k0 + uint64_t(TILE), total);
    if (k0 == k1) {
        write_tile(t, 0u, 0u, 0u, 0u, 0ul);
        return;
    }
    k0 += uint64_t(s_extra[cluster]);
    k1 += uint64_t(s_extra[cluster + 1u]);
    uvec2 i = clamp_co_ranks(s_co_rank[cluster], s_co_rank[cluster + 1u], m, n, k0, k1);
    write_tile(t, i.x, i.y, uint(k0 - i.x), uint(k1 - i.y), k0);
}

void main() {
    if (pc.mode == MODE_TWO || pc.mode == MODE_TWO_BALANCED) {
        partition_two_runs();
        return;
    }
    uint id = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (pc.mode == MODE_COUNT_TILES) {
        uint total = count_a();
        uint per_half = pc.width;
        uint pairs = (pc.runs + 2u * per_half - 1u) / (2u * per_half);
        uint p = id;
        if (p < pc.max_tiles && p <= pairs) {
            uint tiles = 0u;
            if (p < pairs) {
                uint first_run = p * 2u * per_half;
                uint start = min(offset_of(first_run), total);
                uint end = clamp(offset_of(first_run + 2u * per_half), start, total);
                tiles = (end - start) / TILE + ((end - start) % TILE != 0u ? 1u : 0u);
            }
            U32Ref(u32_addr(pc.aux2_addr, p)).v[0] = tiles;
        }
        return;
    }
    // Invocations 2t and 2t + 1 (neighbours in one workgroup: WG_SIZE is even) take tile t.
    uint t = id >> 1;
    bool second = (id & 1u) != 0u;
    bool in_range = t < pc.max_tiles;
    TileMerge r;
    if (in_range) {
        r = tile_merge(t);
        uint co_rank = 0u;
        uint extra = 0u;
        if (r.k0 != r.k1) {
            uint64_t k = second ? r.k1 : r.k0;
            co_rank = co_rank_global(r.a_base, r.la, r.b_base, r.lb, k);
            if (pc.mode == MODE_TWO_BALANCED) {
                uvec2 p = balanced_point_global(r.a_base, r.la, r.b_base, r.lb, co_rank, k);
                co_rank = p.x;
                extra = p.y;
            }
        }
        s_co_rank[gl_LocalInvocationIndex] = co_rank;
        s_extra[gl_LocalInvocationIndex] = extra;
    }
    barrier();
    if (!in_range || second) {
        return;
    }
    if (r.k0 == r.k1) {
        write_tile(t, 0u, 0u, 0u, 0u, 0ul);
        return;
    }
    uint64_t k0 = r.k0 + uint64_t(s_extra[gl_LocalInvocationIndex]);
    uint64_t k1 = r.k1 + uint64_t(s_extra[gl_LocalInvocationIndex + 1u]);
    uvec2 i = clamp_co_ranks(s_co_rank[gl_LocalInvocationIndex], s_co_rank[gl_LocalInvocationIndex + 1u],
                             r.la, r.lb, k0, k1);
    write_tile(t, r.start + i.x, r.start + i.y, r.mid + uint(k0 - i.x), r.mid + uint(k1 - i.y),
               r.out_base + k0);
}
