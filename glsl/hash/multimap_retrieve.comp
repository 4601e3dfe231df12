#version 460
// Hash multimap retrieve: KEYS_PER_INVOCATION keys per invocation. Key i's values go to
// values_out at positions offsets[i], offsets[i] + 1, ... (u32 or u64 offsets, in probe order);
// positions at or past the capacity are not written. Walks each key's probe sequence as the
// count does (each bucket read once, up to the first bucket that holds an EMPTY slot), so with
// the offsets of that count's exclusive scan every query fills exactly its range.
#include "multimap_common.glsl"

uint64_t load_offset(uint i) {
    if ((pc.flags & MULTIMAP_OFFSETS_U64) != 0u) {
        return U64Ref(pc.offsets_addr + uint64_t(i) * 8ul).v[0];
    }
    return uint64_t(U32Ref(u32_addr(pc.offsets_addr, i)).v[0]);
}

// Writes the values of `key` from position `at` on, and with tags, `tag` at each of them.
void retrieve_key(KEY_T key, uint64_t at, uint tag) {
    uvec2 h = hash_key(key);
    uint bucket = vkalgo_hash_first_bucket(h, pc.num_buckets);
    uint step = vkalgo_hash_step(h, pc.num_buckets);
    for (uint probe = 0u; probe < pc.max_probes; ++probe) {
        uvec4 s[BUCKET_VECS];
        load_bucket(bucket_address(pc.buckets_addr, bucket), s);
        bool any_empty = false;
        // No break inside (see multimap_insert).
        [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            KEY_T k = slot_key(s, j);
            if (k == key) {
                if (at < pc.capacity) {
                    store_value_at(pc.values_addr, at, slot_value(s, j));
                    if (pc.tags_out_addr != 0ul) {
                        U32Ref(pc.tags_out_addr + at * 4ul).v[0] = tag;
                    }
                }
                at++;
            }
            any_empty = any_empty || k == EMPTY_KEY;
        }
        if (any_empty) {
            return;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, pc.num_buckets);
    }
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
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
        if (!is_reserved(key)) {
            uint tag = pc.tags_addr != 0ul ? U32Ref(u32_addr(pc.tags_addr, i)).v[0] : 0u;
            retrieve_key(key, load_offset(i), tag);
        }
    }
}
