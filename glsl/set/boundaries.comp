#version 460
// Insert/remove of values, after the values were sorted: the first value of each chunk's run
// finds the run's end (binary search), records the run (start and end index per chunk in
// scratch) and lists the chunk once, for small_pairs.comp or array_pairs.comp when the chunk is an array (or
// empty) small enough to take the run there (set_common.glsl pair_class), else for
// chunk_update.comp; chunks the operation
// cannot change are skipped (full ones for an insert (op OR), empty ones for a remove (op
// ANDNOT)).
#include "set_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (i >= n) {
        return;
    }
    uint c = U32Ref(u32_addr(pc.values, i)).v[0] >> 16;
    uint prev = i > 0u ? (U32Ref(u32_addr(pc.values, i - 1u)).v[0] >> 16) : 0xFFFFFFFFu;
    if (c == prev) {
        return;
    }
    // The run's end: the first index after i whose value lies in a later chunk (n <= 2^24:
    // at most 25 steps).
    uint lo = i + 1u;
    uint hi = n;
    while (lo < hi) {
        uint mid = lo + (hi - lo) / 2u;
        if ((U32Ref(u32_addr(pc.values, mid)).v[0] >> 16) == c) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    U32Ref(pc.scratch).v[S_START + c] = i;
    U32Ref(pc.scratch).v[S_END + c] = lo;
    uint cd = dir_entry(pc.meta_d, c).x;
    bool unchanged = (pc.op == OP_OR && cd == FULL) || (pc.op == OP_ANDNOT && cd == 0u);
    // Blocks enough for the listed chunk's result (the one-pass path, set_common.glsl
    // one_pass): an insert gives the chunk's values up to those plus the run's, a removal the
    // chunk's values down to those minus the run's. Summed over the subgroup's run starts (the
    // only invocations left here).
    uvec2 bound = uvec2(0u);
    if (!unchanged) {
        list_chunk(pc.scratch, c, pair_class(cd, lo - i));
        uint run = lo - i;
        bound = pc.op == OP_OR ? chunk_blocks_between(cd, min(cd + run, FULL))
                               : chunk_blocks_between(cd > run ? cd - run : 0u, cd);
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
    if (i == 0u) {
        U32Ref(pc.scratch).v[S_BOUND_VALID] = 1u;
    }
}
