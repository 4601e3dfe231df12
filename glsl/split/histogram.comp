#version 460
// Multisplit step 1: every lane group counts the buckets of its column into the bucket-major
// matrix, and raises the status word on a bucket >= m (that element is not counted). Counters
// in registers (FLAG_REGISTER_COUNTERS) or shared memory (FLAG_SHARED_COUNTERS): each
// column's entries are then written at the end; else in the matrix itself (cleared by the
// host's vkCmdFillBuffer). See split_common.glsl.
#include "split_common.glsl"

shared uint s_counters[COUNTER_WORDS];

void main() {
    vkalgo_params = pc.params;
    uint n = element_count();
    uint column = column_of_lane();
    uint64_t start = uint64_t(column) * column_length();
    uvec4 gmask = group_mask();
    bool bad = false;
    bool in_shared = shared_counters();
    bool in_registers = register_counters();
    uint counter = 0u; // register counters: bucket lane_in_group()'s count
    uint row = group_in_workgroup() * pc.bucket_count;
    if (in_shared) {
        for (uint b = lane_in_group(); b < pc.bucket_count; b += G) {
            s_counters[row + b] = 0u;
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
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
            if (in_registers) {
                uint own_count;
                peers_and_own_count(b, ballot(ok) & gmask, own_count);
                counter += own_count;
                continue;
            }
            uvec4 peers = peers_of(b, ballot(ok) & gmask);
            bool leader = ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u);
            if (in_shared) {
                // One leader per bucket and group: the group's row is its own.
                if (leader) {
                    s_counters[row + b] += popcount4(peers);
                }
                subgroupMemoryBarrierShared();
                subgroupBarrier();
            } else if (leader) {
                atomicAdd(U32AtomicRef(matrix_addr(b, column)).v[0], popcount4(peers));
            }
        }
    }
    if (in_registers && column < pc.columns && lane_in_group() < pc.bucket_count) {
        U32Ref(matrix_addr(lane_in_group(), column)).v[0] = counter;
    }
    if (in_shared && column < pc.columns) {
        // Every entry of the column is written (the matrix is not cleared in this mode).
        for (uint b = lane_in_group(); b < pc.bucket_count; b += G) {
            U32Ref(matrix_addr(b, column)).v[0] = s_counters[row + b];
        }
    }
    if (bad) {
        atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
    }
}
