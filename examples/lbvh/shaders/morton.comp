#version 460
// 30-bit Morton codes of the triangle centroids, with the triangle indices as the sort's values.
// The centroid box (lo, 1 / extent per axis) is computed on the CPU when the scene is loaded.
#include "common.glsl"

layout(push_constant) uniform Push {
    uint64_t tris;    // 9 f32 per triangle
    uint64_t keys;    // out: u32 code per triangle
    uint64_t values;  // out: u32 triangle index
    float lo_x, lo_y, lo_z;
    float inv_x, inv_y, inv_z;
    uint n;
} pc;

// Bit i of a 10-bit value to bit 3 i.
uint spread3(uint v) {
    v &= 0x3FFu;
    v = (v | (v << 16)) & 0x030000FFu;
    v = (v | (v << 8)) & 0x0300F00Fu;
    v = (v | (v << 4)) & 0x030C30C3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

// [lo, lo + extent] to 0..1023 (the maximum maps to 1024, clamped; NaN and below to 0).
uint quantize10(float x, float lo, float inv) {
    float t = (x - lo) * inv * 1024.0;
    if (!(t > 0.0)) return 0u;
    return t >= 1023.0 ? 1023u : uint(t);
}

void main() {
    F32s tri = F32s(pc.tris);
    U32s keys = U32s(pc.keys);
    U32s values = U32s(pc.values);
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += grid_stride()) {
        uint b = 9u * i;
        float cx = (tri.v[b + 0u] + tri.v[b + 3u] + tri.v[b + 6u]) / 3.0;
        float cy = (tri.v[b + 1u] + tri.v[b + 4u] + tri.v[b + 7u]) / 3.0;
        float cz = (tri.v[b + 2u] + tri.v[b + 5u] + tri.v[b + 8u]) / 3.0;
        keys.v[i] = (spread3(quantize10(cx, pc.lo_x, pc.inv_x)) << 2) |
                    (spread3(quantize10(cy, pc.lo_y, pc.inv_y)) << 1) |
                    spread3(quantize10(cz, pc.lo_z, pc.inv_z));
        values.v[i] = i;
    }
}
