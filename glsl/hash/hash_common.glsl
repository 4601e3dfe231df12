// Shared code of the hash-map kernels (src/hash/): push constants, slot layout, key/value
// loads, and the bounded insert of one key.
//
// Permutations (build.rs): KEY_BITS and VALUE_BITS (32 or 64); BUCKET_BYTES (32 or 64: 4 or 8
// slots of 8 bytes, 2 or 4 of 16 bytes); PACKED_CAS = 1 claims a free
// slot of a u32/u32 map with one 64-bit compare-and-swap of the whole {key, value} pair (as
// cuCollections does for pairs of up to 8 bytes), 0 with a 32-bit key CAS followed by a value
// store (no 64-bit atomics needed).
//
// The probing itself (hashes, bucket sequence, bucket layout, reserved keys) comes from the
// public include, so maps built here are read by exactly the code users include.
//
// Slot states: EMPTY (never used since the last clear, or emptied by an erase, see
// erase.comp), ERASED (a tombstone) or a key. Both EMPTY and ERASED slots are free for inserts
// (erased slots are reused, as cuCollections does); a lookup stops at the first bucket that
// holds an EMPTY slot, because no key is ever placed beyond such a bucket (invariant I: for
// every stored key, the buckets before its own in its probe sequence hold no EMPTY slot).
// Tombstones no stored key needs are turned back into EMPTY slots by reclaim.comp.
//
// Concurrency within one dispatch: inserts run with inserts (no erase in the same dispatch),
// erases with erases. While inserts run a slot only goes from free to a key (a CAS) and then
// keeps that key; while erases run a slot only goes from a key to ERASED or EMPTY (a CAS).
// How inserts of one key meet at one slot (no duplicates, exactly one of them counts as new,
// so the size stays exact) is explained at insert_key below.
//
// Index arithmetic: element i of a caller's array is reached at the 64-bit byte address
// base + i * bytes (never an array index that can reach 2^31); bucket b at
// buckets + b * BUCKET_BYTES. Batches hold at most 2^32 - 1 keys and maps at most 2^31 slots
// (src/hash/geometry.rs), so no u32 here wraps: key indices are formed as tile start + an
// offset checked against n - tile start, bucket indices stay below 2^30, and the retrieve
// cursor below 2^31.
#ifndef VKALGO_HASH_COMMON_GLSL
#define VKALGO_HASH_COMMON_GLSL

#include "../common/vkalgo.glsl"
#include "../public/vkalgo_hash_map.glsl"
#ifdef HASH_APPLY
// APPLY_* (generated from src/hash/shared_constants.rs).
#include "../generated/hash.glsl"
#endif

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
    uint tombstones;  // erased slots
    uint cursor;      // retrieve_all: next output position
    uint reserved;
    uint unused[28];
    // A cache line of its own (byte 128), away from the size and tombstone counters that every
    // workgroup of an insert or erase adds to.
    uint erased_since;  // tombstones the erases since the last reclaim left
    uint reclaiming;    // reclaim.comp: 1 while a reclaim runs
};

// Byte offset of HashHeaderRef.erased_since.
const uint64_t ERASED_SINCE_OFFSET = 128ul;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer U64Ref { uint64_t v[]; };

// Per-key insert status (src/hash/mod.rs: InsertStatus).
const uint STATUS_INSERTED = 0u;  // a new key
const uint STATUS_UPDATED = 1u;   // the key was present (or inserted by another thread of the batch)
const uint STATUS_FULL = 2u;      // no free slot within the probe bound: not stored
const uint STATUS_RESERVED = 3u;  // a reserved key: not stored

#include "hash_layout.glsl"

// The keys of the slots of a bucket (whole uvec4 loads for 8-byte slots), and for 8-byte slots
// the value words too (the packed claim compares the whole slot).
void load_bucket_keys(uint64_t bucket_addr, out KEY_T k[BUCKET_SLOTS], out uint w[BUCKET_SLOTS]) {
#if SLOT_BYTES == 8
    [[unroll]] for (uint q = 0u; q < BUCKET_SLOTS / 2; ++q) {
        uvec4 a = U32x4Ref(bucket_addr).v[q];
        k[2 * q] = a.x;
        w[2 * q] = a.y;
        k[2 * q + 1] = a.z;
        w[2 * q + 1] = a.w;
    }
#elif KEY_BITS == 32
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        k[j] = U32Ref(bucket_addr).v[4 * j];
        w[j] = 0u;
    }
#else
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        k[j] = U64Ref(bucket_addr).v[2 * j];
        w[j] = 0u;
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

#ifdef HASH_APPLY
// insert_or_apply (apply.comp): the push constants' mode holds the operation (APPLY_OP_*) and,
// in the first pass of the two-pass form, APPLY_RESERVE_ONLY (generated/hash.glsl).
// A found key's value becomes op(stored, value), atomically; the reserve pass leaves it.
void apply_value(uint64_t slot_addr, VALUE_T value) {
    if ((pc.mode & APPLY_RESERVE_ONLY) != 0u) {
        return;
    }
    uint op = pc.mode & APPLY_OP_MASK;
#if VALUE_BITS == 32
    uint64_t at = slot_addr + VALUE_OFFSET;
    if (op == APPLY_OP_SUM) {
        atomicAdd(U32AtomicRef(at).v[0], value);
    } else if (op == APPLY_OP_MIN) {
        atomicMin(U32AtomicRef(at).v[0], value);
    } else {
        atomicMax(U32AtomicRef(at).v[0], value);
    }
#else
    uint64_t at = slot_addr + VALUE_OFFSET;
    if (op == APPLY_OP_SUM) {
        atomicAdd(U64AtomicRef(at).v[0], value);
    } else if (op == APPLY_OP_MIN) {
        atomicMin(U64AtomicRef(at).v[0], value);
    } else {
        atomicMax(U64AtomicRef(at).v[0], value);
    }
#endif
}
#define UPDATE_VALUE apply_value
#else
// insert.comp and migrate.comp: a found key's value is overwritten.
#define UPDATE_VALUE exchange_value
#endif

// No slot (a slot index sentinel).
const uint NO_SLOT = 0xFFFFFFFFu;

// A slot that an insert may claim: EMPTY or ERASED (the two reserved keys).
bool is_free(KEY_T k) {
    return k >= ERASED_KEY;
}

// Tries to claim a free slot for `key`: `seen` is the key the slot held when its bucket was
// loaded (EMPTY or ERASED), `seen_value` the value word loaded with it (8-byte slots). Returns
// true when the slot is ours (with `value` stored); else `held` is the key the slot holds now.
bool claim_slot(uint64_t slot_addr, KEY_T seen, uint seen_value, KEY_T key, VALUE_T value,
                out KEY_T held) {
#if PACKED_CAS
    // The whole {key, value} pair is compared: a free slot's value word is whatever the clear
    // or the erased entry left. If only the value word differs from what the (non-atomic)
    // bucket load saw, the slot is still free: try once more with the current pair (a free
    // slot's value does not change while inserts run, so one retry suffices).
    uint64_t desired = packUint2x32(uvec2(key, value));
    uint64_t expected = packUint2x32(uvec2(seen, seen_value));
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], expected, desired);
    if (old != expected && is_free(uint(old))) {
        expected = old;
        old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], expected, desired);
    }
    held = uint(old);
    return old == expected;
#else
#if KEY_BITS == 32
    uint old = atomicCompSwap(U32AtomicRef(slot_addr).v[0], seen, key);
#else
    uint64_t old = atomicCompSwap(U64AtomicRef(slot_addr).v[0], seen, key);
#endif
    if (old == seen) {
#if VALUE_BITS == 32
        // A plain store: only inserts of the same key write this value concurrently, and
        // those use atomicExchange after seeing the key.
        U32Ref(slot_addr + VALUE_OFFSET).v[0] = value;
#else
        atomicExchange(U64AtomicRef(slot_addr + VALUE_OFFSET).v[0], value);
#endif
    }
    held = old;
    return old == seen;
#endif
}

// Inserts or updates one (non-reserved) key: STATUS_INSERTED, STATUS_UPDATED or STATUS_FULL;
// `reused` tells whether a new key took an ERASED slot (the map's tombstone count drops).
// Bounded: at most max_probes buckets searched and at most max_probes buckets (one CAS, or
// two for a packed claim, per free slot) to claim a slot.
//
// 1. Search: the key's probe sequence up to the first bucket that holds an EMPTY slot (no key
//    is ever placed beyond such a bucket: invariant I), or max_probes buckets, looking for the
//    key (found: update its value) and remembering the first free (EMPTY or ERASED) slot.
// 2. Claim the first free slot in probe order from there (or, if the search saw none, from
//    the bucket after the last one searched) with a CAS; a slot taken meanwhile by the same
//    key means another insert of the batch won (update the value), by another key: go on to
//    the next free slot.
// Why inserts of one key in one batch meet at one slot: while inserts run, slots only go from
// free to a key (and keep that key), so every insert of a key walks the same sequence and
// sees the same slots turn permanently to other keys; the first slot in probe order that the
// key claims is the one every other insert of it either claims (one CAS wins) or finds.
uint insert_key(uint64_t buckets, uint num_buckets, uint max_probes, KEY_T key, VALUE_T value,
                out bool reused) {
    reused = false;
    uvec2 h = hash_key(key);
    uint first = vkalgo_hash_first_bucket(h, num_buckets);
    uint step = vkalgo_hash_step(h, num_buckets);
    uint bucket = first;
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    uint free_probe = max_probes;  // probe index of the first bucket with a free slot
    uint free_bucket = 0u;
    uint probe = 0u;
    // `k` holds the bucket at `probe` throughout.
    load_bucket_keys(bucket_address(buckets, bucket), k, w);
    for (; probe < max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(buckets, bucket);
        bool any_empty = false;
        bool any_free = false;
        uint hit = NO_SLOT;
        // No break or return inside the slot loop: CPU drivers unroll it then, and their
        // per-invocation loop cap counts buckets, not slots
        // (docs/driver-bugs.md#lavapipe-loop-limit).
        [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            hit = hit == NO_SLOT && k[j] == key ? j : hit;
            any_empty = any_empty || k[j] == EMPTY_KEY;
            any_free = any_free || is_free(k[j]);
        }
        if (hit != NO_SLOT) {
            UPDATE_VALUE(slot_address(bucket_addr, hit), value);
            return STATUS_UPDATED;
        }
        if (any_free && free_probe == max_probes) {
            free_probe = probe;
            free_bucket = bucket;
        }
        if (any_empty) {
            break;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, num_buckets);
        load_bucket_keys(bucket_address(buckets, bucket), k, w);
    }
    bool reload = false;
    if (free_probe != max_probes) {
        reload = free_probe != probe;
        probe = free_probe;
        bucket = free_bucket;
    }
    for (; probe < max_probes; ++probe) {
        uint64_t bucket_addr = bucket_address(buckets, bucket);
        if (reload) {
            load_bucket_keys(bucket_addr, k, w);
        }
        reload = true;
        // The slots in order until one holds the key or is claimed (no break inside, as above).
        uint outcome = STATUS_FULL;
        uint at = 0u;
        [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
            if (outcome == STATUS_FULL) {
                if (k[j] == key) {
                    outcome = STATUS_UPDATED;
                    at = j;
                } else if (is_free(k[j])) {
                    KEY_T held;
                    if (claim_slot(slot_address(bucket_addr, j), k[j], w[j], key, value, held)) {
                        outcome = STATUS_INSERTED;
                        reused = held == ERASED_KEY;
                    } else if (held == key) {
                        outcome = STATUS_UPDATED;
                        at = j;
                    }
                }
            }
        }
        if (outcome == STATUS_UPDATED) {
            UPDATE_VALUE(slot_address(bucket_addr, at), value);
            return STATUS_UPDATED;
        }
        if (outcome == STATUS_INSERTED) {
            return STATUS_INSERTED;
        }
        bucket = vkalgo_hash_next_bucket(bucket, step, num_buckets);
    }
    return STATUS_FULL;
}

bool is_reserved(KEY_T key) {
    return key >= ERASED_KEY;
}

#include "workgroup_counters.glsl"

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

// Offset of this invocation's key in round r within its tile (below WG_SIZE * 8 <= 8192).
// A key index is tile_start() + key_offset(r) when key_offset(r) < n - tile_start(): that test
// cannot wrap for n up to 2^32 - 1, where tile_start() + key_offset(r) itself could.
uint key_offset(uint r) {
    return r * WG_SIZE + gl_LocalInvocationIndex;
}

#endif
