#version 460
// Multisplit step 3: offsets[b] = the first output index of bucket b, offsets[m] = count.
// The tile and column paths (after the exclusive scan of the matrix) find it at entry (b, 0);
// the Onesweep path passes the sort histogram's bucket starts in `aux` (word b). Writes nothing
// when a bucket was bad: as the status word says, or with SPLIT_FLAG_TOTAL_STATUS as the
// scanned matrix's total says (this pass then raises STATUS_BAD_BUCKET in the status word,
// which the tile count zeroed: the tile scatter, running beside this pass, may raise
// STATUS_INCONSISTENT in it).
#include "split_common.glsl"

void main() {
    uint b = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if ((pc.flags & SPLIT_FLAG_TOTAL_STATUS) != 0u) {
        bool bad = tile_split_bad();
        if (bad) {
            if (b == 0u) {
                atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
            }
            return;
        }
    } else if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return;
    }
    if (b > pc.bucket_count) {
        return;
    }
    uint first;
    if (b == pc.bucket_count) {
        first = element_count();
    } else if (pc.aux != 0ul) {
        first = U32Ref(pc.aux + uint64_t(b) * 4ul).v[0];
    } else {
        first = U32Ref(matrix_addr(b, 0u)).v[0];
    }
    U32Ref(pc.offsets + uint64_t(b) * 4ul).v[0] = first;
}
