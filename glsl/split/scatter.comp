#version 460
// Multisplit step 4 (after the scan): every lane group walks its column again, recomputes each
// element's bucket and its rank among the step's peers, writes it to matrix entry (b, column)
// + rank, and advances the entry by the peers' number (the entries of a column belong to its
// group alone). Writes nothing when the status word reports a bad bucket.
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
    uint row = group_in_workgroup() * pc.bucket_count;
    if (in_shared) {
        for (uint b = lane_in_group(); b < pc.bucket_count; b += G) {
            s_counters[row + b] = column < pc.columns ? U32Ref(matrix_addr(b, column)).v[0] : 0u;
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    for (uint s = 0u; s < pc.column_steps; ++s) {
        uint64_t index = start + uint64_t(s * G + lane_in_group());
        bool ok = column < pc.columns && index < uint64_t(n);
        if (subgroupAll(!ok)) {
            break;
        }
        KEY_T key = KEY_T(0);
        uint b = 0u;
        if (ok) {
            key = KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0];
            b = bucket_of(key, index);
            if (b >= pc.bucket_count) {
                ok = false; // (the histogram raised the status: never reached)
                b = 0u;
            }
        }
        uvec4 peers = peers_of(b, subgroupBallot(ok) & gmask);
        uint below = popcount4(peers & gl_SubgroupLtMask);
        bool leader = ok && (peers & gl_SubgroupGtMask) == uvec4(0u);
        uint base;
        if (in_shared) {
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
            KeyRef(pc.keys_out + pos * uint64_t(KEY_BITS / 8)).v[0] = key;
#if VALUE_WORDS > 0
            ValueRef(pc.values_out + pos * uint64_t(VALUE_WORDS * 4u)).v[0] =
                ValueRef(pc.values_in + index * uint64_t(VALUE_WORDS * 4u)).v[0];
#endif
        }
    }
}
