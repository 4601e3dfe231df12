#version 460
// Multisplit step 3: offsets[b] = the first output index of bucket b, offsets[m] = count.
// The tile and column paths (after the exclusive scan of the matrix) find it at entry (b, 0);
// the Onesweep path passes the sort histogram's bucket starts in `aux` (word b). Writes nothing
// when the status word reports a bad bucket.
#include "split_common.glsl"

void main() {
    if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return;
    }
    uint b = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
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
