#version 460
// Hash map rehash: one invocation per bucket of the SOURCE map (keys_addr: its buckets, count:
// its bucket count) inserts that bucket's live entries into this (destination) map, which
// must be empty. Tombstones are dropped. New keys are added to the destination's size; keys
// that found no slot to the failure counter.
#include "hash_common.glsl"

void main() {
    if (linear_workgroup_id() * WG_SIZE >= pc.count) {
        return;
    }
    uint bucket = global_index();
    uint inserted = 0u;
    uint failed = 0u;
    if (bucket < pc.count) {
        uint64_t bucket_addr = bucket_address(pc.keys_addr, bucket);
        for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            KEY_T key;
            VALUE_T value;
            load_slot(slot_address(bucket_addr, j), key, value);
            if (!is_reserved(key)) {
                bool reused;  // never: the destination is empty
                uint status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes, key, value,
                                         reused);
                inserted += status == STATUS_INSERTED ? 1u : 0u;
                failed += status == STATUS_FULL ? 1u : 0u;
            }
        }
    }
    add_to_counters(uvec3(inserted, failed, 0u), pc.header_addr, pc.failed_addr, 0ul);
}
