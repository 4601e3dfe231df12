#version 460
// Multisplit step 3 (after the exclusive scan of the matrix): offsets[b] = entry (b, 0),
// offsets[m] = count. Writes nothing when the status word reports a bad bucket.
#include "split_common.glsl"

void main() {
    if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return;
    }
    uint b = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (b > pc.bucket_count) {
        return;
    }
    uint value = b == pc.bucket_count ? element_count() : U32Ref(matrix_addr(b, 0u)).v[0];
    U32Ref(pc.offsets + uint64_t(b) * 4ul).v[0] = value;
}
