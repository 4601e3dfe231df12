// Shared code of the hash multimap's kernels (src/hash/multimap/): push constants, slot
// layout, key/value loads, the bounded insert of one pair and the walk over one key's pairs.
//
// Permutations (xtask/src/permutations.rs): KEY_BITS and VALUE_BITS (32 or 64); BUCKET_BYTES
// (32 or 64); PACKED_CAS = 1 claims an empty slot of a u32/u32 multimap with one 64-bit
// compare-and-swap of the whole {key, value} pair, 0 with a key CAS followed by a value store.
//
// The table is the hash map's (glsl/hash/hash_common.glsl, glsl/public/vkalgo_hash_map.glsl):
// the same buckets, slots, reserved keys, hashes and probe sequence, through the public
// include, so a multimap is read by exactly the code users include. What differs: there is no
// erase, so a slot only goes from EMPTY to a pair and keeps it, and an insert never looks for
// its key; it claims the first EMPTY slot of its probe sequence. Hence invariant M: every
// slot before a stored pair's slot in its key's probe sequence (earlier buckets, and earlier
// slots of its own bucket) holds a pair. A walk over a key's pairs (count, retrieve) may stop
// at the first EMPTY slot, or at the end of the first bucket that holds one. The map's lookups
// (which end at the first bucket holding an EMPTY slot) are right on a multimap too.
//
// Concurrency: inserts run with inserts only (count and retrieve are separate dispatches
// behind barriers). Inserts of one key race for the same EMPTY slots; a CAS decides each, the
// loser goes on to the next EMPTY slot. Every insert that finds a slot counts one pair, so the
// size is exact.
//
// Index arithmetic as in hash_common.glsl: element i of a caller's array at the 64-bit byte
// address base + i * bytes; output positions (retrieve) are u64.
#ifndef VKALGO_MULTIMAP_COMMON_GLSL
#define VKALGO_MULTIMAP_COMMON_GLSL

#include "../common/vkalgo.glsl"
#include "../public/vkalgo_hash_map.glsl"

#if !defined(KEY_BITS) || !defined(VALUE_BITS) || !defined(BUCKET_BYTES)
#error "KEY_BITS, VALUE_BITS and BUCKET_BYTES must be defined by the permutation table"
#endif
#ifndef PACKED_CAS
#define PACKED_CAS 0
#endif

#if KEY_BITS == 64 || VALUE_BITS == 64 || PACKED_CAS
#extension GL_EXT_shader_atomic_int64 : require
#endif

// Must match src/hash/multimap/push.rs (MultimapPush).
layout(push_constant) uniform MultimapPush {
    uint64_t buckets_addr;  // the multimap's buckets
    uint64_t header_addr;   // its counters (MultimapHeaderRef)
    uint64_t keys_addr;     // keys in
    uint64_t values_addr;   // values in (insert); values out (retrieve)
    uint64_t offsets_addr;  // retrieve: each key's first output position (u32 or u64, flags)
    uint64_t out_addr;      // count: per-key u32 counts; size: the u32 written
    uint64_t count_addr;    // indirect count (a u32); 0: direct
    uint64_t failed_addr;   // insert: u32 that the number of pairs not stored is added to; 0: none
    uint64_t tags_addr;     // retrieve: one u32 tag per key; 0: none
    uint64_t tags_out_addr; // retrieve: each written value's key's tag, at the value's position
    uint64_t capacity;      // retrieve: values past this position are not written
    uint count;             // direct count
    uint max_count;         // clamp of an indirect count
    uint num_buckets;       // the bucket count (a prime, or 2)
    uint max_probes;        // buckets a walk visits at most
    uint flags;             // retrieve: MULTIMAP_OFFSETS_U64
} pc;

// retrieve: the offsets are u64 (else u32).
const uint MULTIMAP_OFFSETS_U64 = 1u;

// Counters of a multimap, at the start of its storage (the map's header; only size is used).
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer MultimapHeaderRef {
    uint size;  // pairs stored
};

layout(buffer_reference, std430, buffer_reference_align = 8) buffer U64Ref { uint64_t v[]; };

#include "hash_layout.glsl"
#define BUCKET_VECS (BUCKET_BYTES / 16)

bool is_reserved(KEY_T key) {
    return key >= ERASED_KEY;
}

// Value at a u64 position of an output array.
void store_value_at(uint64_t base, uint64_t position, VALUE_T value) {
#if VALUE_BITS == 32
    U32Ref(base + position * 4ul).v[0] = value;
#else
    U64Ref(base + position * 8ul).v[0] = value;
#endif
}

// A whole bucket in BUCKET_VECS uvec4 loads (independent: in flight together).
void load_bucket(uint64_t bucket_addr, out uvec4 s[BUCKET_VECS]) {
    [[unroll]] for (uint q = 0u; q < BUCKET_VECS; ++q) {
        s[q] = U32x4Ref(bucket_addr).v[q];
    }
}

// Slot j of a loaded bucket: its key and value (j a constant after unrolling).
KEY_T slot_key(uvec4 s[BUCKET_VECS], uint j) {
#if SLOT_BYTES == 8
    return (j & 1u) == 0u ? s[j >> 1u].x : s[j >> 1u].z;
#elif KEY_BITS == 32
    return s[j].x;
#else
    return packUint2x32(s[j].xy);
#endif
}

VALUE_T slot_value(uvec4 s[BUCKET_VECS], uint j) {
#if SLOT_BYTES == 8
    return (j & 1u) == 0u ? s[j >> 1u].y : s[j >> 1u].w;
#elif VALUE_BITS == 32
    return s[j].z;
#else
    return packUint2x32(s[j].zw);
#endif
}

// Tries to claim an EMPTY slot for the pair; false when another insert took it first.
bool claim_empty(uint64_t slot_addr, KEY_T key, VALUE_T value) {
#if PACKED_CAS
    // An EMPTY slot is all ones (the clear's fill; nothing writes a value word before its
    // key). Should its value word differ all the same, the slot is still free while its key
    // is EMPTY: try once more with the pair as it is.
    uint64_t desired = packUint2x32(uvec2(key, value));
    uint64_t expected = 0xFFFFFFFFFFFFFFFFul;
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], expected, desired);
    if (old != expected && uint(old) == EMPTY_KEY) {
        expected = old;
        old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], expected, desired);
    }
    return old == expected;
#else
#if KEY_BITS == 32
    uint old = atomicCompSwap(U32AtomicRef(slot_addr).v[0], EMPTY_KEY, key);
#else
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], EMPTY_KEY, key);
#endif
    if (old == EMPTY_KEY) {
        // A plain store: the slot is this insert's alone, and nothing reads it before the
        // dispatch ends.
#if VALUE_BITS == 32
        U32Ref(slot_addr + VALUE_OFFSET).v[0] = value;
#else
        U64Ref(slot_addr + VALUE_OFFSET).v[0] = value;
#endif
    }
    return old == EMPTY_KEY;
#endif
}

// Stores one pair (key not reserved) in the first EMPTY slot of its probe sequence that it
// wins: true, or false when max_probes buckets held none (not stored). A bucket whose slots
// all held pairs when loaded is passed at once; in one with EMPTY slots the insert tries them
// in order (a lost CAS means a pair is there now, for good).
bool multimap_insert(uint64_t buckets, uint num_buckets, uint max_probes, KEY_T key, VALUE_T value) {
    uvec2 h = hash_key(key);
    uint bucket = vkalgo_hash_first_bucket(h, num_buckets);
    uint step = vkalgo_hash_step(h, num_buckets);
    for (uint probe = 0u; probe < max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(buckets, bucket);
        uvec4 s[BUCKET_VECS];
        load_bucket(bucket_addr, s);
        bool claimed = false;
        // No break inside the slot loop: CPU drivers unroll it then, and their per-invocation
        // loop cap counts buckets, not slots (docs/driver-bugs.md#lavapipe-loop-limit).
        [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            if (!claimed && slot_key(s, j) == EMPTY_KEY) {
                claimed = claim_empty(slot_address(bucket_addr, j), key, value);
            }
        }
        if (claimed) {
            return true;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, num_buckets);
    }
    return false;
}

#include "workgroup_counters.glsl"

// Keys handled by one invocation (specialization constant 1): a workgroup takes a tile of
// WG_SIZE * KEYS_PER_INVOCATION keys, key tile_start + r * WG_SIZE + local index in round r,
// so every round's loads are coalesced.
#define KEYS_PER_INVOCATION VECS_PER_THREAD

uint tile_start() {
    return linear_workgroup_id() * WG_SIZE * KEYS_PER_INVOCATION;
}

// Offset of this invocation's key in round r within its tile; key index tile_start() +
// key_offset(r) when key_offset(r) < n - tile_start() (a test that cannot wrap).
uint key_offset(uint r) {
    return r * WG_SIZE + gl_LocalInvocationIndex;
}

// The view of this multimap for the public include's functions (layout constants folded).
VkalgoHashMapView multimap_view() {
    return VkalgoHashMapView(pc.buckets_addr, pc.num_buckets, pc.max_probes, uint(KEY_BITS),
                             uint(VALUE_BITS), uint(SLOT_BYTES), uint(BUCKET_SLOTS));
}

#endif
