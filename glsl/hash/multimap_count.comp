#version 460
// Hash multimap count: KEYS_PER_INVOCATION keys per invocation, through the public
// vkalgo_hash_multimap_count_* of glsl/public/vkalgo_hash_map.glsl (so this kernel tests
// exactly what users include): out[i] = the number of stored pairs whose key is keys[i] (0 for
// absent and reserved keys).
#include "multimap_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;
    }
    VkalgoHashMapView view = multimap_view();
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset >= n - first) {
            return;
        }
        uint i = first + offset;
        KEY_T key = load_key(pc.keys_addr, i);
#if KEY_BITS == 32
        uint found = vkalgo_hash_multimap_count_u32(view, key);
#else
        uint found = vkalgo_hash_multimap_count_u64(view, key);
#endif
        U32Ref(u32_addr(pc.out_addr, i)).v[0] = found;
    }
}
