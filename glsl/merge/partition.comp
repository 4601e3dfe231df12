#version 460
// Merge path partition: one invocation per output tile writes the tile's spans of A and B
// (its two co-ranks, found by binary search in global memory) into the tile table. No
// workgroup waits on another.
//
// MODE_TWO: tile t covers outputs [t * TILE, (t + 1) * TILE) of the merge of A and B.
// MODE_UNIFORM: the array holds runs of `width` elements (a multiple of TILE); pair p merges
// runs 2p and 2p + 1 into [2p * width, (2p + 2) * width), in 2 * width / TILE tiles.
// MODE_OFFSETS: `runs` runs with u32 offsets at aux_addr (runs + 1 of them); pair p merges
// runs [2p * width, (2p + 1) * width) and [(2p + 1) * width, (2p + 2) * width) (width runs per
// half); the pairs' first tiles are at aux2_addr (an exclusive scan of tiles per pair, then
// the total).
// Tiles past the end get empty entries (every merge workgroup reads its entry).
// MODE_COUNT_TILES (before MODE_OFFSETS): invocation p writes the tiles of pair p to
// aux2_addr[p] (0 for p = pairs), for an exclusive scan in place.
#include "merge_common.glsl"

uint offset_of(uint run) {
    return U32Ref(u32_addr(pc.aux_addr, min(run, pc.runs))).v[0];
}

void main() {
    uint t = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (t >= pc.max_tiles) {
        return;
    }
    uint64_t tile = uint64_t(TILE);
    if (pc.mode == MODE_COUNT_TILES) {
        uint total = count_a();
        uint per_half = pc.width;
        uint pairs = (pc.runs + 2u * per_half - 1u) / (2u * per_half);
        uint p = t;
        if (p <= pairs) {
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
    if (pc.mode == MODE_TWO) {
        uint m = count_a();
        uint n = count_b();
        uint64_t total = uint64_t(m) + uint64_t(n);
        uint64_t k0 = min(uint64_t(t) * tile, total);
        uint64_t k1 = min(k0 + tile, total);
        uvec2 i = tile_co_ranks(pc.a_keys, m, pc.b_keys, n, k0, k1);
        write_tile(t, i.x, i.y, uint(k0 - i.x), uint(k1 - i.y), k0);
        return;
    }
    // Segmented modes: find the pair, its runs [start, mid) and [mid, end), and the tile's
    // place in the pair.
    uint total = count_a();
    uint start;
    uint mid;
    uint end;
    uint local_tile;
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
        if (lo == 0u || t >= all_tiles) {
            write_tile(t, 0u, 0u, 0u, 0u, 0ul);
            return;
        }
        uint pair = lo - 1u;
        local_tile = t - U32Ref(u32_addr(pc.aux2_addr, pair)).v[0];
        uint first_run = pair * 2u * per_half;
        // Offsets are clamped into [0, total] and made non-decreasing within the pair, so a
        // bad offset array gives unspecified output but no stray access.
        start = min(offset_of(first_run), total);
        mid = clamp(offset_of(first_run + per_half), start, total);
        end = clamp(offset_of(first_run + 2u * per_half), mid, total);
    }
    uint la = mid - start;
    uint lb = end - mid;
    uint64_t k0 = min(uint64_t(local_tile) * tile, uint64_t(la) + uint64_t(lb));
    uint64_t k1 = min(k0 + tile, uint64_t(la) + uint64_t(lb));
    if (k0 == k1) {
        write_tile(t, 0u, 0u, 0u, 0u, 0ul);
        return;
    }
    uint64_t a_base = pc.a_keys + uint64_t(start) * KEY_BYTES;
    uint64_t b_base = pc.a_keys + uint64_t(mid) * KEY_BYTES;
    uvec2 i = tile_co_ranks(a_base, la, b_base, lb, k0, k1);
    write_tile(t, start + i.x, start + i.y, mid + uint(k0 - i.x), mid + uint(k1 - i.y),
               uint64_t(start) + k0);
}
