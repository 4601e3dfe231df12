// vkalgo: shared declarations for every compute shader.
//
// Buffers are reached through buffer device addresses (GL_EXT_buffer_reference); arguments come
// in push constants. Tuning values are specialization constants:
//   constant_id 0: workgroup size (local_size_x_id)
//   constant_id 1: uvec4 vectors loaded per invocation per tile
//   constant_id 2: spin limit of a look-back wait before the waiter does the work itself
//   constant_id 3, 4: the device's minimum and maximum subgroup size (set for every pipeline)
//   constant_id 5: the sort's stage split (glsl/sort/sort_common.glsl), the multisplit's load
//                  batch (glsl/split/split_common.glsl); 1 elsewhere
//   constant_id 6: the sort's key order (glsl/sort/sort_common.glsl), the set kernels' directory
//                  forms (glsl/set/set_common.glsl DIR_FORMS); 0 elsewhere
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
