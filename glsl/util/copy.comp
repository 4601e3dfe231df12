#version 460
// Device-to-device copy of uvec4 vectors with a compute shader: the bandwidth yardstick of the
// benchmark (vkCmdCopyBuffer is far slower on some drivers) and a fast copy for the host layer.
//
// 64-bit addressing: up to 2^32 - 1 vectors (64 GiB - 16 bytes, src/core/copy.rs). Each
// workgroup makes references at its first vector's 64-bit byte address and indexes them by the
// invocation (SPIR-V access-chain indices are signed: a vector index reaching 2^31, 32 GiB,
// would address memory before the buffer). The workgroup's first vector index is 64-bit too:
// the spare workgroups of a dispatch split over y can lie past 2^32 vectors.
#include "../common/vkalgo.glsl"

// Must match src/core/copy.rs (CopyPush).
layout(push_constant) uniform CopyPush {
    uint64_t src_addr;
    uint64_t dst_addr;
    uint vec_count;  // uvec4 vectors to copy
} pc;

void main() {
    uint64_t first = uint64_t(linear_workgroup_id()) * uint64_t(WG_SIZE);
    if (first + uint64_t(gl_LocalInvocationIndex) < uint64_t(pc.vec_count)) {
        uint64_t offset = first * 16ul;
        U32x4Ref(pc.dst_addr + offset).v[gl_LocalInvocationIndex] =
            U32x4Ref(pc.src_addr + offset).v[gl_LocalInvocationIndex];
    }
}
