#version 460
// Fills u32 words with one value with a compute shader: the scratch clears of the scan, sort,
// multisplit and set passes (a compute dispatch and a compute-to-compute barrier cost less than
// vkCmdFillBuffer and a transfer-to-compute barrier: docs/tuning/core.md#compute-fill).
//
// 64-bit addressing: each workgroup makes its reference at its first word's 64-bit byte address
// and indexes it by the invocation (SPIR-V access-chain indices are signed).
#include "../common/vkalgo.glsl"

// Must match src/core/copy.rs (FillPush).
layout(push_constant) uniform FillPush {
    uint64_t dst_addr;
    uint word_count;  // u32 words to fill
    uint value;
    uint64_t dst2_addr;  // a second range, after the first's words (0 words: none)
    uint word_count2;
    uint pad;
} pc;

void main() {
    uint64_t first = uint64_t(linear_workgroup_id()) * uint64_t(WG_SIZE);
    uint64_t word = first + uint64_t(gl_LocalInvocationIndex);
    if (word < uint64_t(pc.word_count)) {
        U32Ref(pc.dst_addr + first * 4ul).v[gl_LocalInvocationIndex] = pc.value;
    } else if (word - uint64_t(pc.word_count) < uint64_t(pc.word_count2)) {
        U32Ref(pc.dst2_addr + (word - uint64_t(pc.word_count)) * 4ul).v[0] = pc.value;
    }
}
