#version 460
// Filter values by the set in tiles of WG_SIZE (one per workgroup, one value per invocation),
// keeping input order. mode 0: the tile's count of kept values to scratch (S_START + tile);
// mode 1 (after info.comp mode 2 turned the counts into offsets): the kept values to out_addr.
#include "set_common.glsl"

shared uint s_scan[WG_SIZE];

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tile = linear_workgroup_id();
    uint tiles = (n + WG_SIZE - 1u) / WG_SIZE;
    if (tile >= tiles) {
        return;
    }
    uint t = gl_LocalInvocationIndex;
    uint i = tile * WG_SIZE + t;
    uint v = 0u;
    uint keep = 0u;
    if (i < n) {
        v = U32Ref(u32_addr(pc.values, i)).v[0];
        keep = set_contains(pc.meta_d, v) ? 1u : 0u;
    }
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
    } else if (keep != 0u) {
        uint base = U32Ref(pc.scratch).v[S_START + tile];
        U32Ref(u32_addr(pc.out_addr, base + before + subgroupBallotExclusiveBitCount(kept))).v[0] = v;
    }
}
