#version 460
// Set operations on sorted runs (ascending) with std::set_* multiset semantics, on the
// balanced path (ModernGPU's set operations, Baxter 2013; merge_common.glsl balanced_take):
// A and B are walked as std::set_* walks them, one step per element present in one run only
// and one step per pair (the r-th copy of a value in A with its r-th copy in B). Kept: AND:
// pairs (A's copy); OR: everything, a pair once (A's copy); ANDNOT: A's unpaired copies; XOR:
// every unpaired copy. Per value that is min(ca, cb), max(ca, cb), max(ca - cb, 0) and
// |ca - cb| copies, in ascending order.
//
// The partition kernel (MODE_TWO_BALANCED) cuts the walk into tiles of TILE - 1 to TILE + 1
// elements that never split a pair; inside a tile each invocation finds its own start on the
// balanced path in shared memory the same way (a merge-path search, then the pair
// adjustment), so it walks ITEMS - 1 to ITEMS + 1 elements.
//
// SETOP_WRITE 0: count the kept outputs of each tile into aux_addr[t] (workgroup 0 also
// clears aux_addr[max_tiles], so an exclusive scan of max_tiles + 1 entries ends with the
// total). SETOP_WRITE 1: aux_addr holds that scan; write the kept keys of tile t from
// aux_addr[t] on, and the total (aux_addr[max_tiles]) to aux2_addr.
// SETOP_WRITE 2: one pass: each tile finds its output offset by decoupled look-back over the
// tiles before it (status words 16 bytes after aux_addr, all zero at the start), two tiles a
// workgroup (lookback_tiles); a waiter that spins SPIN_LIMIT times on a silent tile walks and
// counts that tile itself (glsl/common/lookback.glsl), so no schedule can hang it. The last
// tile writes the total to aux2_addr.
//
// Unsorted input gives an unspecified result, but every bound below is clamped, so no access
// leaves the runs, the tile or the output's a_count + b_count elements.
#define STAGE_EXTRA 1
#define STAGE_PAD 1
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "../common/workgroup_scan.glsl"
#include "merge_tile.glsl"

#ifndef SETOP_WRITE
#error "SETOP_WRITE must be defined by the permutation table"
#endif

// Steps of an invocation's walk (ITEMS + 1 at most), one bit each in a kept-output mask.
const uint STEPS = ITEMS + 1u;
#define MASK_T uint64_t
#define MASK_ONE 1ul
#define MASK_COUNT(m) (bitCount(uint(m)) + bitCount(uint((m) >> 32)))

TileSpan g_s;

// The invocation's place in the walk order: subgroup by subgroup, lane by lane (the order of
// the workgroup scans, so the kept outputs come out in walk order).
uint walker_index() {
    return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// The first copy of v in the staged span [lo, known] (s_keys[known] == v), by galloping.
uint gallop_first_shared(uint lo, uint known, KEY_T v) {
    uint step = 1u;
    while (step <= known - lo && s_keys[known - step] == v) {
        known -= step;
        step *= 2u;
    }
    uint l = step <= known - lo ? known - step + 1u : lo;
    uint h = known;
    while (l < h) {
        uint mid = (l + h) >> 1;
        if (s_keys[mid] != v) {
            l = mid + 1u;
        } else {
            h = mid;
        }
    }
    return l;
}

// One past the last copy of v in the staged span [known, hi) (s_keys[known] == v).
uint gallop_end_shared(uint known, uint hi, KEY_T v) {
    uint step = 1u;
    while (step < hi - known && s_keys[known + step] == v) {
        known += step;
        step *= 2u;
    }
    uint l = known + 1u;
    uint h = step < hi - known ? known + step : hi;
    while (l < h) {
        uint mid = (l + h) >> 1;
        if (s_keys[mid] == v) {
            l = mid + 1u;
        } else {
            h = mid;
        }
    }
    return l;
}

// This invocation's start on the tile's balanced path: (A elements, all elements) taken
// before it, the second d or d + 1 for its diagonal d (the staged tile: A at [0, la), B at
// [la, la + lb); the same adjustment as merge_common.glsl balanced_point_global, within the
// tile, whose bounds never split a pair).
uvec2 walk_start(uint la, uint lb, uint d) {
    uint i = co_rank_shared(la, lb, d);
    uint j = d - i;
    uint len = la + lb;
    KEY_T ka = s_keys[min(i, len - 1u)];
    KEY_T kb = s_keys[min(la + j, len - 1u)];
    uint fa;
    uint ca;
    uint fb;
    uint cb;
    if (i < la && (j >= lb || ka <= kb)) {
        if (i == 0u || s_keys[i - 1u] != ka) {
            return uvec2(i, d);
        }
        fa = gallop_first_shared(0u, i - 1u, ka);
        ca = gallop_end_shared(i, la, ka) - fa;
        fb = j;
        cb = j < lb && kb == ka ? gallop_end_shared(la + j, len, ka) - (la + j) : 0u;
    } else if (j < lb) {
        if (i == 0u || s_keys[i - 1u] != kb) {
            return uvec2(i, d);
        }
        fa = gallop_first_shared(0u, i - 1u, kb);
        ca = i - fa;
        fb = j > 0u && s_keys[la + j - 1u] == kb ? gallop_first_shared(la, la + j - 1u, kb) - la : j;
        cb = gallop_end_shared(la + j, len, kb) - (la + fb);
    } else {
        return uvec2(i, d);
    }
    uvec2 take = balanced_take(uint64_t((i - fa) + (j - fb)), ca, cb);
    uint d2 = fa + take.x + fb + take.y;
    return d2 == d || d2 == d + 1u ? uvec2(fa + take.x, d2) : uvec2(i, d);
}

// The starts of this invocation's and the next invocation's walks in the staged tile g_s
// (A elements, all elements taken before them), clamped so that they are consistent even for
// unsorted input: returns (a0, a1, d0, d1) with d0 <= d1 <= d0 + ITEMS + 1 and the A range
// [a0, a1) and the B range [d0 - a0, d1 - a1) within the tile's spans. The next start comes
// from the next lane, or for a subgroup's last lane through s_subgroup_values (free outside
// the workgroup scans), packed as 2 * a + (d - diagonal).
uvec4 walk_bounds() {
    uint la = g_s.la;
    uint lb = g_s.lb;
    uint len = la + lb;
    uint id = walker_index();
    uint diagonal = min(id * ITEMS, len);
    uvec2 start = len == 0u ? uvec2(0u) : walk_start(la, lb, diagonal);
    uint packed = start.x * 2u + (start.y - diagonal);
    if (gl_SubgroupInvocationID == 0u) {
        s_subgroup_values[gl_SubgroupID] = packed;
    }
    uint next_lane = subgroupShuffle(packed, min(gl_SubgroupInvocationID + 1u, gl_SubgroupSize - 1u));
    barrier();
    uint next_id = id + 1u;
    if (gl_SubgroupInvocationID + 1u == gl_SubgroupSize && next_id < WG_SIZE) {  // the next subgroup's first
        next_lane = s_subgroup_values[gl_SubgroupID + 1u];
    }
    barrier();  // the slots are read before a workgroup scan writes them again
    uvec2 end = next_id < WG_SIZE ? uvec2(next_lane >> 1, min(next_id * ITEMS, len) + (next_lane & 1u))
                                  : uvec2(la, len);
    // start.y <= end.y: diagonals grow by ITEMS >= 1 per invocation and move by at most one.
    uint d0 = min(start.y, len);
    uint d1 = clamp(end.y, d0, len);
    uvec2 a = clamp_co_ranks(min(start.x, min(d0, la)), end.x, la, lb, uint64_t(d0), uint64_t(d1));
    return uvec4(a.x, a.y, d0, d1);
}

// One step of the walk, with A's next key ka (has_a: A's range not done) and B's kb: whether
// it takes A's element and whether it takes B's (both: a pair of equal keys).
bvec2 walk_step(bool has_a, bool has_b, KEY_T ka, KEY_T kb) {
    return bvec2(has_a && (!has_b || ka <= kb), has_b && (!has_a || kb <= ka));
}

// The operation (SET_*): KEY_ORDER's bits 3-5 hold op + 1 (src/merge/kernels.rs setop_spec),
// so that each operation's pipeline has its rules folded into the walk; 0 there: the push
// constants' `runs` (docs/tuning/merge.md#set-op-folded).
const uint SPEC_OP = (KEY_ORDER >> 3) & 7u;
uint set_op() {
    return SPEC_OP != 0u ? SPEC_OP - 1u : pc.runs;
}

// What the operation keeps: x an element of A alone, y an element of B alone, z a pair (as
// A's copy).
bvec3 kept_steps(uint op) {
    return bvec3(op != SET_AND, op == SET_OR || op == SET_XOR, op == SET_AND || op == SET_OR);
}

// Whether a step that took `step` (walk_step) is kept by an operation keeping `keeps`.
bool step_kept(bvec3 keeps, bvec2 step) {
    return step.x && step.y ? keeps.z : (step.x ? keeps.x : (step.y && keeps.y));
}

// Walks this invocation's part of the staged tile g_s: the key of step e in keys[e], bit e of
// the result set when it is kept.
MASK_T walk_and_filter(inout KEY_T keys[STEPS]) {
    uint op = set_op();
    uint la = g_s.la;
    uint len = la + g_s.lb;
    uvec4 bounds = walk_bounds();
    // Clamped once here (walk_bounds keeps them in range already; this makes it evident):
    // ai <= a_end <= la and bi <= b_end <= len <= STAGE_CAPACITY, so every read below stays
    // within s_keys (STAGE_PAD) with no clamp per step, and one past a range is never taken.
    uint ai = min(bounds.x, la);
    uint a_end = clamp(bounds.y, ai, la);
    uint bi = min(la + (bounds.z - bounds.x), len);
    uint b_end = clamp(la + (bounds.w - bounds.y), bi, len);
    bvec3 keeps = kept_steps(op);
    // AND and ANDNOT keep A's copies only: a kept step's key is always ka (no select, and
    // B's keys need not stay live until the compaction; docs/tuning/merge.md#set-op-a-keys-only).
    bool a_keys_only = !keeps.y;
    KEY_T ka = s_keys[ai];
    KEY_T kb = s_keys[bi];
    MASK_T kept = MASK_T(0);
    [[unroll]] for (uint e = 0u; e < STEPS; ++e) {
        bvec2 step = walk_step(ai < a_end, bi < b_end, ka, kb);
        bool step_a = step.x;
        bool step_b = step.y;
        keys[e] = a_keys_only ? ka : (step_a ? ka : kb);
        kept |= step_kept(keeps, step) ? (MASK_ONE << e) : MASK_T(0);
        ai += step_a ? 1u : 0u;
        bi += step_b ? 1u : 0u;
        if (step_a) {
            ka = s_keys[ai];
        }
        if (step_b) {
            kb = s_keys[bi];
        }
    }
    return kept;
}

// Stages and walks tile t (workgroup-uniform control flow).
MASK_T tile_kept(uint t, inout KEY_T keys[STEPS]) {
    g_s = read_tile(t);  // set operations always have a tile table
    if (g_s.la + g_s.lb > 0u) {
        stage_tile(g_s);
    }
    return walk_and_filter(keys);
}

// Compacts this invocation's kept keys into s_keys from `prefix` on (the kept keys of the
// walkers before it). Call after a workgroup barrier that follows every walk.
void compact_kept(KEY_T keys[STEPS], MASK_T kept, uint prefix) {
    [[unroll]] for (uint e = 0u; e < STEPS; ++e) {
        if ((kept & (MASK_ONE << e)) != MASK_T(0)) {
            s_keys[prefix] = keys[e];
            prefix += 1u;
        }
    }
}

// The most keys the output holds (count(A) + count(B)): unsorted input may make tiles overlap
// by an element at a partition boundary, and nothing is ever written past the output.
uint64_t output_capacity() {
    return uint64_t(count_a()) + uint64_t(count_b());
}

// Writes the workgroup's `total` compacted keys from output position `base` on (none at or past
// the output's capacity).
void store_compacted(uint total, uint64_t base) {
    barrier();
    uint64_t end = min(base + uint64_t(total), output_capacity());
    for (uint64_t i = base + uint64_t(gl_LocalInvocationIndex); i < end; i += uint64_t(WG_SIZE)) {
        store_key(pc.out_keys, i, raw_bits(s_keys[uint(i - base)]));
    }
}

#if SETOP_WRITE == 2
// The look-back fallback: this invocation's kept outputs of a silent tile, walked from global
// memory (s_keys holds this tile's compacted output by then): the same walk as
// walk_and_filter, its bounds found by searches in the tile's spans in global memory.
uint lookback_fallback_thread_value(uint tile) {
    TileSpan s = read_tile(tile);
    uint64_t a_base = pc.a_keys + uint64_t(s.a0) * KEY_BYTES;
    uint64_t b_base = pc.b_keys + uint64_t(s.b0) * KEY_BYTES;
    uint len = s.la + s.lb;
    uint id = walker_index();
    uint d0 = min(id * ITEMS, len);
    uint d1 = min(d0 + ITEMS, len);
    if (d0 == d1) {
        return 0u;
    }
    uvec2 p0 = balanced_point_global(a_base, s.la, b_base, s.lb,
                                     co_rank_global(a_base, s.la, b_base, s.lb, uint64_t(d0)), uint64_t(d0));
    uvec2 p1 = id + 1u < WG_SIZE
        ? balanced_point_global(a_base, s.la, b_base, s.lb,
                                co_rank_global(a_base, s.la, b_base, s.lb, uint64_t(d1)), uint64_t(d1))
        : uvec2(s.la, len - d1);
    uint e0 = d0 + p0.y;
    uint e1 = clamp(d1 + p1.y, e0, len);
    uvec2 a = clamp_co_ranks(p0.x, p1.x, s.la, s.lb, uint64_t(e0), uint64_t(e1));
    uint ai = a.x;
    uint bi = e0 - a.x;
    uint a_end = a.y;
    uint b_end = e1 - a.y;
    bvec3 keeps = kept_steps(set_op());
    uint count = 0u;
    for (uint e = 0u; e < STEPS; ++e) {
        bool has_a = ai < a_end;
        bool has_b = bi < b_end;
        KEY_T ka = has_a ? load_ordered(a_base, uint64_t(ai)) : KEY_T(0);
        KEY_T kb = has_b ? load_ordered(b_base, uint64_t(bi)) : KEY_T(0);
        bvec2 step = walk_step(has_a, has_b, ka, kb);
        count += step_kept(keeps, step) ? 1u : 0u;
        ai += step.x ? 1u : 0u;
        bi += step.y ? 1u : 0u;
    }
    return count;
}

#include "../common/lookback.glsl"
#endif

// Walks the staged tile `span`: its kept keys and mask (walk_and_filter), this invocation's
// exclusive prefix of kept keys in `prefix`; returns the tile's kept count.
uint walk_and_count(TileSpan span, out KEY_T keys[STEPS], out MASK_T kept, out uint prefix) {
    g_s = span;
    kept = walk_and_filter(keys);
    uint total;
    prefix = workgroup_exclusive_scan(MASK_COUNT(kept), total);
    return total;
}

// Tiles per workgroup on the look-back path (SETOP_WRITE 2): 1 or 2 (src/merge/tuning.rs
// TILES_PER_GROUP); the count-scan-write kernels take one.
layout(constant_id = 5) const uint TILES_PER_GROUP = 1;

#if SETOP_WRITE == 2
// The look-back pass for tile t and, with TILES_PER_GROUP 2, tile t + 1: tile t + 1's keys are
// loaded into registers while tile t is walked, and both tiles are walked and their
// aggregates published before the one look-back both need. So the next workgroup never waits
// on a second tile not yet walked (it would, were tile t looked back and stored first), and
// the wait on tile t's predecessor comes a tile later. Tile t's kept keys stay in registers
// while tile t + 1 is walked: the staged tile is the only shared array
// (docs/tuning/merge.md#set-op-two-tiles).
void lookback_tiles(uint t) {
    bool second = TILES_PER_GROUP == 2u && t + 1u < pc.max_tiles;
    TileSpan first_span = read_tile(t);
    TileSpan second_span = second ? read_tile(t + 1u) : first_span;
    KEY_T staged[ITEMS];
    load_tile(first_span, staged);
    stage_loaded(first_span, staged);
    if (second) {
        load_tile(second_span, staged);
    }
    KEY_T keys[STEPS];
    MASK_T kept;
    uint prefix;
    uint total = walk_and_count(first_span, keys, kept, prefix);
    uint64_t status_addr = pc.aux_addr + 16ul;
    if (gl_LocalInvocationIndex == 0u) {
        lookback_publish(status_addr, t, t == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE, total);
    }
    KEY_T keys2[STEPS];
    MASK_T kept2 = MASK_T(0);
    uint total2 = 0u;
    uint prefix2 = 0u;
    if (second) {
        // The scan's barriers follow every read of tile t's staged keys.
        stage_loaded(second_span, staged);
        total2 = walk_and_count(second_span, keys2, kept2, prefix2);
        if (gl_LocalInvocationIndex == 0u) {
            lookback_publish(status_addr, t + 1u, LOOKBACK_AGGREGATE, total2);
        }
    }
    // Tile t's kept keys go to shared memory before the look-back (the scans' barriers follow
    // every walk), so the compaction is not left waiting behind the look-back's barriers
    // (docs/tuning/merge.md#set-op-compact-first).
    compact_kept(keys, kept, prefix);
    // Where both tiles' kept keys fit the staged tile's place together (mostly AND and
    // ANDNOT, which keep A's elements only), tile t + 1's follow tile t's there, also before
    // the look-back, and one loop stores both (no barrier between two stores).
    bool together = second && total + total2 <= STAGE_CAPACITY;  // workgroup-uniform
    if (together) {
        compact_kept(keys2, kept2, total + prefix2);
    }
    uint before = 0u;
    if (t > 0u) {
        before = lookback_exclusive_prefix(status_addr, t);
        if (gl_LocalInvocationIndex == 0u) {
            lookback_publish(status_addr, t, LOOKBACK_INCLUSIVE, before + total);
        }
    }
    if (second && gl_LocalInvocationIndex == 0u) {
        lookback_publish(status_addr, t + 1u, LOOKBACK_INCLUSIVE, before + total + total2);
    }
    store_compacted(together ? total + total2 : total, uint64_t(before));
    if (second && !together) {
        barrier();  // the stores have read tile t's compacted keys
        compact_kept(keys2, kept2, prefix2);
        store_compacted(total2, uint64_t(before + total));
    }
    uint last = second ? t + 1u : t;
    if (last == pc.max_tiles - 1u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.aux2_addr).v[0] = uint(min(uint64_t(before + total + total2), output_capacity()));
    }
}
#endif

void main() {
    // Tiles by workgroup id, also on the look-back path on GPUs: a wait on a tile whose
    // workgroup has not started ends in the fallback, and GPUs start workgroups in order (an
    // atomic ticket was slower: docs/tuning/merge.md#set-op-tile-order). CPU drivers take the
    // look-back's tiles by ticket (the u32 at aux_addr; common/tile_ticket.glsl).
#if SETOP_WRITE == 2
    uint t = lookback_tile(pc.aux_addr) * TILES_PER_GROUP;
#else
    uint t = linear_workgroup_id();
#endif
    if (t >= pc.max_tiles) {
        return;
    }
#if SETOP_WRITE == 2
    lookback_tiles(t);
#else
    KEY_T keys[STEPS];
    MASK_T kept = tile_kept(t, keys);
    uint kept_count = MASK_COUNT(kept);
#if SETOP_WRITE == 0
    uint total = workgroup_reduce_add(kept_count);
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(u32_addr(pc.aux_addr, t)).v[0] = total;
        if (t == 0u) {
            U32Ref(u32_addr(pc.aux_addr, pc.max_tiles)).v[0] = 0u;
        }
    }
#else
    uint total;
    uint prefix = workgroup_exclusive_scan(kept_count, total);
    compact_kept(keys, kept, prefix);
    store_compacted(total, uint64_t(U32Ref(u32_addr(pc.aux_addr, t)).v[0]));
    if (t == 0u && gl_LocalInvocationIndex == 0u) {
        uint64_t written = uint64_t(U32Ref(u32_addr(pc.aux_addr, pc.max_tiles)).v[0]);
        U32Ref(pc.aux2_addr).v[0] = uint(min(written, output_capacity()));
    }
#endif
#endif
}
