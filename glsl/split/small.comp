#version 460
// Multisplit of a small count in ONE workgroup and one dispatch: the count matrix lives in
// shared memory (m x columns <= SMALL_WORDS entries); the lane groups count their columns,
// the workgroup scans the matrix, writes the offsets and the status word, and the lane groups
// scatter their columns. The same columns, ranks and results as the multi-pass path (see
// split_common.glsl). On a bucket >= m only the status word is written.
//
// After the scan each matrix entry holds its first position in the low 16 bits and its end (the
// first position plus the count of its bucket in its column) in the high 16 (the path splits at
// most 16384 elements: src/split/mod.rs small_cap); the scatter advances the low half and writes
// an element only below the end. An element past it (a bucket function that answered
// differently in the two walks) is not written and sets STATUS_INCONSISTENT: as the walks meet
// every element once, no entry falls short unless another one overflows, so a run with any
// element out of its counted place reports it.
#include "split_common.glsl"
#include "../common/workgroup_scan.glsl"

shared uint s_matrix[SMALL_WORDS];
shared uint s_bad;

void main() {
    vkalgo_params = pc.params;
    uint n = element_count();
    uint lid = gl_LocalInvocationIndex;
    uint columns = pc.columns;
    uint entries = pc.bucket_count * columns;
    for (uint i = lid; i < entries; i += WG_SIZE) {
        s_matrix[i] = 0u;
    }
    if (lid == 0u) {
        s_bad = 0u;
    }
    barrier();
    uint groups = WG_SIZE / G;
    uint g = group_in_workgroup();
    uvec4 gmask = group_mask();
    uint rounds = (columns + groups - 1u) / groups; // the same for every lane: uniform loops
    bool bad = false;
    // 1. Counts: lane group g takes columns g, g + groups, ...; its entries are its own.
    for (uint r = 0u; r < rounds; ++r) {
        uint c = g + r * groups;
        uint64_t start = uint64_t(c) * column_length();
        for (uint s = 0u; s < pc.column_steps; ++s) {
            uint64_t index = start + uint64_t(s * G + lane_in_group());
            bool ok = c < columns && index < uint64_t(n);
            if (subgroupAll(!ok)) {
                break;
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
            uvec4 peers = peers_of(b, ballot(ok) & gmask);
            if (ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u)) {
                s_matrix[b * columns + c] += popcount4(peers);
            }
            subgroupMemoryBarrierShared();
            subgroupBarrier();
        }
    }
    if (bad) {
        atomicOr(s_bad, 1u);
    }
    barrier();
    if (s_bad != 0u) {
        if (lid == 0u) {
            U32Ref(pc.scratch).v[0] = STATUS_BAD_BUCKET;
        }
        return; // workgroup-uniform: nothing else is written
    }
    // 2. Exclusive scan of the bucket-major matrix: each invocation a contiguous chunk.
    uint per = (entries + WG_SIZE - 1u) / WG_SIZE;
    uint begin = min(lid * per, entries);
    uint end = min(begin + per, entries);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) {
        sum += s_matrix[i];
    }
    uint total;
    uint running = workgroup_exclusive_scan(sum, total);
    for (uint i = begin; i < end; ++i) {
        uint x = s_matrix[i];
        s_matrix[i] = running | ((running + x) << 16); // first position | end (below 2^16)
        running += x;
    }
    barrier();
    for (uint b = lid; b <= pc.bucket_count; b += WG_SIZE) {
        U32Ref(pc.offsets + uint64_t(b) * 4ul).v[0] = b < pc.bucket_count ? s_matrix[b * columns] & 0xFFFFu : n;
    }
    barrier(); // column 0's entries have been read before its lane group advances them
    bool inconsistent = false;
    // 3. Scatter: the same walk, each element to its entry + rank.
    for (uint r = 0u; r < rounds; ++r) {
        uint c = g + r * groups;
        uint64_t start = uint64_t(c) * column_length();
        for (uint s = 0u; s < pc.column_steps; ++s) {
            uint64_t index = start + uint64_t(s * G + lane_in_group());
            bool ok = c < columns && index < uint64_t(n);
            if (subgroupAll(!ok)) {
                break;
            }
            KEY_T key = KEY_T(0);
            uint b = 0u;
            if (ok) {
                key = KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0];
                b = min(bucket_of(key, index), pc.bucket_count - 1u); // (all < m: checked above)
            }
            uvec4 peers = peers_of(b, ballot(ok) & gmask);
            uint below = popcount4(peers & fold_mask(gl_SubgroupLtMask));
            uint entry = ok ? s_matrix[b * columns + c] : 0u;
            uint base = entry & 0xFFFFu;
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            if (ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u)) {
                // (At most 2n < 2^16 even past the end.)
                s_matrix[b * columns + c] = (entry & 0xFFFF0000u) | (base + popcount4(peers));
            }
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            if (ok && base + below >= (entry >> 16)) {
                inconsistent = true; // past the entry's counted run: not written
                ok = false;
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
    if (inconsistent) {
        atomicOr(s_bad, 1u);
    }
    barrier();
    if (lid == 0u) {
        U32Ref(pc.scratch).v[0] = s_bad != 0u ? STATUS_INCONSISTENT : 0u;
    }
}
