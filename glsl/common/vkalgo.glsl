// vkalgo: shared declarations for every compute shader.
//
// Buffers are reached through buffer device addresses (GL_EXT_buffer_reference); arguments come
// in push constants. Tuning values are specialization constants:
//   constant_id 0: workgroup size (local_size_x_id)
//   constant_id 1: uvec4 vectors loaded per invocation per tile
//   constant_id 2: spin limit of a look-back wait before the waiter does the work itself
//   constant_id 3, 4: the device's minimum and maximum subgroup size (set for every pipeline)
//   constant_id 5: the sort's stage split (glsl/sort/sort_common.glsl), the multisplit's load
//                  batch (glsl/split/split_common.glsl), the group-by's keys per invocation
//                  (glsl/hash/apply_shared.comp); 1 elsewhere
//   constant_id 6: the key order of the sort and the merge (KEY_ORDER, below), the multisplit's
//                  key kind (glsl/split/split_common.glsl), the set kernels' directory forms
//                  (glsl/set/set_common.glsl DIR_FORMS), the group-by's shared slots; 0
//                  elsewhere
//   constant_id 7: look-back tiles by ticket (TILE_TICKETS, glsl/common/tile_ticket.glsl; set
//                  for every pipeline)
//   constant_id 8: a look-back kernel that clears its kept-zeroed state itself (SELF_CLEANING,
//                  glsl/common/last_workgroup.glsl); 0 elsewhere
#ifndef VKALGO_COMMON_GLSL
#define VKALGO_COMMON_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VECS_PER_THREAD = 4;
layout(constant_id = 2) const uint SPIN_LIMIT = 1024;
layout(constant_id = 3) const uint MIN_SUBGROUP_SIZE = 32;
layout(constant_id = 4) const uint MAX_SUBGROUP_SIZE = 32;

#define WG_SIZE (gl_WorkGroupSize.x)

layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Ref { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer U32x4Ref { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer U64AtomicRef { uint64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer U32AtomicRef { uint v[]; };

// The subgroup's total of x, given inner = subgroupExclusiveAdd(x): the last active lane's
// inclusive sum. vkalgo never calls subgroupAdd: in kernels that loop over tiles, the NVIDIA
// driver compiled it under a stale predicate and gave garbage totals in partial tiles
// (docs/driver-bugs.md#nvidia-subgroup-add). A unit test in src/core/spirv.rs keeps subgroup
// reductions by addition out of every shader.
uint subgroup_total(uint inner, uint x) {
    return subgroupShuffle(inner + x, subgroupBallotFindMSB(subgroupBallot(true)));
}

// The sum of x over the subgroup's active lanes (subgroupAdd without the driver's reduction).
uint subgroup_sum(uint x) {
    return subgroup_total(subgroupExclusiveAdd(x), x);
}

// The 64-bit x of lane `lane`, shuffled as two 32-bit halves (no extended subgroup types
// needed).
uint64_t subgroup_shuffle_u64(uint64_t x, uint lane) {
    return packUint2x32(subgroupShuffle(unpackUint2x32(x), lane));
}

// Set bits of a 128-bit mask or vector (a subgroup ballot, four bitmap words).
uint popcount4(uvec4 m) {
    return uint(bitCount(m.x) + bitCount(m.y) + bitCount(m.z) + bitCount(m.w));
}

// Byte address of element `index` of a u32 array starting at `base`: 64-bit arithmetic, so
// ranges beyond 4 GiB and beyond maxStorageBufferRange are reached.
uint64_t u32_addr(uint64_t base, uint index) { return base + uint64_t(index) * 4ul; }

// The element count of a pass: direct (from push constants) or indirect (a u32 in a GPU
// buffer, clamped to the plan's maximum so an out-of-range count can never overrun buffers).
uint load_count(uint64_t count_addr, uint direct_count, uint max_count) {
    if (count_addr == 0ul) {
        return direct_count;
    }
    return min(U32Ref(count_addr).v[0], max_count);
}

// Linear workgroup index of a 2-D dispatch (grids larger than maxComputeWorkGroupCount[0]
// are split over y by the host).
uint linear_workgroup_id() {
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

#endif

// ---- key order ----
//
// The order-preserving bits of a key, shared by the radix sort (glsl/sort/sort_common.glsl) and
// the merge path (glsl/merge/merge_common.glsl): an includer that has defined KEY_T and KEY_BITS
// (32 or 64) defines VKALGO_KEY_ORDER and includes this file again. (A section here rather than
// a file of its own: every source file a shader includes numbers ids in its SPIR-V, and the
// packed SPIR-V stays as it was.)
//
// The key kind and direction are specialization constant 6, KEY_ORDER: bits 0-1 the key kind
// (0 unsigned, 1 signed, 2 float), bit 2 descending (the bits above are the includer's). The
// ordered bits compare as unsigned integers in the key's order: unsigned keys as they are,
// signed keys with the sign bit flipped, floats in IEEE-754 totalOrder (sign set: all bits
// flipped; sign clear: the sign bit set), and all bits complemented for a descending order.
#if defined(VKALGO_KEY_ORDER) && !defined(VKALGO_KEY_ORDER_GLSL)
#define VKALGO_KEY_ORDER_GLSL

layout(constant_id = 6) const uint KEY_ORDER = 0;
const uint KEY_KIND = KEY_ORDER & 3u;
const bool KEY_DESCENDING = (KEY_ORDER & 4u) != 0u;

#if KEY_BITS == 64
#define KEY_SIGNED_T int64_t
const uint64_t KEY_SIGN = 0x8000000000000000ul;
#else
#define KEY_SIGNED_T int
const uint KEY_SIGN = 0x80000000u;
#endif

// The mask ordered_bits xors a key with before the descending complement: none for unsigned
// keys, the sign bit for signed ones, and for floats all bits where the sign is set, else the
// sign bit. Branch-free.
KEY_T order_flip(KEY_T k) {
    if (KEY_KIND == 1u) {
        return KEY_SIGN;
    } else if (KEY_KIND == 2u) {
        return KEY_T(KEY_SIGNED_T(k) >> (KEY_BITS - 1)) | KEY_SIGN;
    }
    return KEY_T(0);
}

// The key's order-preserving bits.
KEY_T ordered_bits(KEY_T k) {
    KEY_T ascending = k ^ order_flip(k);
    return KEY_DESCENDING ? ~ascending : ascending;
}

// The inverse of ordered_bits. A float's ordered sign bit is the complement of its own, so
// the flip is that of the complemented bits.
KEY_T raw_bits(KEY_T ordered) {
    KEY_T ascending = KEY_DESCENDING ? ~ordered : ordered;
    return ascending ^ order_flip(~ascending);
}

#endif
