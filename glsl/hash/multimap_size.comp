#version 460
// Hash multimap size, run by one invocation: writes the number of pairs stored (a u32) to
// out_addr.
#include "multimap_common.glsl"

void main() {
    if (gl_LocalInvocationIndex != 0u || linear_workgroup_id() != 0u) {
        return;
    }
    U32Ref(pc.out_addr).v[0] = MultimapHeaderRef(pc.header_addr).size;
}
