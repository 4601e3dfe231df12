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
// SETOP_WRITE 2: one pass: tiles numbered by an atomic counter (aux_addr), each finds its
// output offset by decoupled look-back over the tiles before it (status words after the
// counter, all zero at the start); a waiter that spins SPIN_LIMIT times on a silent tile walks
// and counts that tile itself (glsl/common/lookback.glsl), so no schedule can hang it. The
// last tile writes the total to aux2_addr.
//
// Unsorted input gives an unspecified result, but every bound below is clamped, so no access
// leaves the runs, the tile or the output's a_count + b_count elements.
#define STAGE_EXTRA 1
#include "merge_tile.glsl"
#include "../common/workgroup_scan.glsl"

#ifndef SETOP_WRITE
#error "SETOP_WRITE must be defined by the permutation table"
#endif

// Steps of an invocation's walk (ITEMS + 1 at most), one bit each in a kept-output mask.
const uint STEPS = ITEMS + 1u;
#define MASK_T uint64_t
#define MASK_ONE 1ul
#define MASK_COUNT(m) (bitCount(uint(m)) + bitCount(uint((m) >> 32)))

shared uint s_start_a[WG_SIZE];
shared uint s_start_d[WG_SIZE];

TileSpan g_s;

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

// Walks this invocation's part of the staged tile g_s: the key of step e in keys[e], bit e of
// the result set when it is kept.
MASK_T walk_and_filter(inout KEY_T keys[STEPS]) {
    uint op = pc.runs;
    uint la = g_s.la;
    uint lb = g_s.lb;
    uint len = la + lb;
    uint id = gl_LocalInvocationIndex;
    uvec2 start = len == 0u ? uvec2(0u) : walk_start(la, lb, min(id * ITEMS, len));
    s_start_a[id] = start.x;
    s_start_d[id] = start.y;
    barrier();
    uvec2 end = id + 1u < WG_SIZE ? uvec2(s_start_a[id + 1u], s_start_d[id + 1u]) : uvec2(la, len);
    barrier();  // the starts are read before the array is written again
    // Consistent bounds even for unsorted input: start.y <= end.y (diagonals grow by ITEMS >= 1
    // per invocation and move by at most one), the A range within [0, la], B's within [0, lb].
    uint d0 = min(start.y, len);
    uint d1 = clamp(end.y, d0, len);
    uvec2 a = clamp_co_ranks(min(start.x, min(d0, la)), end.x, la, lb, uint64_t(d0), uint64_t(d1));
    uint ai = a.x;
    uint a_end = a.y;
    uint bi = la + (d0 - a.x);
    uint b_end = la + (d1 - a.y);
    bool keep_a = op != SET_AND;  // an element of A alone
    bool keep_b = op == SET_OR || op == SET_XOR;
    bool keep_pair = op == SET_AND || op == SET_OR;
    uint last = STAGE_CAPACITY - 1u;
    KEY_T ka = s_keys[min(ai, last)];
    KEY_T kb = s_keys[min(bi, last)];
    MASK_T kept = MASK_T(0);
    [[unroll]] for (uint e = 0u; e < STEPS; ++e) {
        bool has_a = ai < a_end;
        bool has_b = bi < b_end;
        bool step_a = has_a && (!has_b || ka <= kb);  // A's element, or a pair
        bool step_b = has_b && (!has_a || kb <= ka);  // B's element, or a pair
        bool pair = step_a && step_b;
        bool keep = pair ? keep_pair : (step_a ? keep_a : (step_b && keep_b));
        keys[e] = step_a ? ka : kb;
        kept |= keep ? (MASK_ONE << e) : MASK_T(0);
        ai += step_a ? 1u : 0u;
        bi += step_b ? 1u : 0u;
        if (step_a) {
            ka = s_keys[min(ai, last)];
        }
        if (step_b) {
            kb = s_keys[min(bi, last)];
        }
    }
    return kept;
}

// Stages and walks tile t (workgroup-uniform control flow).
MASK_T tile_kept(uint t, inout KEY_T keys[STEPS]) {
    g_s = tile_span(t);
    if (g_s.la + g_s.lb > 0u) {
        stage_tile(g_s);
    }
    return walk_and_filter(keys);
}

// Writes this invocation's kept keys (`prefix` kept keys of the workgroup before them, the
// workgroup's `total`) from output position `base` on, staged through shared memory.
void write_kept(KEY_T keys[STEPS], MASK_T kept, uint prefix, uint total, uint64_t base) {
    barrier();  // every invocation is done reading the staged keys
    [[unroll]] for (uint e = 0u; e < STEPS; ++e) {
        if ((kept & (MASK_ONE << e)) != MASK_T(0)) {
            s_keys[prefix] = keys[e];
            prefix += 1u;
        }
    }
    barrier();
    for (uint x = gl_LocalInvocationIndex; x < total; x += WG_SIZE) {
        store_key(pc.out_keys, base + uint64_t(x), raw_bits(s_keys[x]));
    }
}

#if SETOP_WRITE == 2
// The look-back fallback: this invocation's kept outputs of a silent tile, walked here.
uint lookback_fallback_thread_value(uint tile) {
    TileSpan own = g_s;
    KEY_T other_keys[STEPS];
    barrier();  // the staged keys may still be read
    MASK_T kept = tile_kept(tile, other_keys);
    barrier();
    g_s = own;
    return MASK_COUNT(kept);
}

#include "../common/lookback.glsl"
#endif

void main() {
#if SETOP_WRITE == 2
    uint ticket = 0u;
    if (gl_LocalInvocationIndex == 0u) {
        ticket = atomicAdd(U32AtomicRef(pc.aux_addr).v[0], 1u);
    }
    uint t = workgroup_broadcast_first(ticket);
#else
    uint t = linear_workgroup_id();
#endif
    if (t >= pc.max_tiles) {
        return;
    }
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
#elif SETOP_WRITE == 1
    uint total;
    uint prefix = workgroup_exclusive_scan(kept_count, total);
    uint64_t base = uint64_t(U32Ref(u32_addr(pc.aux_addr, t)).v[0]);
    write_kept(keys, kept, prefix, total, base);
    if (t == 0u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.aux2_addr).v[0] = U32Ref(u32_addr(pc.aux_addr, pc.max_tiles)).v[0];
    }
#else
    uint total;
    uint prefix = workgroup_exclusive_scan(kept_count, total);
    uint64_t status_addr = pc.aux_addr + 16ul;
    if (gl_LocalInvocationIndex == 0u) {
        lookback_publish(status_addr, t, t == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE, total);
    }
    uint before = 0u;
    if (t > 0u) {
        before = lookback_exclusive_prefix(status_addr, t);
        if (gl_LocalInvocationIndex == 0u) {
            lookback_publish(status_addr, t, LOOKBACK_INCLUSIVE, before + total);
        }
    }
    write_kept(keys, kept, prefix, total, uint64_t(before));
    if (t == pc.max_tiles - 1u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.aux2_addr).v[0] = before + total;
    }
#endif
}
