#version 460
// Multisplit, Onesweep path with more than 256 buckets (two digit passes): after the split,
// offsets[b] = the first output index whose key's bucket is >= b (a binary search of the
// bucket-ordered output, one invocation per bucket), offsets[m] = count. The digit passes'
// histograms give bucket starts only for one pass. Writes nothing when the status word
// reports a bad bucket.
#define SPLIT_TILES 1
#include "split_common.glsl"

void main() {
    if (U32AtomicRef(pc.scratch).v[0] != 0u) {
        return;
    }
    vkalgo_params = pc.params;
    uint b = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (b > pc.bucket_count) {
        return;
    }
    uint n = element_count();
    uint first = 0u;
    uint len = n;
    // At most 33 halvings of a u32 length.
    [[dont_unroll]] for (uint step = 0u; step < 33u && len > 0u; ++step) {
        uint half_len = len >> 1;
        uint64_t mid = uint64_t(first + half_len);
        KEY_T key = KeyRef(pc.keys_out + mid * uint64_t(KEY_BITS / 8)).v[0];
        if (bucket_of(key, mid) < b) {
            first += half_len + 1u;
            len -= half_len + 1u;
        } else {
            len = half_len;
        }
    }
    U32Ref(pc.offsets + uint64_t(b) * 4ul).v[0] = b == pc.bucket_count ? n : first;
}
