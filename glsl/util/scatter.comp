#version 460
// Copies many small ranges of u32 words, each from a source base address plus an offset to a
// destination address, one workgroup a range (grid-stride): the many parts of a staged upload
// in one dispatch instead of a vkCmdCopyBuffer region each (docs/tuning/core.md#staged-scatter).
#include "../common/vkalgo.glsl"

// Must match src/core/copy.rs (ScatterPush).
layout(push_constant) uniform ScatterPush {
    uint64_t src_addr;  // the ranges' source base
    uint64_t table;     // `count` uvec4: source byte offset, destination address (lo, hi), words
    uint count;
    uint grid;          // workgroups of the dispatch
} pc;

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer RangeRef { uvec4 v; };

void main() {
    uint id = linear_workgroup_id();
    if (id >= pc.grid) {
        return;  // past the grid (a dispatch split into rows)
    }
    for (uint r = id; r < pc.count; r += pc.grid) {
        uvec4 range = RangeRef(pc.table + uint64_t(r) * 16ul).v;
        uint64_t src = pc.src_addr + uint64_t(range.x);
        uint64_t dst = packUint2x32(range.yz);
        for (uint w = gl_LocalInvocationIndex; w < range.w; w += WG_SIZE) {
            U32Ref(dst + uint64_t(w) * 4ul).v[0] = U32Ref(src + uint64_t(w) * 4ul).v[0];
        }
    }
}
