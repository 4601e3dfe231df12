#version 460
// Hash map reclaim: moves stored keys back into tombstones earlier in their probe sequences,
// then turns the tombstones that no stored key needs back into EMPTY slots, in place. A
// tombstone is needed when its bucket lies before a stored key's own bucket in that key's
// probe sequence (the key was placed past it, invariant I in hash_common.glsl); every other
// one can be EMPTY. Five dispatches with barriers between them, the push constants' mode
// naming the pass (generated/hash.glsl):
//
// - RECLAIM_CHECK (one invocation): starts a reclaim when the erases since the last one left
//   more than `count` tombstones; header.reclaiming says so to the passes below, which
//   otherwise return at once.
// - RECLAIM_MOVE: every stored key takes the first tombstone before its own bucket in its probe
//   sequence (a CAS decides between keys), with its value; its old slot becomes a tombstone.
//   Any bucket before its own keeps invariant I for the key. A key that arrives in a bucket
//   may be moved on by that bucket's owner in the same pass (move_into says how safely).
//   Keys placed while the map was fuller thus come back to where a fresh map would hold them,
//   and the tombstones gather where no key passes them.
// - RECLAIM_UNMARK: every tombstone's value word (unused while the slot is ERASED) becomes 0.
// - RECLAIM_MARK: every stored key walks its probe sequence from its first bucket to its own
//   and writes RECLAIM_MARKED into the value word of each tombstone it passes.
// - RECLAIM_SWEEP: every tombstone without the mark becomes EMPTY; the tombstone count drops
//   by their number.
//
// The bucket passes stride over the buckets (max_count buckets apart), so a dispatch that has
// nothing to do costs few workgroups. Runs alone: no other operation on the map in between.
#include "hash_common.glsl"
#include "../generated/hash.glsl"

bool reclaiming() {
    return HashHeaderRef(pc.header_addr).reclaiming != 0u;
}

void check() {
    if (gl_LocalInvocationIndex != 0u || linear_workgroup_id() != 0u) {
        return;
    }
    HashHeaderRef h = HashHeaderRef(pc.header_addr);
    bool start = h.erased_since > pc.count;
    h.reclaiming = start ? 1u : 0u;
    if (start) {
        h.erased_since = 0u;
    }
}

// A whole slot, read and written with one vector access (coherent: never a stale cache line).
#if SLOT_BYTES == 8
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer SlotRef { uvec2 v; };
#else
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer SlotRef { uvec4 v; };
#endif

// Moves the key of the slot at `from` into a tombstone of `bucket`, if it holds one that no
// other key takes first; true when moved. The tombstone is claimed by a CAS to EMPTY (which
// no mover claims and no owner moves), then gets the slot so that an owner that sees the key
// arrive in its bucket, and moves it on, reads the whole key and its value: on GPUs in one
// vector store of key and value (aligned vector stores are seen whole there), with
// RECLAIM_MOVE_KEY_LAST (CPU drivers, which store a vector a component at a time) the value
// first and then the key by a CAS. A barrier between two stores breaks lavapipe
// (docs/driver-bugs.md#lavapipe-divergent-barrier), so neither form has one.
bool move_into(uint bucket, uint64_t from) {
    uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    load_bucket_keys(bucket_addr, k, w);
    bool moved = false;
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if (!moved && k[j] == ERASED_KEY) {
            uint64_t slot = slot_address(bucket_addr, j);
#if KEY_BITS == 32
            moved = atomicCompSwap(U32AtomicRef(slot).v[0], ERASED_KEY, EMPTY_KEY) == ERASED_KEY;
#else
            moved = atomicCompSwap(U64AtomicRef(slot).v[0], ERASED_KEY, EMPTY_KEY) == ERASED_KEY;
#endif
            if (moved && pc.mode == RECLAIM_MOVE_KEY_LAST) {
                // The value, then the key by a CAS: an owner sees EMPTY or the whole key, and
                // its value with it (no barrier between the two stores: the lavapipe entry).
                KEY_T key;
                VALUE_T value;
                load_slot(from, key, value);
#if VALUE_BITS == 32
                U32Ref(slot + VALUE_OFFSET).v[0] = value;
#else
                U64Ref(slot + VALUE_OFFSET).v[0] = value;
#endif
#if KEY_BITS == 32
                atomicCompSwap(U32AtomicRef(slot).v[0], EMPTY_KEY, key);
#else
                atomicCompSwap(U64AtomicRef(slot).v[0], EMPTY_KEY, key);
#endif
            } else if (moved) {
                SlotRef(slot).v = SlotRef(from).v;
            }
            if (moved) {
#if KEY_BITS == 32
                U32AtomicRef(from).v[0] = ERASED_KEY;
#else
                U64AtomicRef(from).v[0] = ERASED_KEY;
#endif
            }
        }
    }
    return moved;
}

// Moves each key stored in `bucket` to the first tombstone before it in its probe sequence.
void move_back(uint bucket) {
    uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    load_bucket_keys(bucket_addr, k, w);
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if (!is_free(k[j])) {
            uvec2 h = hash_key(k[j]);
            uint step = vkalgo_hash_step(h, pc.num_buckets);
            uint at = vkalgo_hash_first_bucket(h, pc.num_buckets);
            bool moved = false;
            // The key lies within max_probes buckets of its sequence.
            for (uint probe = 0u; probe < pc.max_probes && at != bucket && !moved; ++probe) {
                moved = move_into(at, slot_address(bucket_addr, j));
                at = vkalgo_hash_next_bucket(at, step, pc.num_buckets);
            }
        }
    }
}

// Writes `word` into the value word of every tombstone of `bucket`.
void mark_tombstones(uint bucket, uint word) {
    uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    load_bucket_keys(bucket_addr, k, w);
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if (k[j] == ERASED_KEY) {
            U32Ref(slot_address(bucket_addr, j) + VALUE_OFFSET).v[0] = word;
        }
    }
}

// Marks the tombstones of the buckets that the keys stored in `bucket` passed.
void mark_passed(uint bucket) {
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    load_bucket_keys(bucket_address(pc.buckets_addr, bucket), k, w);
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if (!is_free(k[j])) {
            uvec2 h = hash_key(k[j]);
            uint step = vkalgo_hash_step(h, pc.num_buckets);
            uint at = vkalgo_hash_first_bucket(h, pc.num_buckets);
            // The key lies within max_probes buckets of its sequence.
            for (uint probe = 0u; probe < pc.max_probes && at != bucket; ++probe) {
                mark_tombstones(at, RECLAIM_MARKED);
                at = vkalgo_hash_next_bucket(at, step, pc.num_buckets);
            }
        }
    }
}

// Turns the unmarked tombstones of `bucket` EMPTY; returns how many.
uint sweep(uint bucket) {
    uint64_t bucket_addr = bucket_address(pc.buckets_addr, bucket);
    KEY_T k[BUCKET_SLOTS];
    uint w[BUCKET_SLOTS];
    load_bucket_keys(bucket_addr, k, w);
    uint swept = 0u;
    [[unroll]] for (uint j = 0u; j < BUCKET_SLOTS; ++j) {
        if (k[j] == ERASED_KEY) {
            uint64_t slot = slot_address(bucket_addr, j);
            if (U32Ref(slot + VALUE_OFFSET).v[0] != RECLAIM_MARKED) {
#if KEY_BITS == 32
                U32Ref(slot).v[0] = EMPTY_KEY;
#else
                U64Ref(slot).v[0] = EMPTY_KEY;
#endif
                swept++;
            }
        }
    }
    return swept;
}

void main() {
    if (pc.mode == RECLAIM_CHECK) {
        check();
        return;
    }
    if (!reclaiming()) {
        return;
    }
    uint swept = 0u;
    for (uint bucket = global_index(); bucket < pc.num_buckets; bucket += pc.max_count) {
        if (pc.mode == RECLAIM_MOVE || pc.mode == RECLAIM_MOVE_KEY_LAST) {
            move_back(bucket);
        } else if (pc.mode == RECLAIM_UNMARK) {
            mark_tombstones(bucket, 0u);
        } else if (pc.mode == RECLAIM_MARK) {
            mark_passed(bucket);
        } else {
            swept += sweep(bucket);
        }
    }
    if (pc.mode == RECLAIM_SWEEP) {
        // tombstones -= swept
        add_to_counters(uvec3(0u - swept, 0u, 0u), pc.header_addr + 4ul, 0ul, 0ul);
    }
}
