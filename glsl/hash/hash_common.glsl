// Shared code of the hash-map kernels (src/hash/): push constants, slot layout, key/value
// loads, and the bounded insert of one key.
//
// Permutations (build.rs): KEY_BITS and VALUE_BITS (32 or 64); BUCKET_BYTES (32 or 64: 4 or 8
// slots of 8 bytes, 2 or 4 of 16 bytes); PACKED_CAS = 1 claims an empty
// slot of a u32/u32 map with one 64-bit compare-and-swap of the whole {key, value} pair (as
// cuCollections does for pairs of up to 8 bytes), 0 with a 32-bit key CAS followed by a value
// store (no 64-bit atomics needed).
//
// The probing itself (hashes, bucket sequence, bucket layout, reserved keys) comes from the
// public include, so maps built here are read by exactly the code users include.
//
// Concurrency within one dispatch (insert vs. insert of the same or other keys): a slot goes
// from EMPTY to a key exactly once (a CAS), keys never move, and no slot becomes EMPTY again
// (erase writes the ERASED marker; only clear and rehash reset slots, in their own passes).
// An insert walks the probe sequence and, per bucket, first looks for its key, then claims the
// bucket's empty slots in slot order; a failed CAS returns the winner's key, so a stale view of
// the bucket can only show a slot as empty that is already taken, never the reverse. All
// inserts of one key therefore meet at the same slot: no duplicates, and exactly one of them
// counts as new (size stays exact). A key moves to its next bucket only when the bucket is
// full, which is what lets lookups stop at the first bucket with an empty slot.
#ifndef VKALGO_HASH_COMMON_GLSL
#define VKALGO_HASH_COMMON_GLSL

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

// Must match src/hash/map.rs (HashPush).
layout(push_constant) uniform HashPush {
    uint64_t buckets_addr; // this map's buckets
    uint64_t header_addr;  // this map's counters (HashHeaderRef)
    uint64_t keys_addr;    // keys in (insert, find, erase); keys out (retrieve); source buckets (migrate)
    uint64_t values_addr;  // values in (insert); values out (find, retrieve); 0: none
    uint64_t flags_addr;   // per-key u32 out (insert status, found, erased) or meta output; 0: none
    uint64_t count_addr;   // indirect count (a u32); 0: direct
    uint64_t failed_addr;  // u32 that the number of keys not stored is added to; 0: none
    uint count;            // direct count; source bucket count (migrate)
    uint max_count;        // clamp of an indirect count; output capacity (retrieve)
    uint num_buckets;      // this map's bucket count (a prime)
    uint max_probes;       // buckets an operation visits at most
    uint mode;             // meta.comp: what to do
} pc;

// Counters of a map, at the start of its storage.
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer HashHeaderRef {
    uint size;        // live keys
    uint tombstones;  // erased slots (reclaimed by rehash)
    uint cursor;      // retrieve_all: next output position
    uint reserved;
};

layout(buffer_reference, std430, buffer_reference_align = 8) buffer U64Ref { uint64_t v[]; };

// Per-key insert status (src/hash/mod.rs: InsertStatus).
const uint STATUS_INSERTED = 0u;  // a new key
const uint STATUS_UPDATED = 1u;   // the key was present (or inserted by another thread of the batch)
const uint STATUS_FULL = 2u;      // no free slot within the probe bound: not stored
const uint STATUS_RESERVED = 3u;  // a reserved key: not stored

#if KEY_BITS == 32
#define KEY_T uint
const uint EMPTY_KEY = VKALGO_HASH_EMPTY_U32;
const uint ERASED_KEY = VKALGO_HASH_ERASED_U32;
uvec2 hash_key(uint key) { return vkalgo_hash_u32(key); }
#else
#define KEY_T uint64_t
const uint64_t EMPTY_KEY = VKALGO_HASH_EMPTY_U64;
const uint64_t ERASED_KEY = VKALGO_HASH_ERASED_U64;
uvec2 hash_key(uint64_t key) { return vkalgo_hash_u64(key); }
#endif

#if VALUE_BITS == 32
#define VALUE_T uint
#else
#define VALUE_T uint64_t
#endif

#if KEY_BITS == 32 && VALUE_BITS == 32
#define SLOT_BYTES 8
#else
#define SLOT_BYTES 16
#endif
#define BUCKET_SLOTS (BUCKET_BYTES / SLOT_BYTES)
// Byte offset of the value within a slot.
#define VALUE_OFFSET (SLOT_BYTES == 8 ? 4u : 8u)

KEY_T load_key(uint64_t base, uint i) {
#if KEY_BITS == 32
    return U32Ref(base).v[i];
#else
    return U64Ref(base).v[i];
#endif
}

VALUE_T load_value(uint64_t base, uint i) {
#if VALUE_BITS == 32
    return U32Ref(base).v[i];
#else
    return U64Ref(base).v[i];
#endif
}

void store_value(uint64_t base, uint i, VALUE_T value) {
#if VALUE_BITS == 32
    U32Ref(base).v[i] = value;
#else
    U64Ref(base).v[i] = value;
#endif
}

uint64_t bucket_address(uint64_t buckets, uint bucket) {
    return buckets + uint64_t(bucket) * uint64_t(uint(BUCKET_BYTES));
}

uint64_t slot_address(uint64_t bucket_addr, uint j) {
    return bucket_addr + uint64_t(j * uint(SLOT_BYTES));
}

// The keys of the slots of a bucket (whole uvec4 loads for 8-byte slots).
void load_bucket_keys(uint64_t bucket_addr, out KEY_T k[BUCKET_SLOTS]) {
#if SLOT_BYTES == 8
    for (uint q = 0u; q < BUCKET_SLOTS / 2; ++q) {
        uvec4 a = U32x4Ref(bucket_addr).v[q];
        k[2 * q] = a.x;
        k[2 * q + 1] = a.z;
    }
#elif KEY_BITS == 32
    for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        k[j] = U32Ref(bucket_addr).v[4 * j];
    }
#else
    for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        k[j] = U64Ref(bucket_addr).v[2 * j];
    }
#endif
}

// One slot's key and value.
void load_slot(uint64_t slot_addr, out KEY_T key, out VALUE_T value) {
#if SLOT_BYTES == 8
    key = U32Ref(slot_addr).v[0];
    value = U32Ref(slot_addr).v[1];
#else
    uvec4 s = U32x4Ref(slot_addr).v[0];
#if KEY_BITS == 32
    key = s.x;
#else
    key = packUint2x32(s.xy);
#endif
#if VALUE_BITS == 32
    value = s.z;
#else
    value = packUint2x32(s.zw);
#endif
#endif
}

// Overwrites the value of a slot that holds the key (atomically: several inserts of one key
// in a batch may race; one of their values stays).
void exchange_value(uint64_t slot_addr, VALUE_T value) {
#if VALUE_BITS == 32
    atomicExchange(U32AtomicRef(slot_addr + VALUE_OFFSET).v[0], value);
#else
    atomicExchange(U64AtomicRef(slot_addr + VALUE_OFFSET).v[0], value);
#endif
}

// Tries to claim an empty slot for `key`; returns the key the slot held before (EMPTY_KEY: it
// is ours now, with `value` stored).
KEY_T claim_slot(uint64_t slot_addr, KEY_T key, VALUE_T value) {
#if PACKED_CAS
    uint64_t desired = packUint2x32(uvec2(key, value));
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], 0xFFFFFFFFFFFFFFFFul, desired);
    return uint(old);
#else
#if KEY_BITS == 32
    uint old = atomicCompSwap(U32AtomicRef(slot_addr).v[0], EMPTY_KEY, key);
#else
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], EMPTY_KEY, key);
#endif
    if (old == EMPTY_KEY) {
#if VALUE_BITS == 32
        // A plain store: only inserts of the same key write this value concurrently, and
        // those use atomicExchange after seeing the key.
        U32Ref(slot_addr + VALUE_OFFSET).v[0] = value;
#else
        atomicExchange(U64AtomicRef(slot_addr + VALUE_OFFSET).v[0], value);
#endif
    }
    return old;
#endif
}

// Inserts or updates one (non-reserved) key: STATUS_INSERTED, STATUS_UPDATED or STATUS_FULL.
// Bounded: at most max_probes buckets, at most one CAS per slot of a bucket.
uint insert_key(uint64_t buckets, uint num_buckets, uint max_probes, KEY_T key, VALUE_T value) {
    uvec2 h = hash_key(key);
    uint bucket = vkalgo_hash_first_bucket(h, num_buckets);
    uint step = vkalgo_hash_step(h, num_buckets);
    for (uint probe = 0u; probe < max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(buckets, bucket);
        KEY_T k[BUCKET_SLOTS];
        load_bucket_keys(bucket_addr, k);
        for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            if (k[j] == key) {
                exchange_value(slot_address(bucket_addr, j), value);
                return STATUS_UPDATED;
            }
        }
        for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            if (k[j] == EMPTY_KEY) {
                KEY_T old = claim_slot(slot_address(bucket_addr, j), key, value);
                if (old == EMPTY_KEY) {
                    return STATUS_INSERTED;
                }
                if (old == key) {
                    exchange_value(slot_address(bucket_addr, j), value);
                    return STATUS_UPDATED;
                }
            }
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, num_buckets);
    }
    return STATUS_FULL;
}

bool is_reserved(KEY_T key) {
    return key >= ERASED_KEY;
}

// Workgroup-wide sums of two per-invocation counts, added to (a: subtracted from, when
// subtract_a) global u32 counters by one invocation: one atomic per workgroup instead of one
// per key. Counter address 0: skipped. Workgroup-uniform control flow.
shared uint s_count_a;
shared uint s_count_b;

void add_to_counters(uint a, uint b, uint64_t counter_a, bool subtract_a, uint64_t counter_b) {
    if (gl_LocalInvocationIndex == 0u) {
        s_count_a = 0u;
        s_count_b = 0u;
    }
    barrier();
    uint sa = subgroup_sum(a);
    uint sb = subgroup_sum(b);
    if (subgroupElect()) {
        if (sa != 0u) atomicAdd(s_count_a, sa);
        if (sb != 0u) atomicAdd(s_count_b, sb);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        if (s_count_a != 0u && counter_a != 0ul) {
            atomicAdd(U32AtomicRef(counter_a).v[0], subtract_a ? 0u - s_count_a : s_count_a);
        }
        if (s_count_b != 0u && counter_b != 0ul) atomicAdd(U32AtomicRef(counter_b).v[0], s_count_b);
    }
}

uint global_index() {
    return linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
}

// Keys handled by one invocation (specialization constant 1; the per-key kernels insert, find
// and erase process a tile of WG_SIZE * KEYS_PER_INVOCATION keys per workgroup, key
// tile_start + r * WG_SIZE + local index in round r, so every round's loads are coalesced).
#define KEYS_PER_INVOCATION VECS_PER_THREAD

uint tile_start() {
    return linear_workgroup_id() * WG_SIZE * KEYS_PER_INVOCATION;
}

#endif
