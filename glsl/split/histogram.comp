#version 460
// Multisplit step 1: every lane group counts the buckets of its column into the bucket-major
// matrix (cleared by the host's vkCmdFillBuffer), and raises the status word on a bucket >= m
// (that element is not counted). See split_common.glsl.
#include "split_common.glsl"

void main() {
    vkalgo_params = pc.params;
    uint n = element_count();
    uint column = column_of_lane();
    uint64_t start = uint64_t(column) * column_length();
    uvec4 gmask = group_mask();
    bool bad = false;
    KeyRef keys = KeyRef(pc.keys_in);
    for (uint s = 0u; s < pc.column_steps; ++s) {
        uint64_t index = start + uint64_t(s * G + lane_in_group());
        bool ok = column < pc.columns && index < uint64_t(n);
        if (subgroupAll(!ok)) {
            break; // every later step of every group of this subgroup is past the end too
        }
        uint b = 0u;
        if (ok) {
            b = bucket_of(KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0], index);
            if (b >= pc.bucket_count) {
                bad = true;
                ok = false;
                b = 0u;
            }
        }
        uvec4 peers = peers_of(b, subgroupBallot(ok) & gmask);
        bool leader = ok && (peers & gl_SubgroupGtMask) == uvec4(0u);
        if (leader) {
            atomicAdd(U32AtomicRef(matrix_addr(b, column)).v[0], popcount4(peers));
        }
    }
    if (bad) {
        atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
    }
}
