#version 460
// One invocation per query value: out[i] = 1 if values[i] is in the set, else 0 (u32 each).
#include "set_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (i >= n) {
        return;
    }
    uint v = U32Ref(u32_addr(pc.values, i)).v[0];
    U32Ref(u32_addr(pc.out_addr, i)).v[0] = set_contains(pc.meta_d, v) ? 1u : 0u;
}
