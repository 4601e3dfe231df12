#version 460
// Scans of the sort's six key types with SUM, MIN or MAX: every scan but the sums of 32-bit
// integers, which the u32 kernels (scan_common.glsl) take. Two passes of one source, chosen by
// TYPED_PASS: the reduce-then-scan path's reduce (workgroup p combines the tiles of its part into
// partials[p]) and its downsweep (workgroup p scans the tiles of its part in order, seeded with
// partials[p], or with the identity when aux_addr is 0: the one-workgroup scan and the scan of
// the partials). No workgroup waits for another. Reading a tile and writing it back happen in
// the same invocation, so in-place scans are safe.
//
// Permutations: KEY_BITS 32 or 64; FLOAT64_SUM 1 for sums of f64 keys (the only typed pipeline
// that needs shaderFloat64). Specialization: VECS_PER_THREAD (constant_id 1: a tile is
// WG_SIZE * VECS_PER_THREAD * 4 elements, as in the u32 kernels), TYPED_PASS (constant_id 2,
// SPIN_LIMIT elsewhere: SCAN_TYPED_PASS_*), SCAN_COMBINE (constant_id 5: REDUCE_OP_*),
// KEY_ORDER (constant_id 6: the key kind, glsl/common/vkalgo.glsl).
//
// Values are combined as accumulator bits, as the reduce does (glsl/reduce/reduce.comp): sums
// of integers as the raw bits (wrapping), sums of floats as float bits (in any association
// order, starting from +0.0, so no prefix is -0.0), minima and maxima as ordered bits (the
// sort's order: floats in IEEE-754 totalOrder), turned back into raw bits when stored. The
// identity is 0 for sums and maxima, all ones for minima. With SCAN_FLAG_ACCUMULATOR_BITS the
// input and output already are accumulator bits (the scan of the partials).
//
// Each invocation owns VECS_PER_THREAD * 4 consecutive elements of a tile and scans them in
// registers; the invocations' totals are scanned in shared memory, so no subgroup operation
// touches a 64-bit value (no extended subgroup types needed).
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

layout(constant_id = 5) const uint SCAN_COMBINE = 0;
// constant_id 2 (SPIN_LIMIT in vkalgo.glsl; no typed kernel spins) selects the pass.
#define TYPED_PASS SPIN_LIMIT

// Must match src/scan/mod.rs (ScanPush), as in scan_common.glsl.
layout(push_constant) uniform ScanPush {
    uint64_t input_addr;     // KEY_T[count]
    uint64_t output_addr;    // KEY_T[count] (may equal input_addr)
    uint64_t aux_addr;       // partials (accumulator bits), or 0
    uint64_t count_addr;     // 0: use `count`; else the address of a u32 count
    uint count;              // direct element count
    uint max_count;          // the plan's maximum (clamps an indirect count)
    uint inclusive;          // 1: inclusive scan, 0: exclusive
    uint tiles_per_partition;// tiles handled by one workgroup
    uint num_partitions;     // partials written by the reduce pass
    uint flags;              // SCAN_FLAG_ACCUMULATOR_BITS
} pc;

#if KEY_BITS == 64
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { KEY_T v[]; };
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

KEY_T load_key(uint64_t base, uint i) {
    return KeyRef(base + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
}

void store_key(uint64_t base, uint i, KEY_T value) {
    KeyRef(base + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0] = value;
}

uint tile_count(uint n) {
    return n / TILE_ELEMS + (n % TILE_ELEMS != 0u ? 1u : 0u);
}

// Two halves: each step of the scan reads one and writes the other.
shared KEY_T s_scan[2u * gl_WorkGroupSize.x];

// Exclusive scan of one value per invocation over the workgroup (Hillis & Steele, in shared
// memory); `total` gets the combination of all. Workgroup-uniform control flow.
KEY_T workgroup_exclusive_scan(KEY_T x, out KEY_T total) {
    uint lid = gl_LocalInvocationIndex;
    uint src = 0u;
    s_scan[lid] = x;
    barrier();
    for (uint d = 1u; d < WG_SIZE; d <<= 1u) {
        KEY_T v = s_scan[src * WG_SIZE + lid];
        if (lid >= d) {
            v = combine(s_scan[src * WG_SIZE + lid - d], v);
        }
        src ^= 1u;
        s_scan[src * WG_SIZE + lid] = v;
        barrier();
    }
    KEY_T before = lid == 0u ? identity() : s_scan[src * WG_SIZE + lid - 1u];
    total = s_scan[src * WG_SIZE + WG_SIZE - 1u];
    barrier();  // the slots may be written again right after
    return before;
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
        uint left = n - start;  // t < num_tiles: start < n
        for (uint r = 0u; r < ITEMS; ++r) {
            uint offset = r * WG_SIZE + gl_LocalInvocationIndex;  // coalesced
            if (offset < left) {
                acc = combine(acc, prepare(load_key(pc.input_addr, start + offset)));
            }
        }
    }
    KEY_T total;
    workgroup_exclusive_scan(acc, total);
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
    uint mine = gl_LocalInvocationIndex * ITEMS;
    for (uint t = first_tile; t < end_tile; ++t) {
        uint start = t * TILE_ELEMS;
        uint left = n - start;
        KEY_T run[ITEMS];
        KEY_T acc = identity();
        for (uint k = 0u; k < ITEMS; ++k) {
            uint e = mine + k;
            acc = combine(acc, e < left ? prepare(load_key(pc.input_addr, start + e)) : identity());
            run[k] = acc;
        }
        KEY_T tile_total;
        KEY_T before = combine(carry, workgroup_exclusive_scan(acc, tile_total));
        for (uint k = 0u; k < ITEMS; ++k) {
            uint e = mine + k;
            if (e < left) {
                KEY_T local = inclusive ? run[k] : (k == 0u ? identity() : run[k - 1u]);
                store_key(pc.output_addr, start + e, finish(combine(before, local)));
            }
        }
        carry = combine(carry, tile_total);
    }
}

void main() {
    g_accumulator_io = (pc.flags & SCAN_FLAG_ACCUMULATOR_BITS) != 0u;
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint part = linear_workgroup_id();
    if (TYPED_PASS == SCAN_TYPED_PASS_REDUCE) {
        reduce_part(n, part);
    } else {
        scan_part(n, part);
    }
}
