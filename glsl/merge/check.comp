#version 460
// Sortedness check of the host calls: sets flag 0 (at aux_addr) when run A is not sorted in
// the plan's order, flag 1 when run B is not. Each invocation compares ITEMS neighbouring
// pairs of each run; no workgroup waits on another. The flags are cleared by the caller.
#include "merge_common.glsl"

void main() {
    uint m = count_a();
    uint n = count_b();
    uint64_t first = (uint64_t(linear_workgroup_id()) * uint64_t(WG_SIZE) + gl_LocalInvocationIndex)
                     * uint64_t(ITEMS);
    bool bad_a = false;
    bool bad_b = false;
    for (uint e = 0u; e < ITEMS; ++e) {
        uint64_t i = first + uint64_t(e) + 1ul;  // compares elements i - 1 and i
        if (i < uint64_t(m)) {
            bad_a = bad_a || load_ordered(pc.a_keys, i - 1ul) > load_ordered(pc.a_keys, i);
        }
        if (i < uint64_t(n)) {
            bad_b = bad_b || load_ordered(pc.b_keys, i - 1ul) > load_ordered(pc.b_keys, i);
        }
    }
    if (bad_a) {
        U32Ref(pc.aux_addr).v[0] = 1u;
    }
    if (bad_b) {
        U32Ref(pc.aux_addr).v[1] = 1u;
    }
}
