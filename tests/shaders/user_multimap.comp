// A caller's shader walking a hash multimap through glsl/public/vkalgo_hash_map.glsl
// (tests/hash/multimap.rs); compiled by `cargo xtask shaders` for each key and value width
// (KEY64, VALUE64). Per query: the count, every value by a first/next walk (written from the
// query's offset on, at most its room), and the map lookup on the multimap's view.
#version 460
#include "vkalgo_hash_map.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Words64 { uint64_t v[]; };
layout(push_constant) uniform Push {
    VkalgoHashMapView map;
    uint64_t keys;
    uint64_t offsets;     // u32 per query: where its values go
    uint64_t values_out;  // the walked values
    uint64_t counts_out;  // u32 per query: vkalgo_hash_multimap_count_*
    uint64_t walked_out;  // u32 per query: values the walk gave
    uint64_t find_out;    // per query: the value vkalgo_hash_map_find_* gave
    uint64_t found_out;   // u32 per query: whether it found the key
    uint count;
    uint room;            // values_out holds this many
} pc;

#if VALUE64
#define VALUE_T uint64_t
void store_value(uint64_t base, uint i, uint64_t v) { Words64(base).v[i] = v; }
#else
#define VALUE_T uint
void store_value(uint64_t base, uint i, uint v) { Words(base).v[i] = v; }
#endif

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    uint at = Words(pc.offsets).v[i];
    uint walked = 0u;
    VkalgoHashMultimapWalk walk;
    VALUE_T value;
    VALUE_T any;
#if KEY64
    uint64_t key = Words64(pc.keys).v[i];
    uint counted = vkalgo_hash_multimap_count_u64(pc.map, key);
#else
    uint key = Words(pc.keys).v[i];
    uint counted = vkalgo_hash_multimap_count_u32(pc.map, key);
#endif
#if KEY64 && VALUE64
    bool found = vkalgo_hash_map_find_u64_u64(pc.map, key, any);
    for (bool more = vkalgo_hash_multimap_first_u64_u64(pc.map, key, walk, value); more;
         more = vkalgo_hash_multimap_next_u64_u64(pc.map, walk, value)) {
#elif KEY64
    bool found = vkalgo_hash_map_find_u64_u32(pc.map, key, any);
    for (bool more = vkalgo_hash_multimap_first_u64_u32(pc.map, key, walk, value); more;
         more = vkalgo_hash_multimap_next_u64_u32(pc.map, walk, value)) {
#elif VALUE64
    bool found = vkalgo_hash_map_find_u32_u64(pc.map, key, any);
    for (bool more = vkalgo_hash_multimap_first_u32_u64(pc.map, key, walk, value); more;
         more = vkalgo_hash_multimap_next_u32_u64(pc.map, walk, value)) {
#else
    bool found = vkalgo_hash_map_find_u32_u32(pc.map, key, any);
    for (bool more = vkalgo_hash_multimap_first_u32_u32(pc.map, key, walk, value); more;
         more = vkalgo_hash_multimap_next_u32_u32(pc.map, walk, value)) {
#endif
        if (at + walked < pc.room) {
            store_value(pc.values_out, at + walked, value);
        }
        walked++;
    }
    Words(pc.counts_out).v[i] = counted;
    Words(pc.walked_out).v[i] = walked;
    store_value(pc.find_out, i, any);
    Words(pc.found_out).v[i] = found ? 1u : 0u;
}
