#version 460
// Hash map erase: KEYS_PER_INVOCATION keys per invocation. The key's slot gets the ERASED marker (a tombstone,
// as in the seed: keys never move, so concurrent lookups stay correct) through a CAS, so of
// several erases of one key exactly one succeeds and the size drops by one. Writes a u32
// erased flag per key when asked (1: this invocation erased it).
#include "hash_common.glsl"

bool erase_key(KEY_T key) {
    uvec2 h = hash_key(key);
    uint bucket = vkalgo_hash_first_bucket(h, pc.num_buckets);
    uint step = vkalgo_hash_step(h, pc.num_buckets);
    for (uint probe = 0u; probe < pc.max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
        KEY_T k[BUCKET_SLOTS];
        load_bucket_keys(bucket_addr, k);
        bool any_empty = false;
        for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            if (k[j] == key) {
                uint64_t slot = slot_address(bucket_addr, j);
#if KEY_BITS == 32
                uint old = atomicCompSwap(U32AtomicRef(slot).v[0], key, ERASED_KEY);
#else
                uint64_t old = atomicCompSwap(U64AtomicRef(slot).v[0], key, ERASED_KEY);
#endif
                return old == key;
            }
            any_empty = any_empty || k[j] == EMPTY_KEY;
        }
        if (any_empty) {
            return false;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, pc.num_buckets);
    }
    return false;
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;
    }
    uint erased = 0u;
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint i = first + r * WG_SIZE + gl_LocalInvocationIndex;
        if (i < n) {
            KEY_T key = load_key(pc.keys_addr, i);
            bool done = !is_reserved(key) && erase_key(key);
            erased += done ? 1u : 0u;
            if (pc.flags_addr != 0ul) {
                U32Ref(pc.flags_addr).v[i] = done ? 1u : 0u;
            }
        }
    }
    // size -= erased, tombstones += erased
    add_to_counters(erased, erased, pc.header_addr, true, pc.header_addr + 4ul);
}
