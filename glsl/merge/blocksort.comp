#version 460
// Merge sort, first step: each workgroup sorts one block of TILE elements (stable), in
// place or into another buffer. Every invocation sorts its ITEMS keys in registers (odd-even
// transposition: swaps only strictly greater keys, so equal keys keep their order); then
// log2(WG_SIZE) rounds merge neighbouring runs in shared memory by the merge path, as the
// merge kernel does (ModernGPU's block sort has the same shape). A partial last block is padded
// with the largest key after its elements: the sort is stable, so the padding stays behind
// every real key, equal ones included. WG_SIZE must be a power of two.
#include "merge_common.glsl"

shared KEY_T s_keys[TILE];
shared uint s_src[TILE];

void main() {
    uint n = count_a();
    uint64_t start64 = uint64_t(linear_workgroup_id()) * uint64_t(TILE);
    if (start64 >= uint64_t(n)) {
        return;
    }
    uint start = uint(start64);
    uint len = min(n - start, TILE);
    for (uint x = gl_LocalInvocationIndex; x < TILE; x += WG_SIZE) {
        s_keys[x] = x < len ? load_ordered(pc.a_keys, uint64_t(start + x)) : KEY_MAX;
    }
    barrier();
    uint first = gl_LocalInvocationIndex * ITEMS;
    KEY_T k[ITEMS];
    uint src[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        k[e] = s_keys[first + e];
        src[e] = first + e;
    }
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        [[unroll]] for (uint e = r & 1u; e + 1u < ITEMS; e += 2u) {
            if (k[e + 1u] < k[e]) {
                KEY_T tk = k[e];
                k[e] = k[e + 1u];
                k[e + 1u] = tk;
                uint ts = src[e];
                src[e] = src[e + 1u];
                src[e + 1u] = ts;
            }
        }
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        s_keys[first + e] = k[e];
        s_src[first + e] = src[e];
    }
    barrier();
    for (uint w = ITEMS; w < TILE; w *= 2u) {
        uint pair = (first / (2u * w)) * (2u * w);
        uint d = first - pair;
        uint lo = d > w ? d - w : 0u;
        uint hi = min(d, w);
        while (lo < hi) {
            uint mid = (lo + hi) >> 1;
            if (s_keys[pair + mid] <= s_keys[pair + w + d - 1u - mid]) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        uint ai = pair + lo;
        uint bi = pair + w + d - lo;
        uint a_end = pair + w;
        uint b_end = pair + 2u * w;
        [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
            KEY_T ka = s_keys[min(ai, TILE - 1u)];
            KEY_T kb = s_keys[min(bi, TILE - 1u)];
            bool take_a = ai < a_end && (bi >= b_end || ka <= kb);
            k[e] = take_a ? ka : kb;
            src[e] = take_a ? s_src[ai] : s_src[min(bi, TILE - 1u)];
            ai += take_a ? 1u : 0u;
            bi += take_a ? 0u : 1u;
        }
        barrier();
        [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
            s_keys[first + e] = k[e];
            s_src[first + e] = src[e];
        }
        barrier();
    }
#if VALUE_WORDS > 0
    // All reads of the block's values happen before any write (the sort may be in place).
    VALUE_T held[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = gl_LocalInvocationIndex + e * WG_SIZE;
        if (x < len) {
            held[e] = load_value(pc.a_values, uint64_t(start + s_src[x]));
        }
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = gl_LocalInvocationIndex + e * WG_SIZE;
        if (x < len) {
            store_value(pc.out_values, uint64_t(start + x), held[e]);
        }
    }
#endif
    for (uint x = gl_LocalInvocationIndex; x < len; x += WG_SIZE) {
        store_key(pc.out_keys, uint64_t(start + x), raw_bits(s_keys[x]));
    }
}
