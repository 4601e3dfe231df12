// Merge path: declarations shared by the merge, set-operation, block-sort and partition
// kernels (src/merge/).
//
// Permutation defines: KEY_BITS (32 or 64), VALUE_WORDS (0: keys only, 1: 4-byte values,
// 2: 8-byte values; 0 where undefined). The key kind (unsigned, signed, float) and the order
// are a specialization constant (KEY_ORDER, id 6), as in the radix sort: keys are compared
// through their order-preserving bits (glsl/common/vkalgo.glsl: floats in IEEE-754
// totalOrder, all bits complemented for a descending order), so every comparison below is an
// unsigned integer comparison and a merge in either order is an ascending merge of ordered bits.
//
// Co-rank (merge path): the stable merge of A and B (equal keys: A's first) places, among its
// first d outputs, exactly i elements of A and d - i of B, where i is the number of positions
// m in [max(0, d - |B|), min(d, |A|)) with A[m] <= B[d - 1 - m] (the predicate is monotone in m).
// A binary search finds it (Green, McColl & Bader, "GPU merge path", 2012; Odeh et al., "Merge
// path - parallel merging made simple", 2012; the CUDA listing of Hwu, Kirk & El Hajj, PMPP
// chapter 12, returns inside its loop and compares B[j-1] > A[i] where stability needs >=).
//
// Addressing: every position in a run is a u32 (runs hold at most 2^32 - 1 elements); output
// positions of a two-run merge reach 2^33 - 2, so they are 64-bit. Buffers are only ever
// indexed through a reference made at a 64-bit byte address (element 0 or small offsets).
#ifndef VKALGO_MERGE_COMMON_GLSL
#define VKALGO_MERGE_COMMON_GLSL

#include "../common/vkalgo.glsl"
// MODE_* and SET_* (generated from src/merge/shared_constants.rs).
#include "../generated/merge.glsl"

// KEY_T, VALUE_T, their sizes and references (KEY_BITS, VALUE_WORDS).
#include "../common/key_value.glsl"

// Must match src/merge/kernels.rs (MergePush).
layout(push_constant) uniform MergePush {
    uint64_t a_keys;        // run A (segmented modes: the whole input array)
    uint64_t b_keys;        // run B (segmented modes: the whole input array)
    uint64_t out_keys;      // output keys
    uint64_t a_values;      // 0 without values
    uint64_t b_values;
    uint64_t out_values;
    uint64_t tiles_addr;    // tile table (8 u32 per tile); 0: each workgroup partitions itself
    uint64_t a_count_addr;  // 0: use a_count; else the address of a u32 count
    uint64_t b_count_addr;  // 0: use b_count
    uint64_t aux_addr;      // mode-specific: flags, per-tile counts, run offsets
    uint64_t aux2_addr;     // mode-specific: tile starts of the pairs, the output count
    uint a_count;           // direct count of A (segmented modes: of the whole array)
    uint b_count;           // direct count of B
    uint a_max;             // the plan's maxima (clamp indirect counts)
    uint b_max;
    uint mode;              // MODE_*
    uint width;             // MODE_UNIFORM: run width; MODE_OFFSETS: runs per half pair
    uint runs;              // MODE_OFFSETS: number of runs; set operations: the SET_* op
    uint max_tiles;         // tiles of the plan's maxima (entries of the tile table)
    uint lanes;             // partition, two-run modes: invocations per tile boundary
    uint reserved;          // padding to 8-byte alignment (the Rust struct's size)
} pc;

// Tile-table modes of the partition kernel (generated): MODE_TWO, two runs in their own buffers;
// MODE_UNIFORM, one array of runs of `width` elements, merged in pairs; MODE_OFFSETS, one array
// of `runs` runs given by u32 offsets, merged in pairs; MODE_COUNT_TILES, MODE_OFFSETS's first
// step (tiles per pair); MODE_TWO_BALANCED, MODE_TWO with tile bounds on the balanced path (set
// operations). SET_AND, SET_OR, SET_ANDNOT, SET_XOR: src/core/set_op.rs SetOp.

// Key order (specialization constant 6, KEY_ORDER) and the order transforms ordered_bits /
// raw_bits, as in the radix sort (glsl/common/vkalgo.glsl, key order).
#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)

KEY_T load_ordered(uint64_t base, uint64_t i) {
    return ordered_bits(load_key(base, i));
}

uint count_a() {
    return load_count(pc.a_count_addr, pc.a_count, pc.a_max);
}

uint count_b() {
    return load_count(pc.b_count_addr, pc.b_count, pc.b_max);
}

// Whether position i of diagonal `diag` lies at or past the co-rank (the merge-path predicate
// fails: A[i] > B[diag - 1 - i]).
bool past_co_rank(uint64_t a_base, uint64_t b_base, uint64_t diag, uint i) {
    return load_ordered(a_base, uint64_t(i)) > load_ordered(b_base, diag - 1ul - uint64_t(i));
}

// co_rank_global with the search kept within [lo, hi] (a range known to hold the co-rank,
// such as the co-ranks of two diagonals around this one; for unsorted input the result is
// unspecified but within the diagonal's bounds).
uint co_rank_global_within(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t diag,
                           uint lo_bound, uint hi_bound) {
    uint hi = uint(min(diag, uint64_t(la)));
    uint lo = min(max(diag > uint64_t(lb) ? uint(diag - uint64_t(lb)) : 0u, lo_bound), hi);
    hi = max(min(hi, hi_bound), lo);
    while (lo < hi) {
        uint mid = lo + ((hi - lo) >> 1);
        if (past_co_rank(a_base, b_base, diag, mid)) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

// Co-rank in global memory: A elements among the first `diag` outputs of the stable merge of
// the runs at byte addresses a_base (la elements) and b_base (lb elements); diag <= la + lb.
// At most 33 probes.
uint co_rank_global(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t diag) {
    return co_rank_global_within(a_base, la, b_base, lb, diag, 0u, 0xFFFFFFFFu);
}

// co_rank_global_within started from `guess` (a position the co-rank is likely near):
// galloping away from the guess in doubling steps until a probe lands on the far side of the
// co-rank, then a binary search of the last step (Bentley & Yao's unbounded search), so a
// co-rank d positions from the guess takes about 2 log2(d) + 1 probes instead of the log2 of
// the whole interval; any guess takes at most about twice the binary search's probes.
uint co_rank_global_from(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t diag,
                         uint lo_bound, uint hi_bound, uint guess) {
    uint hi = uint(min(diag, uint64_t(la)));
    uint lo = min(max(diag > uint64_t(lb) ? uint(diag - uint64_t(lb)) : 0u, lo_bound), hi);
    hi = max(min(hi, hi_bound), lo);
    if (lo < hi) {
        uint g = clamp(guess, lo, hi - 1u);
        if (past_co_rank(a_base, b_base, diag, g)) {
            hi = g;  // the co-rank is at or below g: gallop down
            for (uint step = 1u; step <= hi - lo; step = step < 0x40000000u ? step * 2u : step) {
                uint p = hi - step;
                if (past_co_rank(a_base, b_base, diag, p)) {
                    hi = p;
                } else {
                    lo = p + 1u;
                    break;
                }
            }
        } else {
            lo = g + 1u;  // above g: gallop up
            for (uint step = 1u; lo < hi && step <= hi - lo; step = step < 0x40000000u ? step * 2u : step) {
                uint p = lo + step - 1u;
                if (past_co_rank(a_base, b_base, diag, p)) {
                    hi = p;
                    break;
                } else {
                    lo = p + 1u;
                }
            }
        }
    }
    return co_rank_global_within(a_base, la, b_base, lb, diag, lo, hi);
}

// The co-rank of co_rank_global, found by a cluster of `lanes` invocations of one subgroup
// (lanes a power of two dividing the subgroup size, up to the whole subgroup; the cluster's
// invocations are subgroup lanes base .. base + lanes - 1 with base a multiple of lanes, and
// pass the same arguments; clusters may pass different ones). Each round every lane of a
// cluster probes one position of its interval, and the cluster's first probe where the
// merge-path predicate fails shrinks the interval about (lanes + 1)-fold (6 rounds for 2^26
// positions and 32 lanes, where the binary search takes 26 dependent probes) at the cost of
// two loads per lane and round. With 4 lanes or more the first round probes around the
// proportional guess diag * la / (la + lb) instead, at offsets growing geometrically (0, +-1,
// +-2^s, +-2^2s, ..., s = 32 / lanes): runs drawn from similar distributions leave the co-rank
// near the guess, so that round brackets it within a few positions and the search ends a few
// rounds later (an interpolation search's first step, kept to one round so that any input
// costs at most one round more). Unsorted input still shrinks the interval every round. Call
// in subgroup-uniform control flow; every invocation gets its cluster's result.
uint cluster_co_rank(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t diag, uint lanes) {
    uint lo = diag > uint64_t(lb) ? uint(diag - uint64_t(lb)) : 0u;
    uint hi = uint(min(diag, uint64_t(la)));
    uint lane = gl_SubgroupInvocationID & (lanes - 1u);
    uint base = gl_SubgroupInvocationID - lane;
    // The cluster's bits of a ballot (up to 128 lanes).
    uvec4 cluster = uvec4(0u);
    for (uint w = 0u; w < 4u; ++w) {
        int from = clamp(int(base) - int(32u * w), 0, 32);
        int to = clamp(int(base + lanes) - int(32u * w), 0, 32);
        uint width = uint(max(to - from, 0));
        cluster[w] = (width >= 32u ? 0xFFFFFFFFu : (1u << width) - 1u) << uint(from);
    }
    // The guided first round's probe of this lane: the guess moved by 2^shift positions down
    // (lanes below lanes / 2) or up (above it), or not at all (lane lanes / 2). The guess in
    // integers: A's share of the runs in 31 fractional bits, times diag < 2^33.
    uint half_lanes = lanes / 2u;
    uint steps = lane > half_lanes ? lane - half_lanes : half_lanes - lane;
    uint move = steps == 0u ? 0u : 1u << min(32u / lanes * (steps - 1u), 31u);
    uint64_t share = (uint64_t(la) << 31) / max(uint64_t(la) + uint64_t(lb), 1ul);
    uint64_t guess = (diag * share) >> 31;
    // At most ceil(32 / log2(lanes + 1)) + 2 rounds; 35 bound every cluster size.
    for (uint round = 0u; round < 35u && subgroupBallot(lo < hi) != uvec4(0u); ++round) {
        bool searching = lo < hi;
        uint n = hi - lo;
        bool dense = n <= lanes;
        bool guided = round == 0u && lanes >= 4u && !dense;
        uint m = dense ? lo + lane : lo + uint((uint64_t(lane + 1u) * uint64_t(n)) / uint64_t(lanes + 1u));
        if (guided) {
            uint g = uint(min(max(guess, uint64_t(lo)), uint64_t(hi - 1u)));
            m = lane < half_lanes ? g - min(move, g - lo) : g + min(move, hi - 1u - g);
        }
        bool fails = false;
        if (searching && (!dense || lane < n)) {
            fails = past_co_rank(a_base, b_base, diag, m);
        }
        uvec4 failing = subgroupBallot(fails) & cluster;
        int f = failing == uvec4(0u) ? -1 : int(subgroupBallotFindLSB(failing) - base);
        uint first_fail = subgroupShuffle(m, base + uint(max(f, 0)));
        uint before_fail = subgroupShuffle(m, base + uint(max(f - 1, 0)));
        uint last_probe = subgroupShuffle(m, base + lanes - 1u);
        if (searching) {
            if (f < 0) {
                // Every probe holds: the co-rank lies past the last probe.
                lo = dense ? hi : (guided ? last_probe : lo + uint((uint64_t(lanes) * uint64_t(n)) / uint64_t(lanes + 1u))) + 1u;
            } else {
                lo = f == 0 ? lo : before_fail + 1u;
                hi = first_fail;
            }
        }
    }
    return lo;
}

// The co-ranks of diagonals k0 and k1, found by subgroups 0 and 1 side by side (each one
// cluster_co_rank over the whole subgroup; one after the other where the workgroup has a single
// subgroup), for every invocation. Workgroup-uniform control flow.
shared uint s_two_co_ranks[2];
uvec2 workgroup_two_co_ranks(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t k0, uint64_t k1) {
    if (gl_NumSubgroups >= 2u) {
        if (gl_SubgroupID < 2u) {
            uint c = cluster_co_rank(a_base, la, b_base, lb, gl_SubgroupID == 0u ? k0 : k1, gl_SubgroupSize);
            if (subgroupElect()) {
                s_two_co_ranks[gl_SubgroupID] = c;
            }
        }
    } else {
        uint c0 = cluster_co_rank(a_base, la, b_base, lb, k0, gl_SubgroupSize);
        uint c1 = cluster_co_rank(a_base, la, b_base, lb, k1, gl_SubgroupSize);
        if (subgroupElect()) {
            s_two_co_ranks[0] = c0;
            s_two_co_ranks[1] = c1;
        }
    }
    barrier();
    uvec2 c = uvec2(s_two_co_ranks[0], s_two_co_ranks[1]);
    barrier();  // read before a next call writes them
    return c;
}

// First position in [lo, hi) of the run at byte address `base` whose ordered key is >= key
// (or > key when `upper`); hi when none. At most 33 probes.
uint search_global(uint64_t base, uint lo, uint hi, KEY_T key, bool upper) {
    while (lo < hi) {
        uint mid = lo + ((hi - lo) >> 1);
        KEY_T k = load_ordered(base, uint64_t(mid));
        if (k < key || (upper && k == key)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Galloping over a run of equal keys (Bentley & Yao's unbounded search, as in timsort's
// galloping merge): from a known copy of v, doubling steps, then a binary search in the last
// step's interval, so the cost grows with the log of the run's length (one probe for a value
// present once).

// The first copy of v in the run at byte address `base`, given run[known] == v.
uint gallop_first_global(uint64_t base, uint known, KEY_T v) {
    uint step = 1u;
    while (step <= known && load_ordered(base, uint64_t(known - step)) == v) {
        known -= step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    uint lo = step <= known ? known - step + 1u : 0u;
    return search_global(base, lo, known, v, false);
}

// One past the last copy of v in the run at `base` (len elements), given run[known] == v.
uint gallop_end_global(uint64_t base, uint len, uint known, KEY_T v) {
    uint step = 1u;
    while (step < len - known && load_ordered(base, uint64_t(known + step)) == v) {
        known += step;
        step = step < 0x80000000u ? step * 2u : step;
    }
    uint hi = step < len - known ? known + step : len;
    return search_global(base, known + 1u, hi, v, true);
}

// The balanced path (ModernGPU's set operations, Baxter 2013): the set operations walk A and B
// as std::set_* does, pairing the r-th copy of a value in A with its r-th copy in B, so a pair
// step consumes one element of each. The stable merge path instead takes all of a value's
// copies in A before those in B. Given that the merge path's point (i, j) has taken p = i - fa
// of the value's ca copies in A (first at fa) and q = j - fb of its cb copies in B, the walk's
// point after the same x = p + q of them takes the pairs first, then the surplus; a point
// that would split a pair takes its B half too, so it consumes x or x + 1 of them (tiles and
// invocations then hold one element more or less than their share). Returns the copies taken
// from A and from B.
uvec2 balanced_take(uint64_t x, uint ca, uint cb) {
    uint pairs = min(ca, cb);
    if (x <= uint64_t(pairs) * 2ul) {
        uint t = uint((x + 1ul) >> 1);
        return uvec2(t, t);
    }
    return ca >= cb ? uvec2(uint(x - uint64_t(cb)), cb) : uvec2(ca, uint(x - uint64_t(ca)));
}

// The balanced-path point of diagonal k of the runs at a_base (la elements) and b_base (lb),
// given the merge path's co-rank i there: returns (i', e): i' elements of A among the first
// k + e elements of the walk, e = 0 or 1.
uvec2 balanced_point_global(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint i, uint64_t k) {
    uint j = uint(k - uint64_t(i));
    KEY_T ka = i < la ? load_ordered(a_base, uint64_t(i)) : KEY_T(0);
    KEY_T kb = j < lb ? load_ordered(b_base, uint64_t(j)) : KEY_T(0);
    uint fa;
    uint ca;
    uint fb;
    uint cb;
    if (i < la && (j >= lb || ka <= kb)) {
        // The walk's next element is A[i] (value v): no copy of v in B is taken yet.
        if (i == 0u || load_ordered(a_base, uint64_t(i - 1u)) != ka) {
            return uvec2(i, 0u);  // v's block starts here
        }
        fa = gallop_first_global(a_base, i - 1u, ka);
        ca = gallop_end_global(a_base, la, i, ka) - fa;
        fb = j;
        cb = j < lb && kb == ka ? gallop_end_global(b_base, lb, j, ka) - j : 0u;
    } else if (j < lb) {
        // The next element is B[j] (value v): every copy of v in A is taken.
        if (i == 0u || load_ordered(a_base, uint64_t(i - 1u)) != kb) {
            return uvec2(i, 0u);  // v is not in A: the walk takes B's copies alone
        }
        fa = gallop_first_global(a_base, i - 1u, kb);
        ca = i - fa;
        fb = j > 0u && load_ordered(b_base, uint64_t(j - 1u)) == kb ? gallop_first_global(b_base, j - 1u, kb) : j;
        cb = gallop_end_global(b_base, lb, j, kb) - fb;
    } else {
        return uvec2(i, 0u);  // the end
    }
    uvec2 take = balanced_take(uint64_t(i - fa) + uint64_t(j - fb), ca, cb);
    uint64_t k2 = uint64_t(fa + take.x) + uint64_t(fb + take.y);
    // Sorted input gives k2 = k or k + 1; anything else (unsorted input) keeps the merge path.
    return k2 == k || k2 == k + 1ul ? uvec2(fa + take.x, uint(k2 - k)) : uvec2(i, 0u);
}

// One tile of a merge: A[a0, a0 + la) and B[b0, b0 + lb) (positions in their runs) merge into
// outputs [out0, out0 + la + lb).
struct TileSpan {
    uint a0;
    uint la;
    uint b0;
    uint lb;
    uint64_t out0;
};

// The tile table entry of tile t (written by partition.comp: a0, a1, b0, b1, out0 low, out0
// high, 2 reserved). An entry is clamped on reading so that a tile never reaches outside its
// runs, whatever the input (unsorted input gives unspecified output, never a stray access).
TileSpan read_tile(uint t) {
    U32Ref e = U32Ref(pc.tiles_addr + uint64_t(t) * 32ul);
    TileSpan s;
    s.a0 = e.v[0];
    s.la = e.v[1] - e.v[0];
    s.b0 = e.v[2];
    s.lb = e.v[3] - e.v[2];
    s.out0 = uint64_t(e.v[4]) | (uint64_t(e.v[5]) << 32);
    return s;
}

void write_tile(uint t, uint a0, uint a1, uint b0, uint b1, uint64_t out0) {
    U32Ref e = U32Ref(pc.tiles_addr + uint64_t(t) * 32ul);
    e.v[0] = a0;
    e.v[1] = a1;
    e.v[2] = b0;
    e.v[3] = b1;
    e.v[4] = uint(out0);
    e.v[5] = uint(out0 >> 32);
    e.v[6] = 0u;
    e.v[7] = 0u;
}

// Clamps the co-ranks i0 (of output k0) and i1 (of output k1) of the merge of runs of la and
// lb elements so that they are consistent even for unsorted input: returns (i0, i1) with
// 0 <= i1 - i0 <= k1 - k0, i1 <= la and k1 - i1 <= lb (i0 comes from a search bounded by
// max(0, k0 - lb) and min(k0, la), so it needs nothing). Sorted input is left as it is.
uvec2 clamp_co_ranks(uint i0, uint i1, uint la, uint lb, uint64_t k0, uint64_t k1) {
    uint len = uint(k1 - k0);
    uint b0 = uint(k0 - uint64_t(i0));
    uint lo_take = len > lb - b0 ? len - (lb - b0) : 0u;
    uint hi_take = min(len, la - i0);
    uint take = i1 >= i0 ? i1 - i0 : 0u;
    take = clamp(take, lo_take, hi_take);
    return uvec2(i0, i0 + take);
}

// Co-ranks of the output range [k0, k1) of the merge of A (la elements at a_base) and B (lb at
// b_base), consistent even for unsorted input (see clamp_co_ranks).
uvec2 tile_co_ranks(uint64_t a_base, uint la, uint64_t b_base, uint lb, uint64_t k0, uint64_t k1) {
    uint i0 = co_rank_global(a_base, la, b_base, lb, k0);
    uint i1 = co_rank_global(a_base, la, b_base, lb, k1);
    return clamp_co_ranks(i0, i1, la, lb, k0, k1);
}

#endif
