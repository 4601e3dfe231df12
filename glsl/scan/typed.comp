#version 460
// Scans of the sort's six key types with SUM, MIN or MAX: every scan but the sums of 32-bit
// integers, which the u32 kernels (scan_common.glsl) take. Three passes of one source, chosen by
// TYPED_PASS:
// - SCAN_TYPED_PASS_REDUCE: reduce-then-scan, pass 1: workgroup p combines the tiles of its part
//   into partials[p] (the identity past the end).
// - SCAN_TYPED_PASS_DOWNSWEEP: reduce-then-scan, pass 3 (and 2, over the partials): workgroup p
//   scans the tiles of its part in order, seeded with partials[p], or with the identity when
//   aux_addr is 0 (also the one-workgroup scan). Reading a tile and writing it back happen in
//   the same invocation, so in-place scans are safe.
// - The permutation TYPED_LOOKBACK is the single pass with decoupled look-back of
//   glsl/scan/lookback.comp instead, its status words carrying accumulator bits (the same
//   scratch layout, flags and fallback, common/lookback.glsl with this operation; 64-bit
//   elements take two status words per tile). A module of its own: it needs 64-bit atomics,
//   the other passes do not.
//
// Permutations: KEY_BITS 32 or 64; FLOAT64_SUM 1 for sums of f64 keys (the only typed pipeline
// that needs shaderFloat64, with TYPED_LOOKBACK too); TYPED_LOOKBACK 1 for the look-back.
// Specialization:
// VECS_PER_THREAD (constant_id 1: a tile is WG_SIZE * VECS_PER_THREAD * 4 elements, as in the
// u32 kernels), SPIN_LIMIT (constant_id 2), TYPED_CONFIG (constant_id 5: the operation
// REDUCE_OP_* in bits 0-3, the pass in bits 4-7), KEY_ORDER (constant_id 6: the key kind,
// glsl/common/vkalgo.glsl).
//
// Values are combined as accumulator bits, as the reduce does (glsl/reduce/reduce.comp): sums
// of integers as the raw bits (wrapping), sums of floats as float bits (in any association
// order, starting from +0.0, so no prefix is -0.0), minima and maxima as ordered bits (the
// sort's order: floats in IEEE-754 totalOrder), turned back into raw bits when stored. The
// identity is 0 for sums and maxima, all ones for minima. With SCAN_FLAG_ACCUMULATOR_BITS the
// input and output already are accumulator bits (the scan of the partials).
//
// Tile layout as in scan_common.glsl: subgroup s owns a contiguous run of
// gl_SubgroupSize * VECS_PER_THREAD vectors of 4 consecutive elements, lane l holds the vectors
// k * gl_SubgroupSize + l of that run, so every load and store of a subgroup touches one
// contiguous span; a lane scans its vector's 4 elements itself and the subgroup scans the
// vectors' totals (one subgroup scan per 4 elements). Subgroup scans of 32-bit values are the
// subgroup operations; of 64-bit values, steps of 32-bit shuffles (no extended subgroup types
// needed).
#if defined(FLOAT64_SUM) && FLOAT64_SUM
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif
#include "../common/vkalgo.glsl"
// SCAN_FLAG_* and SCAN_TYPED_PASS_* (generated from src/scan/shared_constants.rs).
#include "../generated/scan.glsl"
// REDUCE_OP_* (generated from src/reduce/shared_constants.rs).
#include "../generated/reduce.glsl"

#if KEY_BITS == 64
#define KEY_T uint64_t
#else
#define KEY_T uint
#endif
#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

layout(constant_id = 5) const uint TYPED_CONFIG = 0;
const uint SCAN_COMBINE = TYPED_CONFIG & 15u;
const uint TYPED_PASS = (TYPED_CONFIG >> 4u) & 15u;

// Must match src/scan/mod.rs (ScanPush), as in scan_common.glsl.
layout(push_constant) uniform ScanPush {
    uint64_t input_addr;     // KEY_T[count]
    uint64_t output_addr;    // KEY_T[count] (may equal input_addr but for the look-back)
    uint64_t aux_addr;       // partials (accumulator bits), look-back state, or 0
    uint64_t count_addr;     // 0: use `count`; else the address of a u32 count
    uint count;              // direct element count
    uint max_count;          // the plan's maximum (clamps an indirect count)
    uint inclusive;          // 1: inclusive scan, 0: exclusive
    uint tiles_per_partition;// reduce-then-scan: tiles handled by one workgroup
    uint num_partitions;     // reduce-then-scan: partials written by the reduce pass
    uint flags;              // SCAN_FLAG_* bits
} pc;

#if KEY_BITS == 64
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { KEY_T v[]; };
// Two of a vector's four elements: the vector accesses of full tiles at 16-byte aligned
// addresses.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer HalfVectorRef { u64vec2 v[]; };
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyRef { KEY_T v[]; };
#endif

#define ITEMS (VECS_PER_THREAD * 4u)
#define TILE_ELEMS (WG_SIZE * ITEMS)

const bool FLOAT_SUM = SCAN_COMBINE == REDUCE_OP_SUM && KEY_KIND == 2u;

bool g_accumulator_io;

KEY_T identity() {
    return SCAN_COMBINE == REDUCE_OP_MIN ? ~KEY_T(0) : KEY_T(0);
}

// A loaded element as accumulator bits.
KEY_T prepare(KEY_T raw) {
    return SCAN_COMBINE == REDUCE_OP_SUM || g_accumulator_io ? raw : ordered_bits(raw);
}

// The bits stored for an accumulator.
KEY_T finish(KEY_T acc) {
    return SCAN_COMBINE == REDUCE_OP_SUM || g_accumulator_io ? acc : raw_bits(acc);
}

// a before b.
KEY_T combine(KEY_T a, KEY_T b) {
    if (SCAN_COMBINE == REDUCE_OP_MIN) {
        return min(a, b);
    } else if (SCAN_COMBINE == REDUCE_OP_MAX) {
        return max(a, b);
    } else if (FLOAT_SUM) {
#if KEY_BITS == 32
        return floatBitsToUint(uintBitsToFloat(a) + uintBitsToFloat(b));
#elif defined(FLOAT64_SUM) && FLOAT64_SUM
        return doubleBitsToUint64(uint64BitsToDouble(a) + uint64BitsToDouble(b));
#else
        return a;  // unreachable: the plan takes the FLOAT64_SUM pipeline for f64 sums
#endif
    }
    return a + b;
}

// The value of lane `lane` (all lanes active).
KEY_T subgroup_read(KEY_T x, uint lane) {
#if KEY_BITS == 64
    return subgroup_shuffle_u64(x, lane);
#else
    return subgroupShuffle(x, lane);
#endif
}

// Inclusive scan of x over the subgroup (all lanes active). 32-bit values: the subgroup's
// scans (never a subgroup reduction by addition: docs/driver-bugs.md#nvidia-subgroup-add);
// 64-bit values: log2(subgroup size) steps of shuffles.
KEY_T subgroup_inclusive(KEY_T x) {
#if KEY_BITS == 32
    if (SCAN_COMBINE == REDUCE_OP_MIN) {
        return subgroupInclusiveMin(x);
    } else if (SCAN_COMBINE == REDUCE_OP_MAX) {
        return subgroupInclusiveMax(x);
    } else if (FLOAT_SUM) {
        return floatBitsToUint(subgroupInclusiveAdd(uintBitsToFloat(x)));
    }
    return subgroupInclusiveAdd(x);
#else
    uint lane = gl_SubgroupInvocationID;
    for (uint d = 1u; d < gl_SubgroupSize; d <<= 1u) {
        KEY_T before = subgroup_read(x, lane >= d ? lane - d : lane);
        if (lane >= d) {
            x = combine(before, x);
        }
    }
    return x;
#endif
}

// The combination of x over the subgroup, in every lane (all lanes active).
KEY_T subgroup_combine(KEY_T x) {
    return subgroup_read(subgroup_inclusive(x), gl_SubgroupSize - 1u);
}

// The exclusive scan matching `inclusive` = subgroup_inclusive(x) (all lanes active).
KEY_T subgroup_exclusive_of(KEY_T inclusive) {
    uint lane = gl_SubgroupInvocationID;
    KEY_T before = subgroup_read(inclusive, lane == 0u ? 0u : lane - 1u);
    return lane == 0u ? identity() : before;
}

KEY_T load_key(uint64_t base, uint i) {
    return KeyRef(base + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
}

void store_key(uint64_t base, uint i, KEY_T value) {
    KeyRef(base + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0] = value;
}

uint tile_count(uint n) {
    return n / TILE_ELEMS + (n % TILE_ELEMS != 0u ? 1u : 0u);
}

// Element i of this invocation (element i % 4 of its vector i / 4), relative to its tile's
// start.
uint element_in_tile(uint i) {
    uint vector = (gl_SubgroupID * VECS_PER_THREAD + i / 4u) * gl_SubgroupSize + gl_SubgroupInvocationID;
    return vector * 4u + i % 4u;
}

// This invocation's elements of the tile, as accumulator bits (the identity past the end).
KEY_T g_vals[ITEMS];

// Whether a tile moves as whole vectors: full, at a 16-byte aligned address (tiles are whole
// vectors long, so every tile of an aligned range is). Workgroup-uniform.
bool vector_tile(uint64_t base, uint valid) {
    return valid >= TILE_ELEMS && (base & 15ul) == 0ul;
}

// Vector k of this invocation in the tile (element_in_tile(4k) / 4).
uint vector_in_tile(uint k) {
    return (gl_SubgroupID * VECS_PER_THREAD + k) * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// The 4 elements of vector v of a vector tile at tile_addr, as accumulator bits.
void load_vector(uint64_t tile_addr, uint v, out KEY_T x0, out KEY_T x1, out KEY_T x2, out KEY_T x3) {
#if KEY_BITS == 64
    u64vec2 lo = HalfVectorRef(tile_addr).v[2u * v];
    u64vec2 hi = HalfVectorRef(tile_addr).v[2u * v + 1u];
    x0 = prepare(lo.x);
    x1 = prepare(lo.y);
    x2 = prepare(hi.x);
    x3 = prepare(hi.y);
#else
    uvec4 x = U32x4Ref(tile_addr).v[v];
    x0 = prepare(x.x);
    x1 = prepare(x.y);
    x2 = prepare(x.z);
    x3 = prepare(x.w);
#endif
}

void load_tile(uint64_t base, uint tile_start, uint valid) {
    if (vector_tile(base, valid)) {
        // One 16-byte access per 16 bytes, each subgroup instruction over a contiguous span
        // (scalar accesses of a lane's 4 consecutive elements stride the span 4 times).
        uint64_t tile_addr = base + uint64_t(tile_start) * uint64_t(KEY_BITS / 8);
        [[unroll]] for (uint k = 0u; k < VECS_PER_THREAD; ++k) {
            load_vector(tile_addr, vector_in_tile(k), g_vals[4u * k], g_vals[4u * k + 1u], g_vals[4u * k + 2u],
                        g_vals[4u * k + 3u]);
        }
        return;
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        uint e = element_in_tile(k);
        g_vals[k] = e < valid ? prepare(load_key(base, tile_start + e)) : identity();
    }
}

void store_tile(uint64_t base, uint tile_start, uint valid) {
    if (vector_tile(base, valid)) {
        uint64_t tile_addr = base + uint64_t(tile_start) * uint64_t(KEY_BITS / 8);
        [[unroll]] for (uint k = 0u; k < VECS_PER_THREAD; ++k) {
            uint v = vector_in_tile(k);
#if KEY_BITS == 64
            HalfVectorRef(tile_addr).v[2u * v] = u64vec2(finish(g_vals[4u * k]), finish(g_vals[4u * k + 1u]));
            HalfVectorRef(tile_addr).v[2u * v + 1u] =
                u64vec2(finish(g_vals[4u * k + 2u]), finish(g_vals[4u * k + 3u]));
#else
            U32x4Ref(tile_addr).v[v] = uvec4(finish(g_vals[4u * k]), finish(g_vals[4u * k + 1u]),
                                              finish(g_vals[4u * k + 2u]), finish(g_vals[4u * k + 3u]));
#endif
        }
        return;
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        uint e = element_in_tile(k);
        if (e < valid) {
            store_key(base, tile_start + e, finish(g_vals[k]));
        }
    }
}

// The combination of this invocation's elements of a tile read from memory (g_vals untouched).
KEY_T thread_combination_of_tile(uint64_t base, uint tile_start, uint valid) {
    KEY_T acc = identity();
    if (vector_tile(base, valid)) {
        uint64_t tile_addr = base + uint64_t(tile_start) * uint64_t(KEY_BITS / 8);
        [[unroll]] for (uint k = 0u; k < VECS_PER_THREAD; ++k) {
            KEY_T x0, x1, x2, x3;
            load_vector(tile_addr, vector_in_tile(k), x0, x1, x2, x3);
            acc = combine(acc, combine(combine(x0, x1), combine(x2, x3)));
        }
        return acc;
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        uint e = element_in_tile(k);
        if (e < valid) {
            acc = combine(acc, prepare(load_key(base, tile_start + e)));
        }
    }
    return acc;
}

// Scans this invocation's elements within its subgroup's run, starting from `carry` (the
// combination of everything before the run). Returns carry combined with the run's total.
// Subgroup-uniform control flow.
KEY_T scan_subgroup_run(bool inclusive, KEY_T carry) {
    [[unroll]] for (uint k = 0u; k < VECS_PER_THREAD; ++k) {
        uint i = 4u * k;
        KEY_T x0 = g_vals[i];
        KEY_T x1 = combine(x0, g_vals[i + 1u]);
        KEY_T x2 = combine(x1, g_vals[i + 2u]);
        KEY_T x3 = combine(x2, g_vals[i + 3u]);
        KEY_T lane_inclusive = subgroup_inclusive(x3);
        KEY_T before = combine(carry, subgroup_exclusive_of(lane_inclusive));
        if (inclusive) {
            g_vals[i] = combine(before, x0);
            g_vals[i + 1u] = combine(before, x1);
            g_vals[i + 2u] = combine(before, x2);
            g_vals[i + 3u] = combine(before, x3);
        } else {
            g_vals[i] = before;
            g_vals[i + 1u] = combine(before, x0);
            g_vals[i + 2u] = combine(before, x1);
            g_vals[i + 3u] = combine(before, x2);
        }
        carry = combine(carry, subgroup_read(lane_inclusive, gl_SubgroupSize - 1u));
    }
    return carry;
}

shared KEY_T s_subgroup_prefix[WG_SIZE];
shared KEY_T s_total;

// Exclusive scan over the subgroups of one value per subgroup (the same in all its lanes):
// returns the combination of the values of the subgroups before this one; `total` gets all.
// Workgroup-uniform control flow.
KEY_T workgroup_exclusive_over_subgroups(KEY_T subgroup_value, out KEY_T total) {
    if (subgroupElect()) {
        s_subgroup_prefix[gl_SubgroupID] = subgroup_value;
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        KEY_T carry = identity();
        for (uint base = 0u; base < gl_NumSubgroups; base += gl_SubgroupSize) {
            uint i = base + gl_SubgroupInvocationID;
            KEY_T x = i < gl_NumSubgroups ? s_subgroup_prefix[i] : identity();
            KEY_T inclusive = subgroup_inclusive(x);
            if (i < gl_NumSubgroups) {
                s_subgroup_prefix[i] = combine(carry, subgroup_exclusive_of(inclusive));
            }
            carry = combine(carry, subgroup_read(inclusive, gl_SubgroupSize - 1u));
        }
        if (subgroupElect()) {
            s_total = carry;
        }
    }
    barrier();
    KEY_T prefix = s_subgroup_prefix[gl_SubgroupID];
    total = s_total;
    barrier();  // the slots may be written again right after
    return prefix;
}

// The combination of x over the workgroup, in every invocation. Workgroup-uniform.
KEY_T workgroup_combine(KEY_T x) {
    KEY_T total;
    workgroup_exclusive_over_subgroups(subgroup_combine(x), total);
    return total;
}

// Applies `prefix` before every element of the tile held in g_vals.
void combine_into_tile(KEY_T prefix) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        g_vals[k] = combine(prefix, g_vals[k]);
    }
}

// Pass 1: partials[part] = the combination of the part's tiles (the identity past the end).
void reduce_part(uint n, uint part) {
    if (part >= pc.num_partitions) {
        return;
    }
    uint num_tiles = tile_count(n);
    uint first_tile = part * pc.tiles_per_partition;
    uint end_tile = min(first_tile + pc.tiles_per_partition, num_tiles);
    KEY_T acc = identity();
    for (uint t = first_tile; t < end_tile; ++t) {
        uint start = t * TILE_ELEMS;
        acc = combine(acc, thread_combination_of_tile(pc.input_addr, start, n - start));
    }
    KEY_T total = workgroup_combine(acc);
    if (gl_LocalInvocationIndex == 0u) {
        KeyRef(pc.aux_addr).v[part] = total;
    }
}

// Pass 3 (and 2, over the partials): the part's tiles scanned in order from its seed.
void scan_part(uint n, uint part) {
    uint num_tiles = tile_count(n);
    uint first_tile = part * pc.tiles_per_partition;
    if (first_tile >= num_tiles) {
        return;
    }
    uint end_tile = min(first_tile + pc.tiles_per_partition, num_tiles);
    KEY_T carry = pc.aux_addr != 0ul ? KeyRef(pc.aux_addr).v[part] : identity();
    bool inclusive = pc.inclusive != 0u;
    for (uint t = first_tile; t < end_tile; ++t) {
        uint start = t * TILE_ELEMS;
        uint valid = n - start;
        load_tile(pc.input_addr, start, valid);
        KEY_T run_total = scan_subgroup_run(inclusive, identity());
        KEY_T tile_total;
        KEY_T before = workgroup_exclusive_over_subgroups(run_total, tile_total);
        combine_into_tile(combine(carry, before));
        store_tile(pc.output_addr, start, valid);
        carry = combine(carry, tile_total);
    }
}

#if defined(TYPED_LOOKBACK) && TYPED_LOOKBACK
// ---- the look-back pass (glsl/scan/lookback.comp with this operation) ----

KEY_T lookback_fallback_thread_value(uint tile) {
    return thread_combination_of_tile(pc.input_addr, tile * TILE_ELEMS, TILE_ELEMS);
}

#define LOOKBACK_VALUE_T KEY_T
#define LOOKBACK_STATUS_WORDS (KEY_BITS / 32)
#define LOOKBACK_IDENTITY identity()
#define LOOKBACK_ACCUMULATE(acc, x) acc = combine(acc, x)
#define LOOKBACK_SUBGROUP_REDUCE(x) subgroup_combine(x)
#define LOOKBACK_WORKGROUP_REDUCE(x) workgroup_combine(x)
#define LOOKBACK_WORKGROUP_WINDOW
#include "../common/lookback.glsl"

#include "../common/last_workgroup.glsl"

// As finish_and_clean in glsl/scan/lookback.comp (LOOKBACK_STATUS_WORDS words per tile).
void finish_and_clean(uint tiles) {
    lookback_state_finish(pc.aux_addr, pc.aux_addr + 16ul, tiles * LOOKBACK_STATUS_WORDS);
}

// Tile t as in glsl/scan/lookback.comp: publish the tile's total, scan the tile, look back,
// store.
void lookback_scan(uint n) {
    uint num_tiles = tile_count(n);
    uint tile = lookback_tile(pc.aux_addr);
    if (tile >= num_tiles) {
        finish_and_clean(num_tiles);
        return;
    }
    uint64_t status_addr = pc.aux_addr + 16ul;
    uint start = tile * TILE_ELEMS;
    uint valid = n - start;
    load_tile(pc.input_addr, start, valid);
    KEY_T mine = identity();
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        mine = combine(mine, g_vals[k]);
    }
    KEY_T total;
    KEY_T subgroup_prefix = workgroup_exclusive_over_subgroups(subgroup_combine(mine), total);
    if (gl_LocalInvocationIndex == 0u) {
        lookback_publish(status_addr, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE,
                         total);
    }
    scan_subgroup_run(pc.inclusive != 0u, subgroup_prefix);
    KEY_T prefix = identity();
    if (tile > 0u) {
        prefix = (pc.flags & SCAN_FLAG_WORKGROUP_LOOKBACK) != 0u
            ? lookback_exclusive_prefix_workgroup(status_addr, tile)
            : lookback_exclusive_prefix(status_addr, tile);
        if (gl_LocalInvocationIndex == 0u) {
            lookback_publish(status_addr, tile, LOOKBACK_INCLUSIVE, combine(prefix, total));
        }
    }
    finish_and_clean(num_tiles);
    combine_into_tile(prefix);
    store_tile(pc.output_addr, start, valid);
}
#endif

void main() {
    g_accumulator_io = (pc.flags & SCAN_FLAG_ACCUMULATOR_BITS) != 0u;
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
#if defined(TYPED_LOOKBACK) && TYPED_LOOKBACK
    lookback_scan(n);
#else
    uint part = linear_workgroup_id();
    if (TYPED_PASS == SCAN_TYPED_PASS_REDUCE) {
        reduce_part(n, part);
    } else {
        scan_part(n, part);
    }
#endif
}
