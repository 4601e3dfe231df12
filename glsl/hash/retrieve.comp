#version 460
// Hash map retrieve_all: one invocation per bucket. Live slots (keys below the reserved
// values) are compacted into keys_out / values_out at positions taken from the map's cursor
// (one atomic per subgroup); positions at or past the output capacity (max_count) are not
// written, but still counted, so the final cursor is the number of live entries. Order: none
// in particular.
#include "hash_common.glsl"

void main() {
    if (linear_workgroup_id() * WG_SIZE >= pc.num_buckets) {
        return;
    }
    uint bucket = global_index();
    KEY_T k[BUCKET_SLOTS];
    VALUE_T v[BUCKET_SLOTS];
    uint live = 0u;
    if (bucket < pc.num_buckets) {
        uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
        for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            load_slot(slot_address(bucket_addr, j), k[j], v[j]);
            if (!is_reserved(k[j])) {
                live |= 1u << j;
            }
        }
    }
    uint c = bitCount(live);
    uint prefix = subgroupExclusiveAdd(c);
    uint total = subgroup_total(prefix, c);
    uint base = 0u;
    if (subgroupElect() && total != 0u) {
        base = atomicAdd(HashHeaderRef(pc.header_addr).cursor, total);
    }
    base = subgroupBroadcastFirst(base);
    uint pos = base + prefix;
    for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if ((live & (1u << j)) != 0u) {
            if (pos < pc.max_count) {
                store_key(pc.keys_addr, pos, k[j]);
                if (pc.values_addr != 0ul) {
                    store_value(pc.values_addr, pos, v[j]);
                }
            }
            pos++;
        }
    }
}
