#version 460
// Hash multimap insert: KEYS_PER_INVOCATION pairs per invocation, each stored in the first
// EMPTY slot of its key's probe sequence (multimap_common.glsl), duplicates included. Adds the
// number of pairs stored to the multimap's size and the number not stored (no EMPTY slot
// within the probe bound, or a reserved key) to the caller's failure counter.
#include "multimap_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;  // the whole workgroup is past the end (workgroup-uniform)
    }
    uint stored = 0u;
    uint failed = 0u;
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset < n - first) {
            uint i = first + offset;
            KEY_T key = load_key(pc.keys_addr, i);
            bool ok = !is_reserved(key) &&
                      multimap_insert(pc.buckets_addr, pc.num_buckets, pc.max_probes, key,
                                      load_value(pc.values_addr, i));
            stored += ok ? 1u : 0u;
            failed += ok ? 0u : 1u;
        }
    }
    add_to_counters(uvec3(stored, failed, 0u), pc.header_addr, pc.failed_addr, 0ul);
}
