// A caller's shader testing membership through glsl/public/vkalgo_set.glsl (tests/set/);
// compiled by `cargo xtask shaders`.
#version 460
#include "vkalgo_set.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(push_constant) uniform Push {
    VkalgoSetView set;
    uint64_t values;
    uint64_t found_out;
    uint count;
} pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    uint value = Words(pc.values).v[i];
    Words(pc.found_out).v[i] = vkalgo_set_contains(pc.set, value) ? 1u : 0u;
}
