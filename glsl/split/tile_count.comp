#version 460
// Multisplit, tile path, step 1: every workgroup counts the buckets of its tile (TILE_LENGTH
// elements, see split_common.glsl) into column `tile` of the bucket-major matrix (every entry
// of the tile's column is written, zeros included, so the matrix needs no clearing), and raises
// the status word on a bucket >= m (that element is not counted). One shared atomic add per
// element: on an NVIDIA H100 this read 2^26 keys in 0.15 ms at m <= 32 (0.20 ms at m = 256),
// where ballots per id bit and a leader's add took 0.27-0.60 ms.
//
// Workgroups take the tiles in reverse (workgroup w counts tile columns - 1 - w): GPUs start
// workgroups in id order, so the tiles this pass reads last are the first ones the scatter pass
// (in tile order) reads again, while some are still in L2. On an H200 the direct path gained
// 1.7-1.9% for keys and 3.5-5% for u32 -> u32 pairs at 2^24 (m = 2, 3), under 1% at 2^26
// (docs/benchmarks/2026-11-23-h200-multisplit-scan.md).
#define SPLIT_TILES 1
#define SPLIT_TILE_KERNEL 1 // loops over id bits unrolled to the plan's count (bucket_fn.glsl)
#include "split_common.glsl"

// The tile's m counters (the plan gives this pass its own COUNTER_WORDS >= m).
shared uint s_counts[COUNTER_WORDS];

void main() {
    uint wg = linear_workgroup_id();
    if (wg >= pc.columns) {
        return; // workgroup-uniform
    }
    uint tile = pc.columns - 1u - wg;
    vkalgo_params = pc.params;
    uint n = element_count();
    uint m = pc.bucket_count;
    uint lid = gl_LocalInvocationIndex;
    for (uint b = lid; b < m; b += WG_SIZE) {
        s_counts[b] = 0u;
    }
    barrier();
    bool bad = false;
    KEY_T keys[BATCH];
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        uint64_t index = tile_item_index(tile, i);
        keys[i] = index < uint64_t(n) ? KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0] : KEY_T(0);
    }
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        uint64_t index = tile_item_index(tile, i);
        bool ok = index < uint64_t(n);
        uint b = 0u;
        if (ok) {
            b = bucket_of(keys[i], index);
            if (b >= m) {
                bad = true;
                ok = false;
                b = 0u;
            }
        }
        if (ok) {
            atomicAdd(s_counts[b], 1u);
        }
    }
    barrier();
    for (uint b = lid; b < m; b += WG_SIZE) {
        U32Ref(matrix_addr(b, tile)).v[0] = s_counts[b];
    }
    if (bad) {
        atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
    }
}
