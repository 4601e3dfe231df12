#version 460
// Multisplit, column path, step 4 (after the scan): every lane group walks its column again,
// recomputes each element's bucket and its rank among the step's peers, and writes it to its
// place in the run of matrix entry (b, column): the run ends where entry (b, column)'s
// successor in the scanned matrix begins (the scan is out of place and ends with the total), and
// the count matrix's entry (b, column) holds the places the run has left, which the step's
// leader decrements by the peers' number (the entries of a column belong to its group alone).
// An element with no place left in its run (a bucket function that answered differently here
// than in the count: split_common.glsl STATUS_INCONSISTENT) is not written and raises the
// status; every write lies in its run, so below the count. Writes nothing when the status word
// reports a bad bucket.
#include "split_common.glsl"

void main() {
    if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return; // workgroup-uniform
    }
    vkalgo_params = pc.params;
    uint n = element_count();
    uint column = column_of_lane();
    uint64_t start = uint64_t(column) * column_length();
    uvec4 gmask = group_mask();
    // The count matrix (entries as the scanned one's).
    uint64_t counts = pc.matrix - uint64_t(pc.counts_gap) * 16ul;
    bool inconsistent = false;
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
                    // (The histogram counted every element below m, or the status is set.)
                    inconsistent = true;
                    ok = false;
                    b = 0u;
                }
            }
            uvec4 peers = peers_of(b, ballot(ok) & gmask);
            uint below = popcount4(peers & fold_mask(gl_SubgroupLtMask));
            bool leader = ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u);
            uint64_t entry = (uint64_t(b) * uint64_t(pc.columns) + uint64_t(column)) * 4ul;
            uint left = ok ? U32AtomicRef(counts + entry).v[0] : 0u;
            uint end = ok ? U32Ref(pc.matrix + entry + 4ul).v[0] : 0u;
            subgroupMemoryBarrierBuffer();
            subgroupBarrier(); // every peer has read the entry before the leader lowers it
            if (leader) {
                U32AtomicRef(counts + entry).v[0] = left - min(left, popcount4(peers));
            }
            subgroupMemoryBarrierBuffer();
            subgroupBarrier(); // the next step reads the lowered entry
            if (ok && below >= left) {
                inconsistent = true; // no place left in the run: not written
                ok = false;
            }
            if (ok) {
                uint64_t pos = uint64_t(end - left + below);
                KeyRef(pc.keys_out + pos * uint64_t(KEY_BITS / 8)).v[0] = keys[j];
#if VALUE_WORDS > 0
                ValueRef(pc.values_out + pos * uint64_t(VALUE_WORDS * 4u)).v[0] = values[j];
#endif
            }
        }
    }
    if (inconsistent) {
        report_inconsistent();
    }
}
