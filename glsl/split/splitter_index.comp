#version 460
// Multisplit by SPLITTERS, step 0: the splitter index that bucket_of (bucket_fn.glsl) searches
// instead of the caller's splitters. A plain binary search over m - 1 splitters is a chain of
// ceil(log2 m) dependent loads per key; the index bounds it by a table over the high bits of
// the key's distance from the first splitter, so that a key reads one table entry and searches
// only the splitters that share its slot (about one for spread-out splitters; repeated or
// clustered splitters fall back to a binary search of their slot, never more steps than the
// plain search).
//
// Layout at pc.aux (in the plan's scratch; src/split/mod.rs SplitterIndex):
//   +0:  lo (the first splitter's ordered bits, two u32, low first), shift, qmax
//   +16: the m - 1 splitters in ordered form (KEY_BITS / 8 bytes each), padded to 16 bytes
//   then table[0 .. 2^R]: table[p] = the number of splitters <= lo + (p << shift) for
//        p <= qmax, m - 1 above (the slot of a key k >= lo is (k - lo) >> shift; slots past
//        qmax lie above the last splitter).
// This pass reads the caller's splitters at pc.keys_in and writes the index at pc.aux; R (the
// table's bits) is pc.bit_offset. shift is the least that brings the splitters'
// span (last - first) below 2^R slots. Invocation i writes table[i] (i <= 2^R) and copies
// splitter i (i < m - 1). Unsorted splitters give entries that are still <= m - 1.
#include "split_common.glsl"

// The caller's splitter i in ordered form.
KEY_T splitter(uint i) {
    return ordered_bits(splitter_at(pc.keys_in, i));
}

void main() {
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    uint splitters = pc.bucket_count - 1u;
    uint table_bits = pc.bit_offset;
    KEY_T lo = splitter(0u);
    KEY_T hi = splitter(splitters - 1u);
    KEY_T span = hi >= lo ? hi - lo : KEY_T(0);
#if KEY_BITS == 64
    uint high = uint(span >> 32);
    uint span_bits = high != 0u ? uint(findMSB(high)) + 33u : uint(findMSB(uint(span)) + 1);
#else
    uint span_bits = uint(findMSB(span) + 1);
#endif
    uint shift = span_bits > table_bits ? span_bits - table_bits : 0u;
    uint qmax = uint(span >> shift);
    if (i == 0u) {
        U32Ref(pc.aux).v[0] = uint(lo);
#if KEY_BITS == 64
        U32Ref(pc.aux).v[1] = uint(lo >> 32);
#else
        U32Ref(pc.aux).v[1] = 0u;
#endif
        U32Ref(pc.aux).v[2] = shift;
        U32Ref(pc.aux).v[3] = qmax;
    }
    if (i < splitters) {
        KeyRef(pc.aux + 16ul + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0] = splitter(i);
    }
    if (i <= (1u << table_bits)) {
        uint below = splitters;
        if (i <= qmax) {
            // The splitters <= lo + (i << shift) (<= hi: no overflow); a key of slot i is at
            // least that bound, so they are all <= it, and those of the next slot's count
            // and beyond are above it. bucket_fn.glsl's search, on the caller's splitters.
            below = splitters_at_most(lo + (KEY_T(i) << shift), pc.keys_in, true, 0u, splitters);
        }
        U32Ref(splitter_index_table(pc.aux) + uint64_t(i) * 4ul).v[0] = below;
    }
}
