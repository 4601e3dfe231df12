#version 460
// Hash map insert-or-apply with each workgroup's equal keys combined in shared memory first
// (u32 keys and values, no per-key statuses; src/hash/apply.rs picks it). A workgroup walks
// its share of the batch's tiles (grid-stride), adds each (key, value) to a shared table of
// SHARED_SLOTS slots (a claim by CAS on the key, the value by a shared atomic on the
// operation's identity), and at the end applies each slot's combined value to the map once,
// as apply.comp applies one key. A key that finds no shared slot within SHARED_PROBES goes to
// the map directly. The same map results as apply.comp (the operations are associative and
// commutative); the failure counter counts every key a failed slot stood for.
#define HASH_APPLY 1
#extension GL_KHR_shader_subgroup_vote : require
#include "hash_common.glsl"

#if KEY_BITS != 32 || VALUE_BITS != 32
#error "apply_shared.comp: u32 keys and values only"
#endif

// Slots per invocation, so that the final walk costs each invocation at most that many map
// inserts (CPU drivers cap an invocation's loop iterations), and at most APPLY_SHARED_SLOTS.
const uint SHARED_SLOTS = WG_SIZE * KEYS_PER_INVOCATION * APPLY_SHARED_SLOTS_PER_KEY
    > APPLY_SHARED_SLOTS ? APPLY_SHARED_SLOTS
    : WG_SIZE * KEYS_PER_INVOCATION * APPLY_SHARED_SLOTS_PER_KEY;
const uint SHARED_PROBES = 8u;

shared uint s_key[SHARED_SLOTS];
shared uint s_value[SHARED_SLOTS];
shared uint s_keys_held[SHARED_SLOTS];

uint apply_identity() {
    return (pc.mode & APPLY_OP_MASK) == APPLY_OP_MIN ? ~0u : 0u;
}

uint combine_in_subgroup(uint value) {
    uint op = pc.mode & APPLY_OP_MASK;
    if (op == APPLY_OP_SUM) {
        return subgroup_sum(value);
    }
    return op == APPLY_OP_MIN ? subgroupMin(value) : subgroupMax(value);
}

// Adds `value` (standing for `keys` keys) to `key`'s shared slot; false when none of the
// SHARED_PROBES slots from its hash is free or holds it.
bool add_to_shared(uint key, uint value, uint keys) {
    uint h = key * 0x9e3779b1u;
    uint at = uint((uint64_t(h ^ (h >> 15)) * uint64_t(SHARED_SLOTS)) >> 32);
    uint op = pc.mode & APPLY_OP_MASK;
    for (uint p = 0u; p < SHARED_PROBES; ++p) {
        uint held = atomicCompSwap(s_key[at], EMPTY_KEY, key);
        if (held == EMPTY_KEY || held == key) {
            if (op == APPLY_OP_SUM) {
                atomicAdd(s_value[at], value);
            } else if (op == APPLY_OP_MIN) {
                atomicMin(s_value[at], value);
            } else {
                atomicMax(s_value[at], value);
            }
            atomicAdd(s_keys_held[at], keys);
            return true;
        }
        at = at + 1u == SHARED_SLOTS ? 0u : at + 1u;
    }
    return false;
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    for (uint s = gl_LocalInvocationIndex; s < SHARED_SLOTS; s += WG_SIZE) {
        s_key[s] = EMPTY_KEY;
        s_value[s] = apply_identity();
        s_keys_held[s] = 0u;
    }
    barrier();
    uint inserted = 0u;
    uint reused_slots = 0u;
    uint failed = 0u;
    const uint tile_keys = WG_SIZE * KEYS_PER_INVOCATION;
    uint tiles = n / tile_keys + (n % tile_keys != 0u ? 1u : 0u);
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
        uint first = t * tile_keys;  // below n: t < tiles
        for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
            uint offset = key_offset(r);
            if (offset < n - first) {
                uint key = load_key(pc.keys_addr, first + offset);
                uint value = load_value(pc.values_addr, first + offset);
                if (!is_reserved(key)) {
                    // A subgroup whose active lanes hold one key combines their values first.
                    bool uniform_key = subgroupAllEqual(key);
                    uint keys = 1u;
                    if (uniform_key) {
                        value = combine_in_subgroup(value);
                        keys = subgroup_sum(1u);
                    }
                    if ((!uniform_key || subgroupElect()) && !add_to_shared(key, value, keys)) {
                        bool reused = false;
                        uint status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes,
                                                 key, value, reused);
                        inserted += status == STATUS_INSERTED ? 1u : 0u;
                        reused_slots += reused ? 1u : 0u;
                        failed += status >= STATUS_FULL ? keys : 0u;
                    }
                }
            }
        }
    }
    barrier();
    // Each combined key to the map, once.
    for (uint s = gl_LocalInvocationIndex; s < SHARED_SLOTS; s += WG_SIZE) {
        uint key = s_key[s];
        if (key != EMPTY_KEY) {
            bool reused = false;
            uint status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes, key,
                                     s_value[s], reused);
            inserted += status == STATUS_INSERTED ? 1u : 0u;
            reused_slots += reused ? 1u : 0u;
            failed += status >= STATUS_FULL ? s_keys_held[s] : 0u;
        }
    }
    // size += inserted, tombstones -= reused, failed += failed
    add_to_counters(uvec3(inserted, 0u - reused_slots, failed), pc.header_addr,
                    pc.header_addr + 4ul, pc.failed_addr);
}
