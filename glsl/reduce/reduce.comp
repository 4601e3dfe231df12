#version 460
// Reduce: op over every element of the input, in one dispatch. Each workgroup combines the
// tiles of a grid-stride walk into a partial; the last workgroup to finish (last_workgroup.glsl)
// combines the partials and writes the result. No workgroup waits for another, so it runs on
// devices without forward-progress guarantees between workgroups.
//
// Permutations: KEY_BITS 32 or 64; FLOAT64_SUM 1 for the sum of f64 keys (the only pipeline
// that needs shaderFloat64). Specialization: REDUCE_OP (constant_id 5: REDUCE_OP_*), KEY_ORDER
// (constant_id 6: the key kind, glsl/common/vkalgo.glsl), VECS_PER_THREAD (constant_id 1:
// elements per invocation per tile).
//
// Values are combined as accumulator bits: sums of integers as the raw bits (wrapping), sums of
// floats as float bits (in any order), minima and maxima as ordered bits (the sort's order:
// floats in IEEE-754 totalOrder), turned back into raw bits at the end. The identity is 0 for
// sums (+0.0 for floats) and maxima, all ones (the largest ordered bits) for minima.
#if defined(FLOAT64_SUM) && FLOAT64_SUM
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif
#include "../common/vkalgo.glsl"
#include "../common/last_workgroup.glsl"
// REDUCE_OP_* and REDUCE_SCRATCH_PARTIALS (generated from src/reduce/shared_constants.rs).
#include "../generated/reduce.glsl"

#if KEY_BITS == 64
#define KEY_T uint64_t
#else
#define KEY_T uint
#endif
#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

layout(constant_id = 5) const uint REDUCE_OP = 0;

layout(push_constant) uniform ReducePush {
    uint64_t input_addr;   // KEY_T[count]
    uint64_t result_addr;  // one KEY_T
    uint64_t scratch_addr; // u32 finished counter (zero before), partials at REDUCE_SCRATCH_PARTIALS
    uint64_t count_addr;   // indirect count (a u32); 0: direct
    uint count;            // direct count
    uint max_count;        // clamp of an indirect count
} pc;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { KEY_T v[]; };
// The partials: written by every workgroup, read by the last one.
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer PartialRef { KEY_T v[]; };

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)

const bool FLOAT_SUM = REDUCE_OP == REDUCE_OP_SUM && KEY_KIND == 2u;

KEY_T identity() {
    return REDUCE_OP == REDUCE_OP_MIN ? ~KEY_T(0) : KEY_T(0);
}

// A raw key as accumulator bits.
KEY_T prepare(KEY_T raw) {
    return REDUCE_OP == REDUCE_OP_SUM ? raw : ordered_bits(raw);
}

// The result's raw bits.
KEY_T finish(KEY_T acc) {
    return REDUCE_OP == REDUCE_OP_SUM ? acc : raw_bits(acc);
}

KEY_T combine(KEY_T a, KEY_T b) {
    if (REDUCE_OP == REDUCE_OP_MIN) {
        return min(a, b);
    } else if (REDUCE_OP == REDUCE_OP_MAX) {
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

shared KEY_T s_acc[gl_WorkGroupSize.x];

// The workgroup's combination of every invocation's `x`, in invocation 0. Workgroup-uniform.
KEY_T workgroup_combine(KEY_T x) {
    s_acc[gl_LocalInvocationIndex] = x;
    barrier();
    for (uint half_size = WG_SIZE / 2u; half_size > 0u; half_size /= 2u) {
        if (gl_LocalInvocationIndex < half_size) {
            s_acc[gl_LocalInvocationIndex] =
                combine(s_acc[gl_LocalInvocationIndex], s_acc[gl_LocalInvocationIndex + half_size]);
        }
        barrier();
    }
    return s_acc[0];
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    uint group = linear_workgroup_id();
    uint tiles = n / TILE + (n % TILE != 0u ? 1u : 0u);  // no wrap for n near 2^32
    KEY_T acc = identity();
    for (uint t = group; t < tiles; t += groups) {
        uint start = t * TILE;
        uint left = n - start;  // below 2^32: start < n
        if (left >= TILE) {
            // A whole tile: ITEMS independent loads per invocation, each round coalesced.
            KEY_T x[ITEMS];
            [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
                x[r] = load_key(pc.input_addr, start + r * WG_SIZE + gl_LocalInvocationIndex);
            }
            [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
                acc = combine(acc, prepare(x[r]));
            }
        } else {
            for (uint r = 0u; r < ITEMS; ++r) {
                uint offset = r * WG_SIZE + gl_LocalInvocationIndex;
                if (offset < left) {
                    acc = combine(acc, prepare(load_key(pc.input_addr, start + offset)));
                }
            }
        }
    }
    KEY_T partial = workgroup_combine(acc);
    uint64_t partials = pc.scratch_addr + REDUCE_SCRATCH_PARTIALS;
    if (gl_LocalInvocationIndex == 0u) {
        PartialRef(partials).v[group] = partial;
    }
    if (!finished_last(pc.scratch_addr)) {
        return;
    }
    // The last workgroup: invocation 0 holds the acquire of every partial; this barrier
    // passes it on to the workgroup's reads.
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    KEY_T total = identity();
    for (uint g = gl_LocalInvocationIndex; g < groups; g += WG_SIZE) {
        total = combine(total, PartialRef(partials).v[g]);
    }
    total = workgroup_combine(total);
    if (gl_LocalInvocationIndex == 0u) {
        KeyRef(pc.result_addr).v[0] = finish(total);
        U32Ref(pc.scratch_addr).v[0] = 0u;  // the counter back at zero
    }
}
