#version 460
// Set operations on sorted runs (ascending) with std::set_* multiset semantics, by the merge
// path: the stable merge of A and B places every value's copies in A before its copies in B,
// so an output of the merge knows, from where the merge stands, how many copies of its value
// precede it in its own run and how many the other run holds:
// - emitting A[i] (value v) with the merge at B[j]: j = lower_bound_B(v); its rank among A's
//   copies is i - lower_bound_A(v), B's copies number upper_bound_B(v) - j;
// - emitting B[j] with the merge at A[i]: i = upper_bound_A(v); A's copies number
//   i - lower_bound_A(v), its rank among B's copies is j - lower_bound_B(v).
// A neighbour comparison settles most of these (0 when the neighbour differs); runs of equal
// keys take a galloping search in global memory. Kept: AND: A's copies of rank < count in B;
// OR: all of A and B's copies of rank >= count in A; ANDNOT: A's copies of rank >= count in B;
// XOR: both of the latter. With the merge's order this yields, per value, min(ca, cb),
// max(ca, cb), max(ca - cb, 0) and |ca - cb| copies, sorted.
//
// SETOP_WRITE 0: count the kept outputs of each tile into aux_addr[t] (workgroup 0 also
// clears aux_addr[max_tiles], so an exclusive scan of max_tiles + 1 entries ends with the
// total). SETOP_WRITE 1: aux_addr holds that scan; write the kept keys of tile t from
// aux_addr[t] on, and the total (aux_addr[max_tiles]) to aux2_addr.
// SETOP_WRITE 2: one pass: tiles numbered by an atomic counter (aux_addr), each finds its
// output offset by decoupled look-back over the tiles before it (status words after the
// counter, all zero at the start); a waiter that spins SPIN_LIMIT times on a silent tile merges
// and counts that tile itself (glsl/common/lookback.glsl), so no schedule can hang it. The
// last tile writes the total to aux2_addr.
#include "merge_tile.glsl"
#include "../common/workgroup_scan.glsl"

#ifndef SETOP_WRITE
#error "SETOP_WRITE must be defined by the permutation table"
#endif

uint g_m;
uint g_n;
TileSpan g_s;

KEY_T a_at(uint i) {
    return i - g_s.a0 < g_s.la ? s_keys[i - g_s.a0] : load_ordered(pc.a_keys, uint64_t(i));
}

KEY_T b_at(uint j) {
    return j - g_s.b0 < g_s.lb ? s_keys[g_s.la + (j - g_s.b0)] : load_ordered(pc.b_keys, uint64_t(j));
}

// The run of v's copies is found by galloping (exponential search, then a binary search in the
// last step's interval) from the known copy outwards, so its cost grows with the log of the
// run's length, not of the input's: a value present once in each input (unique sets) costs one
// neighbour comparison. (Bentley & Yao's unbounded search, as in timsort's galloping merge.)

// The first copy of v in A, given A[last] == v.
uint first_copy_a(uint last, KEY_T v) {
    uint known = last;
    uint step = 1u;
    while (step <= known && a_at(known - step) == v) {
        known -= step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    uint lo = step <= known ? known - step + 1u : 0u;
    return search_global(pc.a_keys, lo, known, v, false);
}

// The first copy of v in B, given B[last] == v.
uint first_copy_b(uint last, KEY_T v) {
    uint known = last;
    uint step = 1u;
    while (step <= known && b_at(known - step) == v) {
        known -= step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    uint lo = step <= known ? known - step + 1u : 0u;
    return search_global(pc.b_keys, lo, known, v, false);
}

// One past the last copy of v in B, given B[first] == v.
uint end_copies_b(uint first, KEY_T v) {
    uint known = first;
    uint step = 1u;
    while (step < g_n - known && b_at(known + step) == v) {
        known += step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    uint hi = step < g_n - known ? known + step : g_n;
    return search_global(pc.b_keys, known + 1u, hi, v, true);
}

// Copies of v in A before position i (A[i - 1] is v's last copy there, or not v).
uint copies_before_a(uint i, KEY_T v) {
    if (i == 0u || a_at(i - 1u) != v) {
        return 0u;
    }
    return i - first_copy_a(i - 1u, v);
}

uint copies_before_b(uint j, KEY_T v) {
    if (j == 0u || b_at(j - 1u) != v) {
        return 0u;
    }
    return j - first_copy_b(j - 1u, v);
}

// Copies of v in B from position j on (B[j] is v's first copy there, or not v).
uint copies_from_b(uint j, KEY_T v) {
    if (j >= g_n || b_at(j) != v) {
        return 0u;
    }
    return end_copies_b(j, v) - j;
}

// Merges the staged tile g_s: this invocation's ITEMS outputs in `keys`, bit e of the result
// set when output e is kept.
uint merge_and_filter(inout KEY_T keys[ITEMS]) {
    uint op = pc.runs;
    uint len = g_s.la + g_s.lb;
    uint first = gl_LocalInvocationIndex * ITEMS;
    uint d = min(first, len);
    uint ai = co_rank_shared(g_s.la, g_s.lb, d);
    uint bi = g_s.la + d - ai;
    uint kept = 0u;
    for (uint e = 0u; e < ITEMS; ++e) {
        if (first + e >= len) {
            keys[e] = KEY_T(0);
            continue;
        }
        KEY_T ka = s_keys[min(ai, TILE - 1u)];
        KEY_T kb = s_keys[min(bi, TILE - 1u)];
        bool take_a = ai < g_s.la && (bi >= len || ka <= kb);
        uint i = g_s.a0 + ai;              // A's position in its run
        uint j = g_s.b0 + (bi - g_s.la);   // B's position in its run
        bool keep;
        if (take_a) {
            keys[e] = ka;
            if (op == SET_OR) {
                keep = true;
            } else {
                uint rank = copies_before_a(i, ka);
                uint in_b = copies_from_b(j, ka);
                keep = op == SET_AND ? rank < in_b : rank >= in_b;
            }
            ai += 1u;
        } else {
            keys[e] = kb;
            if (op == SET_AND || op == SET_ANDNOT) {
                keep = false;
            } else {
                uint in_a = copies_before_a(i, kb);
                uint rank = copies_before_b(j, kb);
                keep = rank >= in_a;
            }
            bi += 1u;
        }
        if (keep) {
            kept |= 1u << e;
        }
    }
    return kept;
}

// Stages and merges tile t (workgroup-uniform control flow).
uint tile_kept(uint t, inout KEY_T keys[ITEMS]) {
    g_s = tile_span(t);
    if (g_s.la + g_s.lb > 0u) {
        stage_tile(g_s);
    }
    return merge_and_filter(keys);
}

// Writes this invocation's kept keys (`prefix` kept keys of the workgroup before them, the
// workgroup's `total`) from output position `base` on, staged through shared memory.
void write_kept(KEY_T keys[ITEMS], uint kept, uint prefix, uint total, uint64_t base) {
    barrier();  // every invocation is done reading the staged keys
    for (uint e = 0u; e < ITEMS; ++e) {
        if ((kept & (1u << e)) != 0u) {
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
// The look-back fallback: this invocation's kept outputs of a silent tile, merged here.
uint lookback_fallback_thread_value(uint tile) {
    TileSpan own = g_s;
    KEY_T other_keys[ITEMS];
    barrier();  // the staged keys may still be read
    uint kept = tile_kept(tile, other_keys);
    barrier();
    g_s = own;
    return bitCount(kept);
}

#include "../common/lookback.glsl"
#endif

void main() {
    g_m = count_a();
    g_n = count_b();
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
    KEY_T keys[ITEMS];
    uint kept = tile_kept(t, keys);
    uint kept_count = bitCount(kept);
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
