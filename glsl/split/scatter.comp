#version 460
// Multisplit step 4 (after the scan): every lane group walks its column again, recomputes each
// element's bucket and its rank among the step's peers, writes it to matrix entry (b, column)
// + rank, and advances the entry by the peers' number (the entries of a column belong to its
// group alone; with FLAG_REGISTER_COUNTERS or FLAG_SHARED_COUNTERS they are copied to
// registers or shared memory first). Writes
// nothing when the status word reports a bad bucket.
#include "split_common.glsl"

shared uint s_counters[COUNTER_WORDS];

void main() {
    if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return; // workgroup-uniform
    }
    vkalgo_params = pc.params;
    uint n = element_count();
    uint column = column_of_lane();
    uint64_t start = uint64_t(column) * column_length();
    uvec4 gmask = group_mask();
    bool in_shared = shared_counters();
    bool in_registers = register_counters();
    uint row = group_in_workgroup() * pc.bucket_count;
    uint counter = 0u; // register counters: bucket lane_in_group()'s next position
    if (in_registers && column < pc.columns && lane_in_group() < pc.bucket_count) {
        counter = U32Ref(matrix_addr(lane_in_group(), column)).v[0];
    }
    if (in_shared) {
        for (uint b = lane_in_group(); b < pc.bucket_count; b += G) {
            s_counters[row + b] = column < pc.columns ? U32Ref(matrix_addr(b, column)).v[0] : 0u;
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    for (uint s0 = 0u; s0 < pc.column_steps; s0 += BATCH) {
        uint64_t first = start + uint64_t(s0 * G + lane_in_group());
        if (subgroupAll(!(column < pc.columns && first < uint64_t(n)))) {
            break;
        }
        // BATCH independent loads (keys, values) first, then ranking and writes.
        KEY_T keys[BATCH];
#if VALUE_WORDS > 0
        VALUE_T values[BATCH];
#endif
        [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
            uint64_t index = first + uint64_t(j * G);
            bool ok = column < pc.columns && index < uint64_t(n);
            keys[j] = ok ? KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0] : KEY_T(0);
#if VALUE_WORDS > 0
            values[j] = ok ? ValueRef(pc.values_in + index * uint64_t(VALUE_WORDS * 4u)).v[0] : VALUE_T(0);
#endif
        }
        [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
            uint64_t index = first + uint64_t(j * G);
            bool ok = column < pc.columns && index < uint64_t(n);
            uint b = 0u;
            if (ok) {
                b = bucket_of(keys[j], index);
                if (b >= pc.bucket_count) {
                    ok = false; // (the histogram raised the status: never reached)
                    b = 0u;
                }
            }
            uint own_count = 0u;
            uvec4 peers = in_registers ? peers_and_own_count(b, ballot(ok) & gmask, own_count)
                                       : peers_of(b, ballot(ok) & gmask);
            uint below = popcount4(peers & fold_mask(gl_SubgroupLtMask));
            bool leader = ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u);
            uint base;
            if (in_registers) {
                // Lane b of the group holds bucket b's next position.
                base = subgroupShuffle(counter, group_in_subgroup() * G + b);
                counter += own_count;
            } else if (in_shared) {
                base = ok ? s_counters[row + b] : 0u;
                subgroupMemoryBarrierShared();
                subgroupBarrier(); // every peer has read the counter before the leader advances it
                if (leader) {
                    s_counters[row + b] = base + popcount4(peers);
                }
                subgroupMemoryBarrierShared();
                subgroupBarrier(); // the next step reads the advanced counter
            } else {
                base = ok ? U32AtomicRef(matrix_addr(b, column)).v[0] : 0u;
                subgroupMemoryBarrierBuffer();
                subgroupBarrier();
                if (leader) {
                    U32AtomicRef(matrix_addr(b, column)).v[0] = base + popcount4(peers);
                }
                subgroupMemoryBarrierBuffer();
                subgroupBarrier();
            }
            if (ok) {
                uint64_t pos = uint64_t(base + below);
                KeyRef(pc.keys_out + pos * uint64_t(KEY_BITS / 8)).v[0] = keys[j];
#if VALUE_WORDS > 0
                ValueRef(pc.values_out + pos * uint64_t(VALUE_WORDS * 4u)).v[0] = values[j];
#endif
            }
        }
    }
}
