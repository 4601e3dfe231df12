#version 460
// Insert/remove of values, after the values were sorted: the first value of each chunk's run
// finds the run's end (binary search), records the run (start and end index per chunk in
// scratch) and lists the chunk once, for small_pairs.comp or array_pairs.comp when the chunk is an array (or
// empty) small enough to take the run there (set_common.glsl pair_class), else for
// chunk_update.comp; chunks the operation
// cannot change are skipped (full ones for an insert (op OR), empty ones for a remove (op
// ANDNOT)).
//
// Each invocation looks at BOUNDARY_ITEMS values, a workgroup's stride apart (coalesced), all
// loaded before any is used: with one value an invocation, most subgroups did one round trip
// and ended (H100, sparse build of 2^24 values: 0.338 -> 0.30 ms with 8 values,
// docs/benchmarks/2026-11-25-h100-dense-bitmaps.md). A run's end found by its whole subgroup
// in a few rounds of probes, with one value an invocation, measured no faster (and dense
// builds 17% slower).
#include "set_common.glsl"

// Values per invocation (src/set/gpu.rs BOUNDARY_ITEMS).
#define BOUNDARY_ITEMS 8u

// One past the last index of the run of chunk c that starts at i (binary search; n <= 2^24:
// at most 25 steps).
uint run_end(uint i, uint c, uint n) {
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
    return lo;
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = linear_workgroup_id() * (WG_SIZE * BOUNDARY_ITEMS) + gl_LocalInvocationIndex;
    uint chunk[BOUNDARY_ITEMS];
    uint before[BOUNDARY_ITEMS];
    [[unroll]] for (uint k = 0u; k < BOUNDARY_ITEMS; k++) {
        uint i = first + k * WG_SIZE;
        chunk[k] = i < n ? U32Ref(u32_addr(pc.values, i)).v[0] >> 16 : 0u;
        before[k] = i < n && i > 0u ? U32Ref(u32_addr(pc.values, i - 1u)).v[0] >> 16 : 0xFFFFFFFFu;
    }
    uvec2 bound = uvec2(0u);
    for (uint k = 0u; k < BOUNDARY_ITEMS; k++) {
        uint i = first + k * WG_SIZE;
        uint c = chunk[k];
        if (i >= n || c == before[k]) {
            continue;
        }
        uint end = run_end(i, c, n);
        U32Ref(pc.scratch).v[S_START + c] = i;
        U32Ref(pc.scratch).v[S_END + c] = end;
        uint cd = dir_entry(pc.meta_d, c).x;
        bool unchanged = (pc.op == OP_OR && cd == FULL) || (pc.op == OP_ANDNOT && cd == 0u);
        // Blocks enough for the listed chunk's result (the one-pass path, set_common.glsl
        // one_pass): an insert gives the chunk's values up to those plus the run's, a removal
        // the chunk's values down to those minus the run's.
        if (!unchanged) {
            uint run = end - i;
            list_chunk(pc.scratch, c, pair_class(cd, run));
            bound += pc.op == OP_OR ? chunk_blocks_between(cd, min(cd + run, FULL))
                                    : chunk_blocks_between(cd > run ? cd - run : 0u, cd);
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
    if (first == 0u && n > 0u) {
        U32Ref(pc.scratch).v[S_BOUND_VALID] = 1u;
    }
}
