// Array pairs: `op` of two sorted u16 lists (array chunks, or a chunk and a run of sorted
// inserted/removed values) when the result is an array too, computed element by element
// without a bitmap: each element finds itself in the other list by binary search, the kept
// elements get bits in two masks with per-word prefix counts, and a kept element's output
// position is (kept elements of its own list before it) + (kept elements of the other list
// below it), the rank-merge idea of merge path (Green, McColl, Bader, "GPU merge path", ICS
// 2012) without materializing the merge. This costs O(na + nb) instead of 2048-word bitmap
// passes. List a holds unique values; list b may repeat values (a run of inserted values).
//
// Used by chunk_update.comp (lists of up to 4096 values each, in its bitmap arrays) and
// array_pairs.comp (medium pairs, compact shared memory). The includer declares, before the
// include: KEEP_WORDS (mask words per list: the longest list / 32); the shared arrays s_keep_a,
// s_keep_b, s_pre_a, s_pre_b (KEEP_WORDS + 1 words each) and so (the result, u16 pairs); the
// functions elem_a(j) and elem_b(j) (element j of list a / b) and store_list_word(which, j, word)
// (word j of list a (which 0) or b (1)); and includes ../common/workgroup_scan.glsl.
#ifndef VKALGO_SET_ARRAY_PAIR_GLSL
#define VKALGO_SET_ARRAY_PAIR_GLSL

#include "array_store.glsl"

// Number of elements of list a (which == 0) or b below x.
uint lower_bound(uint which, uint n, uint x) {
    uint lo = 0u;
    uint hi = n;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        uint v = which == 0u ? elem_a(mid) : elem_b(mid);
        if (v < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Kept elements of list a (which == 0) or b with index below j (j <= 32 * KEEP_WORDS).
uint kept_before(uint which, uint j) {
    uint w = j >> 5;
    uint below = (1u << (j & 31u)) - 1u;
    if (which == 0u) {
        return s_pre_a[w] + bitCount(s_keep_a[w] & below);
    }
    return s_pre_b[w] + bitCount(s_keep_b[w] & below);
}

// Whether element j of list a (which == 0) or b is in the result.
bool keep_elem(uint which, uint j, uint na, uint nb) {
    if (which == 0u) {
        uint x = elem_a(j);
        uint lb = lower_bound(1u, nb, x);
        bool in_b = lb < nb && elem_b(lb) == x;
        return pc.op == OP_AND ? in_b : (pc.op == OP_OR ? true : !in_b);
    }
    uint x = elem_b(j);
    if (pc.op == OP_AND || pc.op == OP_ANDNOT || (j > 0u && elem_b(j - 1u) == x)) {
        return false;
    }
    uint lb = lower_bound(0u, na, x);
    return !(lb < na && elem_a(lb) == x);
}

// The sorted u16 list of an array (or empty) chunk as list `which`, packed in pairs as in the
// array blocks (the odd last word's high half zero).
void load_list(uint64_t meta, uvec2 e, uint which) {
    if (e.x == 0u) {
        return;
    }
    uint h = array_blocks(e.x) - 1u;
    uint words = (e.x + 1u) / 2u;
    // In 16-byte vectors of the word stream (the first and last may hold header words or lie
    // past the values: those words are skipped), each a header id and a load away.
    uint64_t blocks = SetMetaRef(meta).ar_pool;
    U32Ref header = U32Ref(pool_block(blocks, e.y));
    uint q0 = h / VEC_WORDS;
    uint vectors = (h + words + VEC_WORDS - 1u) / VEC_WORDS - q0;
    for (uint g = gl_LocalInvocationIndex; g < vectors; g += WG_SIZE) {
        uint q = q0 + g;
        uint blk = q / BLOCK_VECS;
        uint id = blk == 0u ? e.y : header.v[blk - 1u];
        uvec4 v = stream_vector(blocks, id, q);
        [[unroll]] for (uint i = 0u; i < VEC_WORDS; i++) {
            uint j;
            uint word;
            if (vector_value_word(v, q, i, h, e.x, j, word)) {
                store_list_word(which, j, word);
            }
        }
    }
}

// The run values[start, start + n) (sorted u32 of one chunk) as list b.
void load_run_list(uint start, uint n) {
    for (uint j = gl_LocalInvocationIndex; 2u * j < n; j += WG_SIZE) {
        uint lo = U32Ref(u32_addr(pc.values, start + 2u * j)).v[0] & 0xFFFFu;
        uint hi = 2u * j + 1u < n ? (U32Ref(u32_addr(pc.values, start + 2u * j + 1u)).v[0] & 0xFFFFu) : 0u;
        store_list_word(1u, j, lo | (hi << 16));
    }
}

// With both lists loaded (and a barrier since): marks the kept elements, computes the masks'
// per-word exclusive prefix counts and returns the result's cardinality. Workgroup-uniform
// control flow; ends with a barrier.
uint mark_kept(uint na, uint nb) {
    uint t = gl_LocalInvocationIndex;
    for (uint w = t; w <= KEEP_WORDS; w += WG_SIZE) {
        s_keep_a[w] = 0u;
        s_keep_b[w] = 0u;
    }
    barrier();
    for (uint j = t; j < na; j += WG_SIZE) {
        if (keep_elem(0u, j, na, nb)) {
            atomicOr(s_keep_a[j >> 5], 1u << (j & 31u));
        }
    }
    if (pc.op == OP_OR || pc.op == OP_XOR) {
        for (uint j = t; j < nb; j += WG_SIZE) {
            if (keep_elem(1u, j, na, nb)) {
                atomicOr(s_keep_b[j >> 5], 1u << (j & 31u));
            }
        }
    }
    barrier();
    // Invocation t owns words [t * pw, t * pw + pw); both lists' counts (each at most 4096)
    // travel packed in one u32.
    uint pw = (KEEP_WORDS + WG_SIZE - 1u) / WG_SIZE;
    uint mine = 0u;
    for (uint k = 0u; k < pw; k++) {
        uint w = t * pw + k;
        if (w < KEEP_WORDS) {
            mine += bitCount(s_keep_a[w]) | (bitCount(s_keep_b[w]) << 16);
        }
    }
    uint total;
    uint run = workgroup_exclusive_scan(mine, total);
    for (uint k = 0u; k < pw; k++) {
        uint w = t * pw + k;
        if (w < KEEP_WORDS) {
            s_pre_a[w] = run & 0xFFFFu;
            s_pre_b[w] = run >> 16;
            run += bitCount(s_keep_a[w]) | (bitCount(s_keep_b[w]) << 16);
        }
    }
    if (t == 0u) {
        s_pre_a[KEEP_WORDS] = total & 0xFFFFu;
        s_pre_b[KEEP_WORDS] = total >> 16;
    }
    barrier();
    return (total & 0xFFFFu) + (total >> 16);
}

// After mark_kept: ORs each kept element into its place in so (whose first (card + 1) / 2
// words the caller zeroed, with a barrier since).
void place_kept(uint na, uint nb) {
    uint t = gl_LocalInvocationIndex;
    bool both = pc.op == OP_OR || pc.op == OP_XOR;
    for (uint j = t; j < na; j += WG_SIZE) {
        if ((s_keep_a[j >> 5] & (1u << (j & 31u))) != 0u) {
            uint x = elem_a(j);
            uint p = kept_before(0u, j) + (both ? kept_before(1u, lower_bound(1u, nb, x)) : 0u);
            atomicOr(so[p >> 1], x << ((p & 1u) * 16u));
        }
    }
    if (both) {
        for (uint j = t; j < nb; j += WG_SIZE) {
            if ((s_keep_b[j >> 5] & (1u << (j & 31u))) != 0u) {
                uint x = elem_b(j);
                uint p = kept_before(1u, j) + kept_before(0u, lower_bound(0u, na, x));
                atomicOr(so[p >> 1], x << ((p & 1u) * 16u));
            }
        }
    }
}

#endif
