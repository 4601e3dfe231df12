#version 460
// Multisplit, column path, step 1: every lane group counts the buckets of its column into the
// bucket-major matrix (cleared by the host's vkCmdFillBuffer) with one atomic add per bucket
// and step by the step's leader, and raises the status word on a bucket >= m (that element is
// not counted). See split_common.glsl.
#include "split_common.glsl"

void main() {
    vkalgo_params = pc.params;
    uint n = element_count();
    uint column = column_of_lane();
    uint64_t start = uint64_t(column) * column_length();
    uvec4 gmask = group_mask();
    bool bad = false;
    for (uint s0 = 0u; s0 < pc.column_steps; s0 += BATCH) {
        // BATCH independent loads first, then the ranking.
        uint64_t first = start + uint64_t(s0 * G + lane_in_group());
        if (subgroupAll(!(column < pc.columns && first < uint64_t(n)))) {
            break; // every later step of every group of this subgroup is past the end too
        }
        KEY_T keys[BATCH];
        [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
            uint64_t index = first + uint64_t(j * G);
            bool ok = column < pc.columns && index < uint64_t(n);
            keys[j] = ok ? KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0] : KEY_T(0);
        }
        [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
            uint64_t index = first + uint64_t(j * G);
            bool ok = column < pc.columns && index < uint64_t(n);
            uint b = 0u;
            if (ok) {
                b = bucket_of(keys[j], index);
                if (b >= pc.bucket_count) {
                    bad = true;
                    ok = false;
                    b = 0u;
                }
            }
            uvec4 peers = peers_of(b, ballot(ok) & gmask);
            if (ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u)) {
                atomicAdd(U32AtomicRef(matrix_addr(b, column)).v[0], popcount4(peers));
            }
        }
    }
    if (bad) {
        atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
    }
}
