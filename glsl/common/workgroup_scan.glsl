// Workgroup-wide reductions and scans of one u32 per subgroup, through shared memory.
// Works for any subgroup size the device reports (the subgroup count may exceed the subgroup
// size, e.g. 64 subgroups of 4 on lavapipe).
#ifndef VKALGO_WORKGROUP_SCAN_GLSL
#define VKALGO_WORKGROUP_SCAN_GLSL

#include "vkalgo.glsl"

// One slot per subgroup, plus the total. By default a slot per invocation (subgroups of one
// invocation); an includer that defines WORKGROUP_SCAN_COMPACT_SLOTS gets one per subgroup of
// the device's smallest size (MIN_SUBGROUP_SIZE), which spares shared memory where every byte
// decides how many workgroups share a multiprocessor.
#ifdef WORKGROUP_SCAN_COMPACT_SLOTS
shared uint s_subgroup_values[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];
#else
shared uint s_subgroup_values[WG_SIZE];
#endif
shared uint s_workgroup_total;

// Exclusive scan over the per-subgroup values `subgroup_value` (identical in all invocations
// of a subgroup). Returns the exclusive prefix of this subgroup; `total` gets the sum over the
// workgroup. Must be called in workgroup-uniform control flow.
uint workgroup_exclusive_scan_subgroup_values(uint subgroup_value, out uint total) {
    if (subgroupElect()) {
        s_subgroup_values[gl_SubgroupID] = subgroup_value;
    }
    barrier();
    if (gl_SubgroupID == 0) {
        uint carry = 0;
        for (uint base = 0; base < gl_NumSubgroups; base += gl_SubgroupSize) {
            uint i = base + gl_SubgroupInvocationID;
            uint x = i < gl_NumSubgroups ? s_subgroup_values[i] : 0u;
            uint inclusive = subgroupInclusiveAdd(x);
            if (i < gl_NumSubgroups) {
                s_subgroup_values[i] = carry + inclusive - x;
            }
            carry += subgroupShuffle(inclusive, gl_SubgroupSize - 1);
        }
        if (subgroupElect()) {
            s_workgroup_total = carry;
        }
    }
    barrier();
    uint prefix = s_subgroup_values[gl_SubgroupID];
    total = s_workgroup_total;
    barrier();  // the slots may be reused right after
    return prefix;
}

// Exclusive scan of one u32 per invocation over the workgroup (uniform control flow).
uint workgroup_exclusive_scan(uint x, out uint total) {
    uint inner = subgroupExclusiveAdd(x);
    return workgroup_exclusive_scan_subgroup_values(subgroup_total(inner, x), total) + inner;
}

// Sum of `value` over the whole workgroup, returned to every invocation.
// Must be called in workgroup-uniform control flow.
uint workgroup_reduce_add(uint value) {
    uint total;
    workgroup_exclusive_scan_subgroup_values(subgroup_sum(value), total);
    return total;
}

// Broadcast a value from invocation 0 to the workgroup (uniform control flow).
shared uint s_broadcast;
uint workgroup_broadcast_first(uint value) {
    if (gl_LocalInvocationIndex == 0) {
        s_broadcast = value;
    }
    barrier();
    uint result = s_broadcast;
    barrier();
    return result;
}

#endif
