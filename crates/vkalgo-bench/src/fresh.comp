#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(push_constant) uniform Push { uint64_t addr; uint64_t count; uint salt; uint pad; } pc;
uint mix32(uint x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
void main() {
    uint64_t stride = uint64_t(gl_NumWorkGroups.x) * 256ul;
    for (uint64_t i = uint64_t(gl_GlobalInvocationID.x); i < pc.count; i += stride) {
        // Each word addressed from its own 64-bit byte address (no signed 32-bit index).
        Words(pc.addr + i * 4ul).v[0] = mix32(uint(i) * 0x9e3779b9u + pc.salt);
    }
}
