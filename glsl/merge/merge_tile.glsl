// The tiled merge of one workgroup (after the tiled kernel of Hwu, Kirk & El Hajj, PMPP
// chapter 12, and ModernGPU's merge): the tile's spans of A and B are staged in shared memory
// with coalesced loads (A's span, then B's: ordered keys), every invocation finds the co-rank
// of its first output by binary search in shared memory and merges ITEMS outputs from there.
// A tile's inputs are exactly as many as its outputs (at most TILE), so each workgroup stages
// once and no circular buffer is needed.
#ifndef VKALGO_MERGE_TILE_GLSL
#define VKALGO_MERGE_TILE_GLSL

#include "merge_common.glsl"

// Elements a staged tile may hold: TILE, or TILE + 1 where the includer defines STAGE_EXTRA
// as 1 (the set operations' tiles on the balanced path).
#ifndef STAGE_EXTRA
#define STAGE_EXTRA 0
#endif
#define STAGE_CAPACITY (TILE + uint(STAGE_EXTRA))

// Entries declared past STAGE_CAPACITY (never staged): 1 where the includer defines STAGE_PAD
// as 1, so that a walk may read the entry after its last element without a clamp.
#ifndef STAGE_PAD
#define STAGE_PAD 0
#endif

shared KEY_T s_keys[STAGE_CAPACITY + uint(STAGE_PAD)];

// FUSED 1 (the `fused` permutation of merge.comp): the merge has no tile table (small counts,
// MODE_TWO) and every workgroup finds its tiles' co-ranks itself. A permutation of its own
// keeps the subgroup search out of the partitioned kernel, whose keys merge its code slowed
// (docs/tuning/merge.md#fused-merge).
#ifndef FUSED
#define FUSED 0
#endif

#if FUSED
// The span of tile t when the plan has no tile table: subgroups 0 and 1 find the two co-ranks
// in global memory side by side (cluster_co_rank: a few rounds instead of a chain of up to 33
// dependent probes, which each workgroup would otherwise wait through before its first load).
// Workgroup-uniform control flow.
TileSpan fused_span(uint t) {
    uint m = count_a();
    uint n = count_b();
    uint64_t total = uint64_t(m) + uint64_t(n);
    uint64_t k0 = min(uint64_t(t) * uint64_t(TILE), total);
    uint64_t k1 = min(k0 + uint64_t(TILE), total);
    uvec2 c = workgroup_two_co_ranks(pc.a_keys, m, pc.b_keys, n, k0, k1);
    uvec2 i = clamp_co_ranks(c.x, c.y, m, n, k0, k1);
    TileSpan s;
    s.a0 = i.x;
    s.la = i.y - i.x;
    s.b0 = uint(k0 - uint64_t(c.x));
    s.lb = uint(k1 - k0) - s.la;
    s.out0 = k0;
    return s;
}

#endif

// The span of this workgroup's tile t (workgroup-uniform control flow).
TileSpan tile_span(uint t) {
#if FUSED
    return fused_span(t);
#else
    return read_tile(t);
#endif
}

// This invocation's address for the striped elements of a tile or span (element e at
// e * WG_SIZE + its index): `base` advanced by `first` + its index elements of `bytes`. Element
// e is then at a constant offset from it, which the loads and stores take as an immediate
// instead of 64-bit arithmetic per element (the merge kernels are bound by instruction issue:
// docs/tuning/merge.md#lane-addresses). `first` may be "negative" (wrapping), for a span whose
// elements start at stripe index la.
uint64_t lane_address(uint64_t base, uint64_t first, uint64_t bytes) {
    return base + (first + uint64_t(gl_LocalInvocationIndex)) * bytes;
}

// LANE_ADDRESSES 1 (the default): load_tile and the merge's stores address elements from
// lane_address. The keys-alone merge defines it as 0 and computes each element's address: it
// keeps the next tile's loads in flight across the merge, and the two 64-bit addresses made it
// slower there, where the pairs merge and the set operations gained
// (docs/tuning/merge.md#lane-addresses).
#ifndef LANE_ADDRESSES
#define LANE_ADDRESSES 1
#endif

// Loads the tile's ordered keys into registers, striped as stage_loaded stores them (A's span,
// then B's). Every load is issued before any is used (unrolled over ITEMS), so an invocation
// keeps ITEMS loads in flight.
void load_tile(TileSpan s, out KEY_T staged[ITEMS]) {
    uint len = s.la + s.lb;
#if LANE_ADDRESSES
    uint64_t a_lane = lane_address(pc.a_keys, uint64_t(s.a0), KEY_BYTES);
    uint64_t b_lane = lane_address(pc.b_keys, uint64_t(s.b0) - uint64_t(s.la), KEY_BYTES);
#endif
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        staged[e] = KEY_T(0);
#if LANE_ADDRESSES
        if (x < s.la) {
            staged[e] = load_ordered(a_lane, uint64_t(e * WG_SIZE));
        } else if (x < len) {
            staged[e] = load_ordered(b_lane, uint64_t(e * WG_SIZE));
        }
#else
        if (x < s.la) {
            staged[e] = load_ordered(pc.a_keys, uint64_t(s.a0 + x));
        } else if (x < len) {
            staged[e] = load_ordered(pc.b_keys, uint64_t(s.b0 + (x - s.la)));
        }
#endif
    }
}

// Stores keys loaded by load_tile into the staged tile (la + lb <= STAGE_CAPACITY): A's span
// at [0, la), B's at [la, la + lb); then a workgroup barrier.
void stage_loaded(TileSpan s, KEY_T staged[ITEMS]) {
    uint len = s.la + s.lb;
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (x < len) {
            s_keys[x] = staged[e];
        }
    }
#if STAGE_EXTRA
    if (gl_LocalInvocationIndex == 0u && TILE < len) {
        s_keys[TILE] = s.la > TILE ? load_ordered(pc.a_keys, uint64_t(s.a0 + TILE))
                                   : load_ordered(pc.b_keys, uint64_t(s.b0 + (TILE - s.la)));
    }
#endif
    barrier();
}

// Stages the tile's ordered keys (load_tile, then stage_loaded).
void stage_tile(TileSpan s) {
    KEY_T staged[ITEMS];
    load_tile(s, staged);
    stage_loaded(s, staged);
}

// Co-rank of output d of the staged tile: A elements among its first d outputs, the i in
// [lo, hi) with s_keys[i] <= s_keys[la + d - 1 - i] (all true, then all false). Found by binary
// lifting: lo moves past a block of `step` of them for each power of two up to the tile, in
// unrolled steps without a branch: fewer instructions a probe than a loop with a data-dependent
// trip count, and the walks that call it are bound by instruction issue
// (docs/tuning/merge.md#co-rank-lifting).
uint co_rank_shared(uint la, uint lb, uint d) {
    uint lo = d > lb ? d - lb : 0u;
    uint hi = min(d, la);
    [[unroll]] for (uint step = 1u << 16; step > 0u; step >>= 1) {
        if (step <= TILE) {  // folded when the pipeline is specialized
            uint next = lo + step;
            if (next <= hi && s_keys[next - 1u] <= s_keys[la + d - next]) {
                lo = next;
            }
        }
    }
    return lo;
}

#endif
