// Bucket functions: the bucket of a key, for the multisplit's passes
// (glsl/split/split_common.glsl) and for the radix sort's digit-pass bucket hook
// (glsl/sort/sort_common.glsl with SPLIT_BUCKETS: a pass whose digit is the key's bucket, which
// the multisplit's Onesweep split runs).
//
// The includer defines KEY_T, KEY_BITS, KeyRef, ordered_bits(KEY_T) (the key's
// order-preserving bits) and BUCKET_FN (0 BITS, 1 SPLITTERS, 2 IDS, 3 GLSL: then
// KEY_TYPE_CODE 0..5 names the key type of the caller's `uint vkalgo_bucket(T key)`, included
// as "vkalgo_bucket.glsl"), and a push block `pc` with aux (SPLITTERS: the splitter index
// glsl/split/splitter_index.comp builds; IDS: one u32 per element), bucket_count, bit_offset
// (BITS), id_bits and params. With KEY_TYPE_CODE 5 (double) the includer enables
// GL_EXT_shader_explicit_arithmetic_types_float64 first (extension directives come before any
// code).
#ifndef VKALGO_BUCKET_FN_GLSL
#define VKALGO_BUCKET_FN_GLSL

// MAX_ID_BITS (bucket ids have at most this many bits), SPLITTERS_PLAIN_MAX and the status
// bits: generated from src/split/shared_constants.rs.
#include "../generated/bucket_fn.glsl"

// The loops over bucket-id bits (ballots, binary searches). The column shaders run up to
// thousands of steps per invocation: unrolled to MAX_ID_BITS with a guard, since lavapipe stops
// an invocation after 32768 loop iterations (that form made the tile kernels' machine code too
// large: instruction-fetch bound). The tile kernels (SPLIT_TILE_KERNEL) unroll their loops to
// exactly the plan's id-bit count, ceil(log2 m) <= 10 there, which the plan fixes in the
// variant's id-bits field (UNROLLED_ID_BITS; glsl/split/split_common.glsl TILE_VARIANT; a bound
// that selected between this constant and id_bits was not unrolled by the driver;
// docs/tuning/split.md#unrolled-id-bits). The other tile shaders (SPLIT_TILES) and the
// Onesweep split (SPLIT_BUCKETS) run plain loops of id_bits iterations.
#if defined(SPLIT_TILE_KERNEL)
const uint UNROLLED_ID_BITS = (TILE_VARIANT >> TILE_VARIANT_ID_BITS_SHIFT) & TILE_VARIANT_ID_BITS_MASK;
#define ID_LOOP [[unroll]]
#define ID_LOOP_END UNROLLED_ID_BITS
#define ID_GUARD(bit) true
#elif defined(SPLIT_TILES) || defined(SPLIT_BUCKETS)
#define ID_LOOP [[dont_unroll]]
#define ID_LOOP_END pc.id_bits
#define ID_GUARD(bit) true
#else
#define ID_LOOP [[unroll]]
#define ID_LOOP_END MAX_ID_BITS
#define ID_GUARD(bit) ((bit) < pc.id_bits)
#endif

// SPLITTERS: splitter `i` of the array at `base`, through a reference of its own (the sort
// kernels declare their KeyRef coherent; reading the splitters through it ran at the same
// speed: docs/tuning/split.md#splitters-index).
layout(buffer_reference, std430, buffer_reference_align = 4) buffer SplitterRef { KEY_T v[]; };
KEY_T splitter_at(uint64_t base, uint i) {
    return SplitterRef(base + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
}

// SPLITTERS_PLAIN_MAX: most buckets whose splitters are searched as the caller gave them (aux),
// with no index: up to 6 loads, no slower than the index's dispatch and table read. The split
// kernels take the choice from SPLITTERS_INDEXED, a specialization constant the plan sets by
// the same rule (so that their pipelines hold one search); the sort kernels of the Onesweep
// split test the count.

// The table of the splitter index at `index` (splitter_index.comp's layout: the 16-byte
// header, the m - 1 splitters padded to 16 bytes, the table).
uint64_t splitter_index_table(uint64_t index) {
    uint64_t splitter_bytes = uint64_t(pc.bucket_count - 1u) * uint64_t(KEY_BITS / 8);
    return index + 16ul + ((splitter_bytes + 15ul) & ~15ul);
}

// One step of the binary search below, without a branch: the probe is clamped to the last of
// the m - 1 splitters (m >= 2), so that a finished search (len 0) reads a splitter it ignores.
void splitters_step(KEY_T k, uint64_t base, bool raw, inout uint first, inout uint len) {
    uint half_len = len >> 1;
    KEY_T s = splitter_at(base, min(first + half_len, pc.bucket_count - 2u));
    bool right = len > 0u && (raw ? ordered_bits(s) : s) <= k;
    first = right ? first + half_len + 1u : first;
    len = right ? len - half_len - 1u : half_len;
}

// `first` plus the number of the `len` splitters from `first` of the array at `base` that are
// <= `k` (ordered bits; the splitters too, or in the caller's form where `raw`), by a binary
// search. The tile kernels search all m - 1 splitters (`raw`, up to SPLITTERS_PLAIN_MAX
// buckets) in exactly their id-bit count of steps, without branches, so that the searches of
// an invocation's keys overlap their loads. Otherwise the loop has a constant trip count
// (lavapipe counts loop iterations per invocation) in the column shaders, id_bits + 1
// iterations elsewhere (see ID_LOOP).
uint splitters_at_most(KEY_T k, uint64_t base, bool raw, uint first, uint len) {
#if defined(SPLIT_TILE_KERNEL)
    if (raw) {
        // len = m - 1 < 2^UNROLLED_ID_BITS: each step at least halves it.
        [[unroll]] for (uint i = 0u; i < UNROLLED_ID_BITS; ++i) {
            splitters_step(k, base, raw, first, len);
        }
        return first;
    }
#endif
    ID_LOOP for (uint i = 0u; i < ID_LOOP_END + 1u; ++i) {
        if (len > 0u) {
            uint half_len = len >> 1;
            KEY_T s = splitter_at(base, first + half_len);
            if ((raw ? ordered_bits(s) : s) <= k) {
                first += half_len + 1u;
                len -= half_len + 1u;
            } else {
                len = half_len;
            }
        }
    }
    return first;
}

// The caller's four parameters (set from pc.params by main).
uvec4 vkalgo_params;

#if BUCKET_FN == 3
// The caller's bucket function, on the key in its own type.
#include "vkalgo_bucket.glsl"
#endif

// The bucket of element `index` whose key is `key` (raw bits). May be >= m (an error the
// histogram reports) for IDS and GLSL.
uint bucket_of(KEY_T key, uint64_t index) {
#if BUCKET_FN == 0
    return uint(ordered_bits(key) >> pc.bit_offset) & (pc.bucket_count - 1u);
#elif BUCKET_FN == 1
    // Number of splitters <= key (upper bound): up to SPLITTERS_PLAIN_MAX buckets a binary
    // search of the caller's splitters at aux; above, through the splitter index that
    // splitter_index.comp builds at aux (see its layout): the key's slot in the table bounds
    // the search to the splitters sharing it.
    KEY_T k = ordered_bits(key);
#ifdef SPLIT_BUCKETS
    bool indexed = pc.bucket_count > SPLITTERS_PLAIN_MAX;
#else
    bool indexed = SPLITTERS_INDEXED;
#endif
    // One call of the search for both forms: the Onesweep split's kernels (SPLIT_BUCKETS),
    // which choose at run time, ran slower with a call for each (the loop twice in their code;
    // docs/tuning/split.md#splitters-index).
    uint64_t at = pc.aux;
    uint first = 0u;
    uint len = pc.bucket_count - 1u;
    if (indexed) {
        uvec4 head = U32x4Ref(pc.aux).v[0];
#if KEY_BITS == 64
        KEY_T lo = KEY_T(head.x) | (KEY_T(head.y) << 32);
#else
        KEY_T lo = head.x;
#endif
        if (k < lo) {
            return 0u;
        }
        KEY_T slot = (k - lo) >> head.z;
        if (slot > KEY_T(head.w)) {
            return pc.bucket_count - 1u;
        }
        uint64_t table = splitter_index_table(pc.aux) + uint64_t(slot) * 4ul;
        first = U32Ref(table).v[0];
        uint end = U32Ref(table + 4ul).v[0];
        len = end > first ? end - first : 0u;
        at = pc.aux + 16ul;
    }
    return splitters_at_most(k, at, !indexed, first, len);
#elif BUCKET_FN == 2
    return U32Ref(pc.aux + index * 4ul).v[0];
#else
#if KEY_TYPE_CODE == 0
    return vkalgo_bucket(uint(key));
#elif KEY_TYPE_CODE == 1
    return vkalgo_bucket(int(key));
#elif KEY_TYPE_CODE == 2
    return vkalgo_bucket(uintBitsToFloat(key));
#elif KEY_TYPE_CODE == 3
    return vkalgo_bucket(uint64_t(key));
#elif KEY_TYPE_CODE == 4
    return vkalgo_bucket(int64_t(key));
#else
    return vkalgo_bucket(uint64BitsToDouble(key));
#endif
#endif
}

#endif
