// A caller's shader doing hash-map lookups through glsl/public/vkalgo_hash_map.glsl (tests/hash/);
// compiled by `cargo xtask shaders` for each key and value width (KEY64, VALUE64).
#version 460
#include "vkalgo_hash_map.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Words64 { uint64_t v[]; };
layout(push_constant) uniform Push {
    VkalgoHashMapView map;
    uint64_t keys;
    uint64_t values_out;
    uint64_t found_out;
    uint64_t contains_out;
    uint count;
} pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
#if KEY64
    uint64_t key = Words64(pc.keys).v[i];
    bool contained = vkalgo_hash_map_contains_u64(pc.map, key);
#else
    uint key = Words(pc.keys).v[i];
    bool contained = vkalgo_hash_map_contains_u32(pc.map, key);
#endif
#if KEY64 && VALUE64
    uint64_t value;
    bool found = vkalgo_hash_map_find_u64_u64(pc.map, key, value);
#elif KEY64
    uint value;
    bool found = vkalgo_hash_map_find_u64_u32(pc.map, key, value);
#elif VALUE64
    uint64_t value;
    bool found = vkalgo_hash_map_find_u32_u64(pc.map, key, value);
#else
    uint value;
    bool found = vkalgo_hash_map_find_u32_u32(pc.map, key, value);
#endif
#if VALUE64
    Words64(pc.values_out).v[i] = value;
#else
    Words(pc.values_out).v[i] = value;
#endif
    Words(pc.found_out).v[i] = found ? 1u : 0u;
    Words(pc.contains_out).v[i] = contained ? 1u : 0u;
}
