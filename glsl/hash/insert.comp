#version 460
// Hash map insert: KEYS_PER_INVOCATION keys per invocation. Reserved keys are refused (STATUS_RESERVED), other
// keys are inserted or updated within the probe bound (see hash_common.glsl). Writes the
// per-key status when asked, adds the number of new keys to the map's size, subtracts the
// erased slots they reused from its tombstones, and adds the number of keys not stored (full
// or reserved) to the caller's failure counter.
#include "hash_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;  // the whole workgroup is past the end (workgroup-uniform)
    }
    uint inserted = 0u;
    uint reused_slots = 0u;
    uint failed = 0u;
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset < n - first) {
            uint i = first + offset;
            KEY_T key = load_key(pc.keys_addr, i);
            uint status = STATUS_RESERVED;
            bool reused = false;
            if (!is_reserved(key)) {
                status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes, key,
                                    load_value(pc.values_addr, i), reused);
            }
            inserted += status == STATUS_INSERTED ? 1u : 0u;
            reused_slots += reused ? 1u : 0u;
            failed += status >= STATUS_FULL ? 1u : 0u;
            if (pc.flags_addr != 0ul) {
                store_flag(pc.flags_addr, i, status);
            }
        }
    }
    // size += inserted, tombstones -= reused, failed += failed
    add_to_counters(uvec3(inserted, 0u - reused_slots, failed), pc.header_addr,
                    pc.header_addr + 4ul, pc.failed_addr);
}
