#version 460
// Segmented sort, merge rounds: the tile table of one round (pc.width: elements of each half of
// a pair). SEGSORT_PASS_COUNT: invocation p writes the tiles of pair p's merge
// (segsort_common.glsl pair_merge) to starts[p], and 0 to starts[max_pairs], for an exclusive
// scan in place. SEGSORT_PASS_PARTITION: invocation t finds tile t's pair (the last whose first
// tile is <= t), the tile's outputs [k0, k1) of the pair's merge and their two co-ranks by
// binary search in global memory, and writes its entry; tiles past the last get empty
// entries. No workgroup waits on another.
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

void main() {
    uint id = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    uint n = element_count();
    uint segs = segment_count();
    if (pc.pass == SEGSORT_PASS_COUNT) {
        if (id > pc.max_pairs) {
            return;
        }
        uint tiles = 0u;
        if (id < pc.max_pairs) {
            uvec3 m = pair_merge(id, n, segs);
            tiles = (m.z - m.x + TILE - 1u) / TILE;
        }
        U32Ref(u32_addr(pc.starts, id)).v[0] = tiles;
        return;
    }
    uint t = id;
    if (t >= pc.max_tiles) {
        return;
    }
    uint total = U32Ref(u32_addr(pc.starts, pc.max_pairs)).v[0];
    if (t >= total) {
        write_tile(t, 0u, 0u, 0u, 0u, 0u);
        return;
    }
    // The last pair whose first tile is <= t.
    uint lo = 0u;
    uint hi = pc.max_pairs;
    while (lo < hi) {
        uint probe = lo + ((hi - lo) >> 1);
        if (U32Ref(u32_addr(pc.starts, probe)).v[0] <= t) {
            lo = probe + 1u;
        } else {
            hi = probe;
        }
    }
    uint pair = max(lo, 1u) - 1u;
    uvec3 m = pair_merge(pair, n, segs);
    uint la = m.y - m.x;
    uint lb = m.z - m.y;
    uint local_tile = t - U32Ref(u32_addr(pc.starts, pair)).v[0];
    uint len = la + lb;
    uint k0 = min(local_tile * TILE, len);
    uint k1 = min(k0 + TILE, len);
    if (k0 == k1) {
        write_tile(t, 0u, 0u, 0u, 0u, 0u);
        return;
    }
    uint64_t a_base = pc.keys + uint64_t(m.x) * KEY_BYTES;
    uint64_t b_base = pc.keys + uint64_t(m.y) * KEY_BYTES;
    uint i0 = co_rank(a_base, la, b_base, lb, k0);
    uint i1 = co_rank(a_base, la, b_base, lb, k1);
    // Consistent even for unsorted input: 0 <= i1 - i0 <= k1 - k0 within both runs.
    uint take = clamp(i1 >= i0 ? i1 - i0 : 0u, (k1 - k0) > (lb - (k0 - i0)) ? (k1 - k0) - (lb - (k0 - i0)) : 0u,
                      min(k1 - k0, la - i0));
    i1 = i0 + take;
    write_tile(t, m.x + i0, m.x + i1, m.y + (k0 - i0), m.y + (k1 - i1), m.x + k0);
}
