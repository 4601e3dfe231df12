// vkalgo_hash_map.glsl: look up keys of a vkalgo GPU hash map (or multimap) from your own shaders.
//
// Installed with the C header (CMake package: <prefix>/include/vkalgo/glsl/vkalgo_hash_map.glsl;
// in the source tree: glsl/public/). vkalgo's own hash-map kernels include this file too, so
// the hashing and the probe sequence here are exactly the ones the map was built with.
//
// Usage (GLSL 4.60, Vulkan 1.2+, bufferDeviceAddress, shaderInt64):
//
//     #version 460
//     #include "vkalgo_hash_map.glsl"
//     layout(push_constant) uniform Push { VkalgoHashMapView map; uint64_t keys; ... } pc;
//     ...
//     uint value;
//     if (vkalgo_hash_map_find_u32_u32(pc.map, key, value)) { ... }
//
// Fill `map` with what vkalgo returns for the map: `HashMap::device_view()` (Rust) or
// `vkalgo_hash_map_device_view()` (C). The struct is 32 bytes, 8-byte aligned, with the same
// layout in push constants, std140 and std430 blocks and in C/Rust (VkalgoHashMapDeviceView).
// The view stays valid until the map is destroyed or rehashed (a rehash moves the storage).
//
// Synchronization: a lookup reads the map's storage with plain loads. Make the map operations
// that wrote it (insert, erase, clear, rehash: COMPUTE_SHADER writes; clear also TRANSFER
// writes) visible to your shader's stage with a memory barrier first, and do not run map
// writes concurrently with your lookups.
//
// Table layout (what the functions below rely on): the map is an array of `num_buckets`
// buckets of `bucket_slots` slots; a bucket is 32 or 64 bytes (chosen when the map is made). A
// slot is {u32 key, u32 value} (8 bytes) when key and value are both u32, else 16 bytes:
// {u32 key, u32 unused, u64 value}, {u64 key, u32 value, u32 unused} or {u64 key, u64 value}
// (little endian). The two largest key values are reserved: all ones marks an empty slot, all
// ones minus one an erased one.
// A key lives in a bucket of its probe sequence (the first that had a free, empty or erased,
// slot when it was inserted, or an earlier one where an erase's reclaim moved it): bucket
// h1 mod n, then + step, + 2 step, ... (mod n), where n =
// num_buckets is a prime and 1 <= step < n, so the sequence visits every bucket once (double
// hashing over buckets, as in cuCollections' double_hashing probing scheme with bucket/"window"
// storage). No key is ever placed beyond a bucket that holds an empty slot, so a lookup ends
// at a bucket that holds the key or an empty slot, or after max_probes buckets.
//
// Addressing: buckets are reached at 64-bit byte addresses
// (buckets + bucket * bucket bytes), never through an array index that could reach 2^31.
#ifndef VKALGO_HASH_MAP_GLSL
#define VKALGO_HASH_MAP_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// Reserved keys.
const uint VKALGO_HASH_EMPTY_U32 = 0xFFFFFFFFu;
const uint VKALGO_HASH_ERASED_U32 = 0xFFFFFFFEu;
const uint64_t VKALGO_HASH_EMPTY_U64 = 0xFFFFFFFFFFFFFFFFul;
const uint64_t VKALGO_HASH_ERASED_U64 = 0xFFFFFFFFFFFFFFFEul;

// What a shader needs to know about a map (VkalgoHashMapDeviceView in C and Rust).
struct VkalgoHashMapView {
    uint64_t buckets;   // device address of bucket 0
    uint num_buckets;   // a prime (or 2)
    uint max_probes;    // buckets a lookup visits at most: min(num_buckets, 4096)
    uint key_bits;      // 32 or 64
    uint value_bits;    // 32 or 64
    uint slot_bytes;    // 8 (u32 keys and values) or 16
    uint bucket_slots;  // slots per bucket: bucket bytes (32 or 64) / slot_bytes
};

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer VkalgoHashBucketRef {
    uvec4 v[];
};

// murmur3's 32-bit finalizer (the seed's hash): a bijection with full avalanche.
uint vkalgo_hash_fmix32(uint h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// murmur3's 64-bit finalizer.
uint64_t vkalgo_hash_fmix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdul;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ul;
    h ^= h >> 33;
    return h;
}

// The two hashes of a key: x picks the first bucket, y the step.
uvec2 vkalgo_hash_u32(uint key) {
    return uvec2(vkalgo_hash_fmix32(key), vkalgo_hash_fmix32(key ^ 0x9e3779b9u));
}

uvec2 vkalgo_hash_u64(uint64_t key) {
    uint64_t h = vkalgo_hash_fmix64(key);
    return uvec2(uint(h >> 32), uint(h));
}

// floor(h * n / 2^32): h mapped onto [0, n) without a division (Lemire's fast range).
uint vkalgo_hash_range(uint h, uint n) {
    uint hi, lo;
    umulExtended(h, n, hi, lo);
    return hi;
}

uint vkalgo_hash_first_bucket(uvec2 h, uint num_buckets) {
    return vkalgo_hash_range(h.x, num_buckets);
}

// In [1, num_buckets - 1] (1 when num_buckets < 2): coprime with the prime bucket count.
uint vkalgo_hash_step(uvec2 h, uint num_buckets) {
    return 1u + vkalgo_hash_range(h.y, max(num_buckets, 2u) - 1u);
}

uint vkalgo_hash_next_bucket(uint bucket, uint step, uint num_buckets) {
    bucket += step;
    return bucket >= num_buckets ? bucket - num_buckets : bucket;
}

uint64_t vkalgo_hash_bucket_address(VkalgoHashMapView map, uint bucket) {
    return map.buckets + uint64_t(bucket) * uint64_t(map.slot_bytes * map.bucket_slots);
}

// Stands in for the missing half of a 32-byte bucket: an ERASED key (u32 or u64), which
// matches no lookup and is not empty.
const uvec4 VKALGO_HASH_NO_SLOTS = uvec4(0xFFFFFFFEu, 0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFFu);

// The bucket as four uvec4 (a 32-byte bucket: the last two are VKALGO_HASH_NO_SLOTS). The
// loads of one bucket are independent, so they are in flight together.
void vkalgo_hash_load_bucket(VkalgoHashMapView map, uint bucket, out uvec4 s[4]) {
    VkalgoHashBucketRef b = VkalgoHashBucketRef(vkalgo_hash_bucket_address(map, bucket));
    s[0] = b.v[0];
    s[1] = b.v[1];
    s[2] = VKALGO_HASH_NO_SLOTS;
    s[3] = VKALGO_HASH_NO_SLOTS;
    if (map.slot_bytes * map.bucket_slots == 64u) {
        s[2] = b.v[2];
        s[3] = b.v[3];
    }
}

// ---- u32 keys, u32 values (8-byte slots: 4 or 8 per bucket) -------------------------------

bool vkalgo_hash_map_find_u32_u32(VkalgoHashMapView map, uint key, out uint value) {
    value = 0u;
    if (key >= VKALGO_HASH_ERASED_U32) {
        return false;
    }
    uvec2 h = vkalgo_hash_u32(key);
    uint bucket = vkalgo_hash_first_bucket(h, map.num_buckets);
    uint step = vkalgo_hash_step(h, map.num_buckets);
    uvec4 s[4];
    vkalgo_hash_load_bucket(map, bucket, s);
    for (uint probe = 0u; probe < map.max_probes; ++probe) {
        // The four uvec4 of the bucket without an early exit inside the inner loop (drivers
        // unroll it then; CPU drivers cap the loop iterations of an invocation).
        bool any_empty = false;
        bool hit = false;
        for (uint j = 0u; j < 4u; ++j) {
            bool x = !hit && s[j].x == key;
            bool z = !hit && !x && s[j].z == key;
            value = x ? s[j].y : (z ? s[j].w : value);
            hit = hit || x || z;
            any_empty = any_empty || s[j].x == VKALGO_HASH_EMPTY_U32 || s[j].z == VKALGO_HASH_EMPTY_U32;
        }
        if (hit) {
            return true;
        }
        if (any_empty) {
            return false;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, map.num_buckets);
        vkalgo_hash_load_bucket(map, bucket, s);
    }
    return false;
}

// ---- 16-byte slots: one uvec4 per slot, 2 or 4 per bucket -----------------------------------

// Finds `key` (its low 32 bits in key_lo, high in key_hi; key_hi unused for u32 keys) in a
// map with 16-byte slots; returns the slot (.zw: the value words) or false.
bool vkalgo_hash_find_slot16(VkalgoHashMapView map, uvec2 h, uint key_lo, uint key_hi,
                             bool key64, out uvec4 slot) {
    slot = uvec4(0u);
    uint bucket = vkalgo_hash_first_bucket(h, map.num_buckets);
    uint step = vkalgo_hash_step(h, map.num_buckets);
    uvec4 s[4];
    vkalgo_hash_load_bucket(map, bucket, s);
    for (uint probe = 0u; probe < map.max_probes; ++probe) {
        bool any_empty = false;
        bool hit = false;
        for (uint j = 0u; j < 4u; ++j) {
            bool hi_match = !key64 || s[j].y == key_hi;
            bool x = !hit && s[j].x == key_lo && hi_match;
            slot = x ? s[j] : slot;
            hit = hit || x;
            any_empty = any_empty || (s[j].x == 0xFFFFFFFFu && (!key64 || s[j].y == 0xFFFFFFFFu));
        }
        if (hit) {
            return true;
        }
        if (any_empty) {
            return false;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, map.num_buckets);
        vkalgo_hash_load_bucket(map, bucket, s);
    }
    return false;
}

bool vkalgo_hash_map_find_u32_u64(VkalgoHashMapView map, uint key, out uint64_t value) {
    value = 0ul;
    if (key >= VKALGO_HASH_ERASED_U32) {
        return false;
    }
    uvec4 slot;
    bool found = vkalgo_hash_find_slot16(map, vkalgo_hash_u32(key), key, 0u, false, slot);
    value = found ? packUint2x32(slot.zw) : 0ul;
    return found;
}

bool vkalgo_hash_map_find_u64_u32(VkalgoHashMapView map, uint64_t key, out uint value) {
    value = 0u;
    if (key >= VKALGO_HASH_ERASED_U64) {
        return false;
    }
    uvec2 k = unpackUint2x32(key);
    uvec4 slot;
    bool found = vkalgo_hash_find_slot16(map, vkalgo_hash_u64(key), k.x, k.y, true, slot);
    value = found ? slot.z : 0u;
    return found;
}

bool vkalgo_hash_map_find_u64_u64(VkalgoHashMapView map, uint64_t key, out uint64_t value) {
    value = 0ul;
    if (key >= VKALGO_HASH_ERASED_U64) {
        return false;
    }
    uvec2 k = unpackUint2x32(key);
    uvec4 slot;
    bool found = vkalgo_hash_find_slot16(map, vkalgo_hash_u64(key), k.x, k.y, true, slot);
    value = found ? packUint2x32(slot.zw) : 0ul;
    return found;
}

// ---- contains: any value type -----------------------------------------------------------------

bool vkalgo_hash_map_contains_u32(VkalgoHashMapView map, uint key) {
    if (map.slot_bytes == 8u) {
        uint unused;
        return vkalgo_hash_map_find_u32_u32(map, key, unused);
    }
    uint64_t unused64;
    return vkalgo_hash_map_find_u32_u64(map, key, unused64);
}

bool vkalgo_hash_map_contains_u64(VkalgoHashMapView map, uint64_t key) {
    uint unused;
    return vkalgo_hash_map_find_u64_u32(map, key, unused);
}

// ---- multimaps: every pair stored, duplicate keys included ---------------------------------
//
// A vkalgo hash multimap (`HashMultimap::device_view()` in Rust,
// `vkalgo_hash_multimap_device_view()` in C) has the layout above, the same VkalgoHashMapView
// and the same probe sequence. It never erases: a slot goes only from empty to a pair, and an
// insert claims the first empty slot of its key's probe sequence. So every pair of a key lies
// before the first empty slot of that sequence (all earlier buckets are full), and a walk over
// a key's pairs ends at the first empty slot (or after max_probes buckets).
// vkalgo_hash_map_find_* on a multimap's view give one of the key's values, unspecified which. Synchronization as for maps: make the multimap's inserts visible
// to your shader's stage first, and do not run inserts concurrently with these reads.
//
//     uint n = vkalgo_hash_multimap_count_u32(pc.map, key);          // or _count_u64
//     VkalgoHashMultimapWalk walk;
//     uint value;                                                    // uint64_t for u64 values
//     for (bool more = vkalgo_hash_multimap_first_u32_u32(pc.map, key, walk, value); more;
//          more = vkalgo_hash_multimap_next_u32_u32(pc.map, walk, value)) {
//         ... // each stored value of `key` once (duplicate pairs as often as stored)
//     }
//
// The walk keeps the bucket it is in (four uvec4) and reads each bucket of the sequence once;
// the values come in probe order, which is not insertion order.

// Where a walk over one key's pairs stands (vkalgo_hash_multimap_first_* / _next_*).
struct VkalgoHashMultimapWalk {
    uvec4 s[4];      // the bucket being walked (vkalgo_hash_load_bucket)
    uint key_lo;     // the key's low 32 bits
    uint key_hi;     // its high 32 bits (0 for u32 keys)
    uint bucket;     // the bucket in s
    uint step;       // the probe sequence's step
    uint probe;      // buckets of the sequence before this one; max_probes: the walk is over
    uint slot;       // the next slot of the bucket to look at
};

// Slot j (< bucket_slots) of a bucket loaded by vkalgo_hash_load_bucket, as {key low, key high,
// value low, value high}; words a layout does not have are 0 (8-byte slots) or the slot's
// unused word (16-byte slots: ignore them).
uvec4 vkalgo_hash_slot_words(VkalgoHashMapView map, uvec4 s[4], uint j) {
    if (map.slot_bytes == 8u) {
        uvec4 q = s[j >> 1u];
        uvec2 kv = (j & 1u) == 0u ? q.xy : q.zw;
        return uvec4(kv.x, 0u, kv.y, 0u);
    }
    return s[j];
}

// The number of a key's pairs in the multimap (key words as in vkalgo_hash_find_slot16).
// Reads each bucket of the sequence once, up to the first bucket that holds an empty slot.
uint vkalgo_hash_multimap_count_slots(VkalgoHashMapView map, uvec2 h, uint key_lo, uint key_hi,
                                      bool key64) {
    uint bucket = vkalgo_hash_first_bucket(h, map.num_buckets);
    uint step = vkalgo_hash_step(h, map.num_buckets);
    uint found = 0u;
    uvec4 s[4];
    vkalgo_hash_load_bucket(map, bucket, s);
    for (uint probe = 0u; probe < map.max_probes; ++probe) {
        // The four uvec4 without an early exit (see vkalgo_hash_map_find_u32_u32). The missing
        // half of a 32-byte bucket (VKALGO_HASH_NO_SLOTS) matches no key and is not empty.
        bool any_empty = false;
        for (uint j = 0u; j < 4u; ++j) {
            if (map.slot_bytes == 8u) {
                found += (s[j].x == key_lo ? 1u : 0u) + (s[j].z == key_lo ? 1u : 0u);
                any_empty = any_empty || s[j].x == VKALGO_HASH_EMPTY_U32 || s[j].z == VKALGO_HASH_EMPTY_U32;
            } else {
                bool hi = !key64 || s[j].y == key_hi;
                found += s[j].x == key_lo && hi ? 1u : 0u;
                any_empty = any_empty ||
                            (s[j].x == 0xFFFFFFFFu && (!key64 || s[j].y == 0xFFFFFFFFu));
            }
        }
        if (any_empty) {
            break;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, map.num_buckets);
        vkalgo_hash_load_bucket(map, bucket, s);
    }
    return found;
}

uint vkalgo_hash_multimap_count_u32(VkalgoHashMapView map, uint key) {
    if (key >= VKALGO_HASH_ERASED_U32) {
        return 0u;
    }
    return vkalgo_hash_multimap_count_slots(map, vkalgo_hash_u32(key), key, 0u, false);
}

uint vkalgo_hash_multimap_count_u64(VkalgoHashMapView map, uint64_t key) {
    if (key >= VKALGO_HASH_ERASED_U64) {
        return 0u;
    }
    uvec2 k = unpackUint2x32(key);
    return vkalgo_hash_multimap_count_slots(map, vkalgo_hash_u64(key), k.x, k.y, true);
}

// The next pair of the walk's key: true with its slot words (vkalgo_hash_slot_words), or
// false when the key has no more pairs (then every later call is false too).
bool vkalgo_hash_multimap_walk_next(VkalgoHashMapView map, inout VkalgoHashMultimapWalk walk,
                                    out uvec4 words) {
    words = uvec4(0u);
    bool key64 = map.key_bits == 64u;
    while (walk.probe < map.max_probes) {
        while (walk.slot < map.bucket_slots) {
            uvec4 w = vkalgo_hash_slot_words(map, walk.s, walk.slot);
            walk.slot++;
            if (w.x == walk.key_lo && (!key64 || w.y == walk.key_hi)) {
                words = w;
                return true;
            }
            if (w.x == 0xFFFFFFFFu && (!key64 || w.y == 0xFFFFFFFFu)) {
                walk.probe = map.max_probes;  // an empty slot: no pair of the key lies beyond
                return false;
            }
        }
        walk.probe++;
        if (walk.probe < map.max_probes) {
            walk.bucket = vkalgo_hash_next_bucket(walk.bucket, walk.step, map.num_buckets);
            vkalgo_hash_load_bucket(map, walk.bucket, walk.s);
            walk.slot = 0u;
        }
    }
    return false;
}

// Starts a walk over the pairs of a key (reserved keys have none).
bool vkalgo_hash_multimap_walk_first(VkalgoHashMapView map, uvec2 h, uint key_lo, uint key_hi,
                                     bool reserved, out VkalgoHashMultimapWalk walk,
                                     out uvec4 words) {
    walk.key_lo = key_lo;
    walk.key_hi = key_hi;
    walk.bucket = vkalgo_hash_first_bucket(h, map.num_buckets);
    walk.step = vkalgo_hash_step(h, map.num_buckets);
    walk.probe = reserved ? map.max_probes : 0u;
    walk.slot = 0u;
    vkalgo_hash_load_bucket(map, walk.bucket, walk.s);
    return vkalgo_hash_multimap_walk_next(map, walk, words);
}

bool vkalgo_hash_multimap_first_u32_u32(VkalgoHashMapView map, uint key,
                                        out VkalgoHashMultimapWalk walk, out uint value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_first(map, vkalgo_hash_u32(key), key, 0u,
                                                 key >= VKALGO_HASH_ERASED_U32, walk, w);
    value = w.z;
    return found;
}

bool vkalgo_hash_multimap_next_u32_u32(VkalgoHashMapView map, inout VkalgoHashMultimapWalk walk,
                                       out uint value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_next(map, walk, w);
    value = w.z;
    return found;
}

bool vkalgo_hash_multimap_first_u32_u64(VkalgoHashMapView map, uint key,
                                        out VkalgoHashMultimapWalk walk, out uint64_t value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_first(map, vkalgo_hash_u32(key), key, 0u,
                                                 key >= VKALGO_HASH_ERASED_U32, walk, w);
    value = packUint2x32(w.zw);
    return found;
}

bool vkalgo_hash_multimap_next_u32_u64(VkalgoHashMapView map, inout VkalgoHashMultimapWalk walk,
                                       out uint64_t value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_next(map, walk, w);
    value = packUint2x32(w.zw);
    return found;
}

bool vkalgo_hash_multimap_first_u64_u32(VkalgoHashMapView map, uint64_t key,
                                        out VkalgoHashMultimapWalk walk, out uint value) {
    uvec2 k = unpackUint2x32(key);
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_first(map, vkalgo_hash_u64(key), k.x, k.y,
                                                 key >= VKALGO_HASH_ERASED_U64, walk, w);
    value = w.z;
    return found;
}

bool vkalgo_hash_multimap_next_u64_u32(VkalgoHashMapView map, inout VkalgoHashMultimapWalk walk,
                                       out uint value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_next(map, walk, w);
    value = w.z;
    return found;
}

bool vkalgo_hash_multimap_first_u64_u64(VkalgoHashMapView map, uint64_t key,
                                        out VkalgoHashMultimapWalk walk, out uint64_t value) {
    uvec2 k = unpackUint2x32(key);
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_first(map, vkalgo_hash_u64(key), k.x, k.y,
                                                 key >= VKALGO_HASH_ERASED_U64, walk, w);
    value = packUint2x32(w.zw);
    return found;
}

bool vkalgo_hash_multimap_next_u64_u64(VkalgoHashMapView map, inout VkalgoHashMultimapWalk walk,
                                       out uint64_t value) {
    uvec4 w;
    bool found = vkalgo_hash_multimap_walk_next(map, walk, w);
    value = packUint2x32(w.zw);
    return found;
}

#endif
