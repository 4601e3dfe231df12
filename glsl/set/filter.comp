#version 460
// Filter values by the set in tiles of WG_SIZE (one per workgroup, one value per invocation),
// keeping input order. mode 0: the tile's count of kept values to scratch (S_START + tile);
// mode 1 (after info.comp mode 2 turned the counts into offsets): the kept values to out_addr.
// mode 2, one pass where the device allows inter-workgroup waiting: each tile publishes its
// count and finds its output offset by decoupled look-back (glsl/common/lookback.glsl; status
// words 16 bytes after word S_START, zeroed before the dispatch), writes its kept values, and
// the last tile writes the total to the u32 at range_lo (tile 0 writes 0 for no values). A waiter that spins SPIN_LIMIT times on a
// silent tile looks that tile's values up itself, so no schedule can hang it. Each value is
// looked up once (modes 0 and 1 look it up twice).
#include "set_common.glsl"

shared uint s_scan[WG_SIZE];

// The status words of mode 2 (16 bytes reserved before them: lookback.glsl's counter).
uint64_t filter_status_addr() {
    return pc.scratch + uint64_t(S_START) * 4ul + 16ul;
}

// Whether this invocation's value of `tile` is in the set (0 past the count); its value in
// `v`.
uint keep_of(uint tile, uint n, out uint v) {
    uint i = tile * WG_SIZE + gl_LocalInvocationIndex;
    v = 0u;
    if (i >= n) {
        return 0u;
    }
    v = U32Ref(u32_addr(pc.values, i)).v[0];
    return set_contains(pc.meta_d, v) ? 1u : 0u;
}

// lookback.glsl's fallback: this invocation's share of a silent tile's count.
uint lookback_fallback_thread_value(uint tile) {
    uint v;
    return keep_of(tile, load_count(pc.count_addr, pc.count, pc.max_count), v);
}

#include "../common/lookback.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tile = linear_workgroup_id();
    uint tiles = (n + WG_SIZE - 1u) / WG_SIZE;
    if (pc.mode == 2u && tiles == 0u && tile == 0u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.range_lo).v[0] = 0u;
    }
    if (tile >= tiles) {
        // (mode 0: the info pass sums every dispatched tile's entry; an indirect count may
        // leave tiles empty.)
        if (pc.mode == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.scratch).v[S_START + tile] = 0u;
        }
        return;
    }
    uint t = gl_LocalInvocationIndex;
    uint v;
    uint keep = keep_of(tile, n, v);
    // The tile's scan by subgroup ballots and one barrier (a workgroup scan of one flag per
    // invocation in shared memory took 16 barriers; workgroup_scan.glsl's scan, three
    // barriers, was 8-16% slower on an H200, docs/benchmarks/2026-11-26-h200-large-counts.md).
    uvec4 kept = subgroupBallot(keep != 0u);
    if (subgroupElect()) {
        s_scan[gl_SubgroupID] = subgroupBallotBitCount(kept);
    }
    barrier();
    uint before = 0u;
    uint total = 0u;
    for (uint g = 0u; g < gl_NumSubgroups; ++g) {
        before += g < gl_SubgroupID ? s_scan[g] : 0u;
        total += s_scan[g];
    }
    if (pc.mode == 0u) {
        if (t == 0u) {
            U32Ref(pc.scratch).v[S_START + tile] = total;
        }
        return;
    }
    uint base;
    if (pc.mode == 1u) {
        base = U32Ref(pc.scratch).v[S_START + tile];
    } else {
        uint64_t status = filter_status_addr();
        if (t == 0u) {
            lookback_publish(status, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE, total);
        }
        base = tile == 0u ? 0u : lookback_exclusive_prefix(status, tile);
        if (t == 0u && tile != 0u) {
            lookback_publish(status, tile, LOOKBACK_INCLUSIVE, base + total);
        }
        if (t == 0u && tile + 1u == tiles) {
            U32Ref(pc.range_lo).v[0] = base + total;
        }
    }
    if (keep != 0u) {
        U32Ref(u32_addr(pc.out_addr, base + before + subgroupBallotExclusiveBitCount(kept))).v[0] = v;
    }
}
