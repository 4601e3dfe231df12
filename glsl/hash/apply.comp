#version 460
// Hash map insert-or-apply (group-by): for each (key, value), an absent key is inserted with its
// value, a present one (stored before, or by an earlier key of the batch) gets
// op(stored, value) by an atomic operation. KEYS_PER_INVOCATION keys per invocation; reserved
// keys are refused (STATUS_RESERVED). Statuses and counters as insert.comp.
//
// Two forms (src/hash/apply.rs picks one):
// - one pass (u32/u32 maps with the packed claim): a new key's slot gets {key, value} in one
//   64-bit CAS, so no later update can come before its value;
// - two passes (the other layouts: their claim stores the value after the key): the first
//   (APPLY_RESERVE_ONLY) claims the absent keys with the operation's identity and touches no
//   value, the second, after a barrier, applies every value to its (now present) key. A key
//   that found no slot in the first pass finds none in the second either (slots only fill),
//   so the second pass claims nothing; it counts nothing either.
//
// A subgroup whose active lanes hold one key (a hot key of a skewed batch) combines their
// values first and updates the slot once (u32 values; the reserve pass for every layout).
#define HASH_APPLY 1
#extension GL_KHR_shader_subgroup_vote : require
#include "hash_common.glsl"

// The operation's identity: what the reserve pass stores for a new key.
VALUE_T apply_identity() {
    return (pc.mode & APPLY_OP_MASK) == APPLY_OP_MIN ? VALUE_T(~VALUE_T(0)) : VALUE_T(0);
}

// The subgroup's combination of `value` (active lanes; u32 values).
uint combine_in_subgroup(uint value) {
    uint op = pc.mode & APPLY_OP_MASK;
    if (op == APPLY_OP_SUM) {
        return subgroup_sum(value);
    }
    return op == APPLY_OP_MIN ? subgroupMin(value) : subgroupMax(value);
}

// Whether every active lane holds `key`.
bool key_uniform(KEY_T key) {
#if KEY_BITS == 32
    return subgroupAllEqual(key);
#else
    return subgroupAllEqual(unpackUint2x32(key));
#endif
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;  // the whole workgroup is past the end (workgroup-uniform)
    }
    bool reserve_only = (pc.mode & APPLY_RESERVE_ONLY) != 0u;
    uint inserted = 0u;
    uint reused_slots = 0u;
    uint failed = 0u;
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset < n - first) {
            uint i = first + offset;
            KEY_T key = load_key(pc.keys_addr, i);
            VALUE_T value = reserve_only ? apply_identity() : load_value(pc.values_addr, i);
            uint status = STATUS_RESERVED;
            bool reused = false;
            if (!is_reserved(key)) {
                bool combine = key_uniform(key);
#if VALUE_BITS == 64
                combine = combine && reserve_only;
#else
                if (combine && !reserve_only) {
                    value = combine_in_subgroup(value);
                }
#endif
                if (!combine || subgroupElect()) {
                    status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes, key, value,
                                        reused);
                }
                if (combine) {
                    // The other lanes' keys are the same key: updated where it is stored.
                    uint stored = subgroupBroadcastFirst(status);
                    status = subgroupElect() ? stored
                           : (stored == STATUS_INSERTED ? STATUS_UPDATED : stored);
                }
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
