#version 460
// Insert/remove of values, after the values were sorted: finds each chunk's run of values,
// records it (start and end index per chunk in scratch) and lists the chunk once, for
// small_pairs.comp or array_pairs.comp when the chunk is an array (or empty) small enough to
// take the run there (set_common.glsl pair_class), else for chunk_update.comp; chunks the
// operation cannot change are skipped (full ones for an insert (op OR), empty ones for a
// remove (op ANDNOT)). Run chunks go to chunk_update.comp.
//
// One invocation per chunk c, between the chunks of the first and the last value: its run is
// [first value of chunk >= c, first value of chunk >= c + 1), two binary searches over the
// sorted values stepped together in one loop, so their loads overlap. The 65536 searches run
// as one wave of at most 25 dependent loads, whose first levels every invocation shares
// (cached). Before, the first value of each run searched for the run's end, with invocations
// looking at the values themselves: one chain of loads per run, most of them in a wave of
// their own, and a pass over every value (docs/tuning/set.md#boundaries-searches).
#include "set_common.glsl"

// Chunk of value i.
uint chunk_of(uint i) {
    return U32Ref(u32_addr(pc.values, i)).v[0] >> 16;
}

// The first index of the sorted values[0, n) whose chunk is >= c (x) and >= c + 1 (y).
uvec2 run_of_chunk(uint c, uint n) {
    uvec2 lo = uvec2(0u);
    uvec2 len = uvec2(n);
    uvec2 target = uvec2(c, c + 1u);
    while (len.x > 0u || len.y > 0u) {
        uvec2 half_len = len / 2u;
        bvec2 live = greaterThan(len, uvec2(0u));
        uvec2 probe = min(lo + half_len, uvec2(n - 1u));
        uint kx = live.x ? chunk_of(probe.x) : 0u;
        uint ky = live.y ? chunk_of(probe.y) : 0u;
        bvec2 below = bvec2(live.x && kx < target.x, live.y && ky < target.y);
        lo = mix(lo, lo + half_len + 1u, below);
        len = mix(half_len, len - half_len - 1u, below);
        len = mix(uvec2(0u), len, live);
    }
    return lo;
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint c = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    uvec2 bound = uvec2(0u);
    if (n > 0u && c < CHUNKS && c >= chunk_of(0u) && c <= chunk_of(n - 1u)) {
        uvec2 run = run_of_chunk(c, n);
        if (run.y > run.x) {
            U32Ref(pc.scratch).v[S_START + c] = run.x;
            U32Ref(pc.scratch).v[S_END + c] = run.y;
            uint xd = dir_entry(pc.meta_d, c).x;
            uint cd = chunk_card(xd);
            bool unchanged = (pc.op == OP_OR && cd == FULL) || (pc.op == OP_ANDNOT && cd == 0u);
            // Blocks enough for the listed chunk's result (the one-pass path, set_common.glsl
            // one_pass): an insert gives the chunk's values up to those plus the run's, a
            // removal the chunk's values down to those minus the run's.
            if (!unchanged) {
                uint len = run.y - run.x;
                // A run chunk goes to chunk_update.comp (set_common.glsl SET_RUN_CHUNKS).
                uint cls = chunk_runs(xd) != 0u ? CLASS_CHUNK : pair_class(cd, len);
                list_chunk(pc.scratch, c, cls);
                bound = pc.op == OP_OR ? chunk_blocks_between(cd, min(cd + len, FULL))
                                       : chunk_blocks_between(cd > len ? cd - len : 0u, cd);
                bound = run_bound(bound, chunk_runs(xd) != 0u);
            }
        }
    }
    bound.x = subgroup_sum(bound.x);
    bound.y = subgroup_sum(bound.y);
    if (subgroupElect()) {
        if (bound.x != 0u) {
            atomicAdd(U32AtomicRef(pc.scratch).v[S_BOUND_BM], bound.x);
        }
        if (bound.y != 0u) {
            atomicAdd(U32AtomicRef(pc.scratch).v[S_BOUND_AR], bound.y);
        }
    }
    if (c == 0u && n > 0u) {
        U32Ref(pc.scratch).v[S_BOUND_VALID] = 1u;
    }
}
