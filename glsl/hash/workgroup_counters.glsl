// Workgroup-wide counter updates shared by the hash map's and the multimap's kernels. The
// includer has included vkalgo.glsl (subgroup sums, WG_SIZE, MIN_SUBGROUP_SIZE, U32AtomicRef).
#ifndef VKALGO_WORKGROUP_COUNTERS_GLSL
#define VKALGO_WORKGROUP_COUNTERS_GLSL

// Workgroup-wide sums of three per-invocation counts, added to global u32 counters by one
// invocation: one atomic per counter and workgroup instead of one per key. Pass 0u - x to
// subtract x (u32 arithmetic wraps, so the sums of negated counts are the negated sums).
// Counter address 0: skipped. Workgroup-uniform control flow, once per dispatch. One barrier: each subgroup
// leaves its sums in shared memory and the first invocation adds them up.
shared uvec3 s_subgroup_counts[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];
void add_to_counters(uvec3 x, uint64_t counter_a, uint64_t counter_b, uint64_t counter_c) {
    uvec3 s = uvec3(subgroup_sum(x.x), subgroup_sum(x.y), subgroup_sum(x.z));
    if (subgroupElect()) {
        s_subgroup_counts[gl_SubgroupID] = s;
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uvec3 t = uvec3(0u);
        for (uint i = 0u; i < gl_NumSubgroups; ++i) {
            t += s_subgroup_counts[i];
        }
        if (t.x != 0u && counter_a != 0ul) atomicAdd(U32AtomicRef(counter_a).v[0], t.x);
        if (t.y != 0u && counter_b != 0ul) atomicAdd(U32AtomicRef(counter_b).v[0], t.y);
        if (t.z != 0u && counter_c != 0ul) atomicAdd(U32AtomicRef(counter_c).v[0], t.z);
    }
}

#endif
