#version 460
// Hash map erase: KEYS_PER_INVOCATION keys per invocation. The key's slot is freed with a CAS
// (keys do not move while erases run), so of several erases of one key
// exactly one succeeds and the size drops by one. Writes a u32 erased flag per key when asked
// (1: this invocation erased it).
//
// The freed slot becomes EMPTY when its bucket (as loaded) holds an EMPTY slot, else ERASED (a
// tombstone, counted in the header, reused by later inserts and turned EMPTY by reclaim.comp
// once no stored key passes its bucket). Why EMPTY is safe: a bucket with an EMPTY slot lies
// before no stored key's own bucket in that key's probe sequence (invariant I in
// hash_common.glsl), and while erases run EMPTY slots stay EMPTY.
#include "hash_common.glsl"

// 0: not erased; 1: erased, the slot is EMPTY; 2: erased, the slot is a tombstone.
uint erase_key(KEY_T key) {
    uvec2 h = hash_key(key);
    uint step = vkalgo_hash_step(h, pc.num_buckets);
    uint bucket = vkalgo_hash_first_bucket(h, pc.num_buckets);
    for (uint probe = 0u; probe < pc.max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
        KEY_T k[BUCKET_SLOTS];
        uint w[BUCKET_SLOTS];
        load_bucket_keys(bucket_addr, k, w);
        bool any_empty = false;
        uint hit = NO_SLOT;
        // No break or return inside the slot loop (see insert_key in hash_common.glsl).
        [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            any_empty = any_empty || k[j] == EMPTY_KEY;
            hit = hit == NO_SLOT && k[j] == key ? j : hit;
        }
        if (hit != NO_SLOT) {
            uint64_t slot = slot_address(bucket_addr, hit);
            KEY_T freed = any_empty ? EMPTY_KEY : ERASED_KEY;
#if KEY_BITS == 32
            uint old = atomicCompSwap(U32AtomicRef(slot).v[0], key, freed);
#else
            uint64_t old = atomicCompSwap(U64AtomicRef(slot).v[0], key, freed);
#endif
            if (old != key) {
                return 0u;  // another erase of the key in this batch won
            }
            return any_empty ? 1u : 2u;
        }
        if (any_empty) {
            return 0u;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, pc.num_buckets);
    }
    return 0u;
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint first = tile_start();
    if (first >= n) {
        return;
    }
    uint erased = 0u;
    uint tombstones = 0u;
    for (uint r = 0u; r < KEYS_PER_INVOCATION; ++r) {
        uint offset = key_offset(r);
        if (offset < n - first) {
            uint i = first + offset;
            KEY_T key = load_key(pc.keys_addr, i);
            uint outcome = is_reserved(key) ? 0u : erase_key(key);
            erased += outcome != 0u ? 1u : 0u;
            tombstones += outcome == 2u ? 1u : 0u;
            if (pc.flags_addr != 0ul) {
                store_flag(pc.flags_addr, i, outcome != 0u ? 1u : 0u);
            }
        }
    }
    // size -= erased, tombstones += tombstones, erased_since += tombstones
    add_to_counters(uvec3(0u - erased, tombstones, tombstones), pc.header_addr,
                    pc.header_addr + 4ul, pc.header_addr + ERASED_SINCE_OFFSET);
}
