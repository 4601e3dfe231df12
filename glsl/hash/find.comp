#version 460
// Hash map find / contains: KEYS_PER_INVOCATION keys per invocation, through the public lookup functions of
// glsl/public/vkalgo_hash_map.glsl (so this kernel tests exactly what users include). Writes
// the value (0 when absent) and/or a u32 found flag (1 found, 0 not) per key.
#include "hash_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    VkalgoHashMapView map = VkalgoHashMapView(pc.buckets_addr, pc.num_buckets, pc.max_probes,
                                              uint(KEY_BITS), uint(VALUE_BITS), uint(SLOT_BYTES),
                                              uint(BUCKET_SLOTS));
    uint first = tile_start();
    if (first >= n) {
        return;
    }
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset >= n - first) {
            return;
        }
        uint i = first + offset;
        KEY_T key = load_key(pc.keys_addr, i);
        VALUE_T value;
#if KEY_BITS == 32 && VALUE_BITS == 32
        bool found = vkalgo_hash_map_find_u32_u32(map, key, value);
#elif KEY_BITS == 32
        bool found = vkalgo_hash_map_find_u32_u64(map, key, value);
#elif VALUE_BITS == 32
        bool found = vkalgo_hash_map_find_u64_u32(map, key, value);
#else
        bool found = vkalgo_hash_map_find_u64_u64(map, key, value);
#endif
        if (pc.values_addr != 0ul) {
            store_value(pc.values_addr, i, value);
        }
        if (pc.flags_addr != 0ul) {
            store_flag(pc.flags_addr, i, found ? 1u : 0u);
        }
    }
}
