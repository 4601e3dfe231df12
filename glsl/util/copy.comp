#version 460
// Device-to-device copy of uvec4 vectors with a compute shader: the bandwidth yardstick of the
// benchmark (vkCmdCopyBuffer is far slower on some drivers) and a fast copy for the host layer.
#include "../common/vkalgo.glsl"

// Must match src/core/copy.rs (CopyPush).
layout(push_constant) uniform CopyPush {
    uint64_t src_addr;
    uint64_t dst_addr;
    uint vec_count;  // uvec4 vectors to copy
} pc;

void main() {
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (i < pc.vec_count) {
        U32x4Ref(pc.dst_addr).v[i] = U32x4Ref(pc.src_addr).v[i];
    }
}
