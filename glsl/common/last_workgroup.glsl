// The last workgroup of a dispatch to finish: each workgroup counts itself finished in a u32
// that is zero before the dispatch, after every invocation's earlier buffer writes and atomics
// (a workgroup barrier with device-scope release); the one that brings the count to the
// dispatch's size (acquire, in invocation 0) sees what all of them wrote. Used for work that
// must follow a whole grid without another dispatch: the set operations' one-pass decision.
// (The scan's kept-zeroed clean-up counts in one subgroup instead: glsl/scan/lookback.comp.)
#ifndef VKALGO_LAST_WORKGROUP_GLSL
#define VKALGO_LAST_WORKGROUP_GLSL

#extension GL_KHR_memory_scope_semantics : require

shared uint s_finished_last;

// Returns to every invocation whether this workgroup finished last; reads of other
// workgroups' writes belong in invocation 0 (which holds the acquire). Workgroup-uniform
// control flow.
bool finished_last(uint64_t counter_addr) {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (gl_LocalInvocationIndex == 0u) {
        uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
        uint done = atomicAdd(U32AtomicRef(counter_addr).v[0], 1u, gl_ScopeDevice,
                              gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        s_finished_last = done + 1u == groups ? 1u : 0u;
    }
    barrier();
    return s_finished_last != 0u;
}

#endif
