#version 460
// Hash map insert-or-apply with each workgroup's equal keys combined in shared memory first
// (u32 keys and values, no per-key statuses; src/hash/apply.rs picks it). A workgroup walks
// its share of the batch's tiles (grid-stride), loads a tile's APPLY_KEYS keys per invocation
// at once (the next tile's loads in flight while one is combined), adds each (key, value) to a
// shared table of SHARED_SLOTS slots (a key claims a slot
// by CAS, its value goes in by a shared atomic on the operation's identity), and at the end
// applies each slot's combined value to the map once, as apply.comp applies one key. A key that
// finds no shared slot within its probes goes to the map directly. The same map results as
// apply.comp (the operations are associative and commutative). The failure counter counts
// the batch's reserved keys and every key left out: all inserts of a key share its fate (slots
// only go from free to a key during the batch), so only when an insert fails (a full table)
// does the workgroup walk its keys again and count those the map refuses, each tried once more
// with the operation's identity. The common path keeps no count of the keys a slot stands for.
// A subgroup whose tiles hold one key throughout (a batch of few keys) combines them in
// registers, each lane its own values, and adds the run to the shared table when the key
// changes and at the end. Once half of the table's slots are claimed (a batch of many keys),
// a key looks at SATURATED_PROBES slots only: the keys it still meets are mostly absent.
#define HASH_APPLY 1
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_memory_scope_semantics : require
#include "hash_common.glsl"

#if KEY_BITS != 32 || VALUE_BITS != 32
#error "apply_shared.comp: u32 keys and values only"
#endif

// Keys an invocation loads per tile (constant_id 5) and the shared table's slots (constant_id
// 6), from src/hash/tuning.rs: on CPU drivers few, so that the final walk's map inserts stay
// under their cap on an invocation's loop iterations.
layout(constant_id = 5) const uint APPLY_KEYS = 1;
layout(constant_id = 6) const uint SHARED_SLOTS = 512;
const uint SHARED_PROBES = 8u;
const uint SATURATED_PROBES = 2u;

shared uint s_key[SHARED_SLOTS];
shared uint s_value[SHARED_SLOTS];
shared uint s_any_failed;
shared uint s_claimed;  // slots claimed so far

uint apply_identity() {
    return (pc.mode & APPLY_OP_MASK) == APPLY_OP_MIN ? ~0u : 0u;
}

uint apply_op(uint a, uint b) {
    uint op = pc.mode & APPLY_OP_MASK;
    return op == APPLY_OP_SUM ? a + b : op == APPLY_OP_MIN ? min(a, b) : max(a, b);
}

uint combine_in_subgroup(uint value) {
    uint op = pc.mode & APPLY_OP_MASK;
    if (op == APPLY_OP_SUM) {
        return subgroup_sum(value);
    }
    return op == APPLY_OP_MIN ? subgroupMin(value) : subgroupMax(value);
}

uint first_shared_slot(uint key) {
    uint h = key * 0x9e3779b1u;
    return uint((uint64_t(h ^ (h >> 15)) * uint64_t(SHARED_SLOTS)) >> 32);
}

uint next_shared_slot(uint at) {
    return at + 1u == SHARED_SLOTS ? 0u : at + 1u;
}

// Adds `value` to `key`'s shared slot; false when none of the `probes` slots from its hash
// holds it or is free. A slot already holding the key costs a load and the value's atomic.
bool add_to_shared(uint key, uint value, uint probes) {
    uint at = first_shared_slot(key);
    uint op = pc.mode & APPLY_OP_MASK;
    for (uint p = 0u; p < probes; ++p) {
        uint held = atomicLoad(s_key[at], gl_ScopeWorkgroup, 0, 0);
        if (held == EMPTY_KEY) {
            held = atomicCompSwap(s_key[at], EMPTY_KEY, key);
            if (held == EMPTY_KEY) {
                atomicAdd(s_claimed, 1u);
            }
        }
        if (held == EMPTY_KEY || held == key) {
            if (op == APPLY_OP_SUM) {
                atomicAdd(s_value[at], value);
            } else if (op == APPLY_OP_MIN) {
                atomicMin(s_value[at], value);
            } else {
                atomicMax(s_value[at], value);
            }
            return true;
        }
        at = next_shared_slot(at);
    }
    return false;
}

// Applies (key, value) to the map, counting what the workgroup adds to the map's counters.
void apply_to_map(uint key, uint value, inout uint inserted, inout uint reused_slots,
                  inout bool any_failed) {
    bool reused = false;
    uint status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes, key, value, reused);
    inserted += status == STATUS_INSERTED ? 1u : 0u;
    reused_slots += reused ? 1u : 0u;
    any_failed = any_failed || status >= STATUS_FULL;
}

// Adds a subgroup's run (a subgroup-uniform key, EMPTY_KEY: none, and each lane's combined
// values) to the shared table, else to the map, by one invocation.
void flush_run(uint key, uint lane_value, inout uint inserted, inout uint reused_slots,
               inout bool any_failed) {
    if (key == EMPTY_KEY) {
        return;
    }
    uint value = combine_in_subgroup(lane_value);
    if (subgroupElect() && !add_to_shared(key, value, SHARED_PROBES)) {
        apply_to_map(key, value, inserted, reused_slots, any_failed);
    }
}

// Tile T's keys and values into KEYS and VALUES, loaded together; past the tiles or the count
// a key reads as the (reserved, skipped) empty key.
#define LOAD_TILE(T, KEYS, VALUES) \
    { \
        bool live_ = (T) < tiles; \
        uint tile_first_ = live_ ? (T) * tile_keys : 0u; \
        [[unroll]] for (uint r = 0u; r < APPLY_KEYS; ++r) { \
            uint offset_ = r * WG_SIZE + gl_LocalInvocationIndex; \
            bool present_ = live_ && offset_ < n - tile_first_; \
            KEYS[r] = present_ ? load_key(pc.keys_addr, tile_first_ + offset_) : EMPTY_KEY; \
            VALUES[r] = present_ ? load_value(pc.values_addr, tile_first_ + offset_) : 0u; \
        } \
    }

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    for (uint s = gl_LocalInvocationIndex; s < SHARED_SLOTS; s += WG_SIZE) {
        s_key[s] = EMPTY_KEY;
        s_value[s] = apply_identity();
    }
    if (gl_LocalInvocationIndex == 0u) {
        s_any_failed = 0u;
        s_claimed = 0u;
    }
    barrier();
    uint inserted = 0u;
    uint reused_slots = 0u;
    uint failed = 0u;
    bool any_failed = false;
    const uint tile_keys = WG_SIZE * APPLY_KEYS;
    uint tiles = n / tile_keys + (n % tile_keys != 0u ? 1u : 0u);
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    // The subgroup's run of whole tiles of one key (subgroup-uniform), each lane's values
    // combined in its registers: a batch of few keys costs no atomic and no reduction per tile.
    uint run_key = EMPTY_KEY;
    uint run_value = apply_identity();
    // One pass more than the workgroup's tiles (`done`, workgroup-uniform) flushes the run.
    uint keys[APPLY_KEYS];
    uint values[APPLY_KEYS];
    uint t = linear_workgroup_id();
    LOAD_TILE(t, keys, values);
    for (;; t += groups) {
        bool done = t >= tiles;
        uint first = done ? 0u : t * tile_keys;  // below n: t < tiles
        // The next tile's loads in flight while this one is combined.
        uint next_keys[APPLY_KEYS];
        uint next_values[APPLY_KEYS];
        LOAD_TILE(t + groups, next_keys, next_values);
        // A subgroup whose lanes all hold one key, all of its tile's keys, adds them to its
        // run; a run of another key goes to the shared table (or the map) first. A tile that
        // continues the run costs one vote.
        bool one_key = !is_reserved(keys[0]);
        uint one_value = values[0];
        [[unroll]] for (uint r = 1u; r < APPLY_KEYS; ++r) {
            one_key = one_key && keys[r] == keys[0];
            one_value = apply_op(one_value, values[r]);
        }
        bool continues_run = subgroupAll(one_key && keys[0] == run_key);
        bool uniform_tile =
            continues_run || (subgroupAll(one_key) && subgroupAllEqual(keys[0]));
        if ((uniform_tile || done) && keys[0] != run_key) {
            flush_run(run_key, run_value, inserted, reused_slots, any_failed);
            run_key = keys[0];  // EMPTY_KEY (no run) when done
            run_value = apply_identity();
        }
        if (done) {
            break;
        }
        if (uniform_tile) {
            run_value = apply_op(run_value, one_value);
        } else {
            uint claimed = atomicLoad(s_claimed, gl_ScopeWorkgroup, 0, 0);
            uint probes = claimed > SHARED_SLOTS / 2u ? SATURATED_PROBES : SHARED_PROBES;
            for (uint r = 0u; r < APPLY_KEYS; ++r) {
                uint key = keys[r];
                uint value = values[r];
                // A reserved key of the batch counts as failed, as in insert.comp.
                failed += is_reserved(key) && r * WG_SIZE + gl_LocalInvocationIndex < n - first ? 1u : 0u;
                if (!is_reserved(key)) {
                    // A subgroup whose active lanes hold one key combines their values first.
                    bool uniform_key = subgroupAllEqual(key);
                    if (uniform_key) {
                        value = combine_in_subgroup(value);
                    }
                    if ((!uniform_key || subgroupElect()) && !add_to_shared(key, value, probes)) {
                        apply_to_map(key, value, inserted, reused_slots, any_failed);
                    }
                }
            }
        }
        [[unroll]] for (uint r = 0u; r < APPLY_KEYS; ++r) {
            keys[r] = next_keys[r];
            values[r] = next_values[r];
        }
    }
    barrier();
    // Each combined key to the map, once.
    for (uint s = gl_LocalInvocationIndex; s < SHARED_SLOTS; s += WG_SIZE) {
        uint key = s_key[s];
        if (key != EMPTY_KEY) {
            apply_to_map(key, s_value[s], inserted, reused_slots, any_failed);
        }
    }
    if (subgroupAny(any_failed) && subgroupElect()) {
        s_any_failed = 1u;
    }
    barrier();
    // A full table: the workgroup's keys again, each refused one counted (the identity leaves
    // a present key's value as it is; an absent one finds no room, as before).
    if (s_any_failed != 0u) {
        for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
            uint first = t * tile_keys;
            for (uint r = 0u; r < APPLY_KEYS; ++r) {
                uint offset = r * WG_SIZE + gl_LocalInvocationIndex;
                if (offset < n - first) {
                    uint key = load_key(pc.keys_addr, first + offset);
                    if (!is_reserved(key)) {
                        bool reused = false;
                        uint status = insert_key(pc.buckets_addr, pc.num_buckets, pc.max_probes,
                                                 key, apply_identity(), reused);
                        failed += status >= STATUS_FULL ? 1u : 0u;
                    }
                }
            }
        }
    }
    // size += inserted, tombstones -= reused, failed += failed
    add_to_counters(uvec3(inserted, 0u - reused_slots, failed), pc.header_addr,
                    pc.header_addr + 4ul, pc.failed_addr);
}
