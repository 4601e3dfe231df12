// The last workgroup of a dispatch to finish: each workgroup counts itself finished in a u32
// that is zero before the dispatch, after every invocation's earlier buffer writes and atomics
// (a workgroup barrier with device-scope release); the one that brings the count to the
// dispatch's size (acquire, in invocation 0) sees what all of them wrote. Used for work that
// must follow a whole grid without another dispatch: the set operations' one-pass decision
// (finished_last), and the kept-zeroed look-back states' clean-up (lookback_state_finish); and
// the last of a few workgroups sharing one piece of work (arrived_last: the many-way union's
// parts).
#ifndef VKALGO_LAST_WORKGROUP_GLSL
#define VKALGO_LAST_WORKGROUP_GLSL

#extension GL_KHR_memory_scope_semantics : require

shared uint s_finished_last;

// Counts this workgroup arrived in the u32 at counter_addr (zero before the first of
// `arrivals` workgroups), after every invocation's earlier buffer writes and atomics; sets
// s_finished_last where it is the last of them. Invocation 0 holds the acquire; the caller's
// barrier follows. Workgroup-uniform control flow.
void count_arrival(uint64_t counter_addr, uint arrivals) {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (gl_LocalInvocationIndex == 0u) {
        uint done = atomicAdd(U32AtomicRef(counter_addr).v[0], 1u, gl_ScopeDevice,
                              gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        s_finished_last = done + 1u == arrivals ? 1u : 0u;
    }
}

// Returns to every invocation whether this workgroup finished last; reads of other
// workgroups' writes belong in invocation 0 (which holds the acquire). Workgroup-uniform
// control flow.
bool finished_last(uint64_t counter_addr) {
    count_arrival(counter_addr, gl_NumWorkGroups.x * gl_NumWorkGroups.y);
    barrier();
    return s_finished_last != 0u;
}

// Returns to every invocation whether this workgroup is the last of `arrivals` to count
// itself at counter_addr (a share of a dispatch: the parts of one piece of work); there the
// acquire is passed on to the whole workgroup, so every invocation may read what the others
// wrote. Workgroup-uniform control flow.
bool arrived_last(uint64_t counter_addr, uint arrivals) {
    count_arrival(counter_addr, arrivals);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    return s_finished_last != 0u;
}

// The count of finished workgroups made by the workgroup's first subgroup alone, so that the
// others need not wait for it: a workgroup-scope barrier orders every invocation's earlier
// buffer accesses before the count (whose release is device-wide). Returns true to the first
// subgroup's invocations where this workgroup finished last, the acquire then passed on to
// the whole subgroup; false everywhere else. Called in workgroup-uniform control flow.
// `of_round`: the counter is never reset but only grows, by the dispatch's size (a power of
// two) per dispatch, so it is a multiple of that size before each one (zero when first used;
// wrapping at 2^32 keeps it so), and the workgroup whose count brings it to the next multiple
// finished last (dispatches counting on one such counter must not overlap); else it is zero
// before the dispatch.
bool first_subgroup_finished_last(uint64_t counter_addr, bool of_round) {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    if (gl_SubgroupID != 0u) {
        return false;
    }
    uint last = 0u;
    if (subgroupElect()) {
        uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
        uint done = atomicAdd(U32AtomicRef(counter_addr).v[0], 1u, gl_ScopeDevice,
                              gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        bool brings = of_round ? ((done + 1u) & (groups - 1u)) == 0u : done + 1u == groups;
        last = brings ? 1u : 0u;
    }
    if (subgroupBroadcastFirst(last) == 0u) {
        return false;
    }
    controlBarrier(gl_ScopeSubgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    return true;
}

// On a counter that is zero before the dispatch.
bool finished_last_in_first_subgroup(uint64_t counter_addr) {
    return first_subgroup_finished_last(counter_addr, false);
}

// On a counter that is never reset (see first_subgroup_finished_last).
bool finished_last_of_round_in_first_subgroup(uint64_t counter_addr) {
    return first_subgroup_finished_last(counter_addr, true);
}

// 1: the look-back kernel clears its kept-zeroed state itself (lookback_state_finish), set per
// pipeline by src/core/lookback_state.rs; 0: it does not, and lookback_state_finish compiles to
// nothing. A specialization constant and not a push-constant flag: the finish's code alone,
// never run, slowed the kernels that carried it (docs/tuning/core.md#self-cleaning-variant).
layout(constant_id = 8) const uint SELF_CLEANING = 0;

// A look-back state kept zeroed between dispatches (the scan's, the select's, the
// reduce-by-key's), where SELF_CLEANING: its 16-byte header at `header_addr` holds the tile ticket at byte 0, the
// fallback count at 4 and the finished workgroups at 8, its `status_words` u64 words start at
// `status_addr`. Counts this workgroup finished, once its look-back reads and status writes
// are done; the last one to finish zeroes the status words, the ticket and the count (the
// fallback count stays, for the tests). Only the first subgroup counts and clears: the others
// go on with their tile (docs/tuning/scan.md#finish-count). Workgroup-uniform control flow.
void lookback_state_finish(uint64_t header_addr, uint64_t status_addr, uint status_words) {
    if (SELF_CLEANING == 0u || !finished_last_in_first_subgroup(header_addr + 8ul)) {
        return;
    }
    for (uint w = gl_SubgroupInvocationID; w < status_words; w += gl_SubgroupSize) {
        U64AtomicRef(status_addr + uint64_t(w) * 8ul).v[0] = 0ul;
    }
    if (subgroupElect()) {
        U32AtomicRef(header_addr).v[0] = 0u;
        U32AtomicRef(header_addr + 8ul).v[0] = 0u;
    }
}

#endif
