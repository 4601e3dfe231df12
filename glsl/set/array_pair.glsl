// Array pairs: `op` of two sorted u16 lists (array chunks, or a chunk and a run of sorted
// inserted/removed values) when the result is an array too, computed element by element
// without a bitmap: each element finds itself in the other list (each invocation walks a share
// of consecutive elements: a search from an interpolated guess for the first, galloping from
// the last answer for the others, so a share costs one search and a few probes per element,
// less than a binary search of every element: docs/tuning/set.md#array-pair-search), the kept
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
// (word j of list a (which 0) or b (1)) and or_bitmap_word(which, w, bits) (ORs bits into word
// w of bitmap `which`, for load_list's expand); and includes ../common/workgroup_scan.glsl.
#ifndef VKALGO_SET_ARRAY_PAIR_GLSL
#define VKALGO_SET_ARRAY_PAIR_GLSL

#include "array_store.glsl"

// Element j of list a (which == 0) or b.
uint list_elem(uint which, uint j) {
    return which == 0u ? elem_a(j) : elem_b(j);
}

// Number of elements of list a (which == 0) or b below x, known to lie in [lo, hi]: a binary
// search.
uint lower_bound_between(uint which, uint x, uint lo, uint hi) {
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (list_elem(which, mid) < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Number of elements of list a (which == 0) or b below x, given that at least `from` of them
// are (from <= the answer): galloping from `from` (doubling steps until a probe is not below
// x), then a binary search of the last step (Bentley & Yao). About 2 log2(answer - from) + 1
// probes, so one invocation's consecutive elements, whose answers grow little from one to the
// next, each cost a probe or three instead of a whole binary search.
uint lower_bound_from(uint which, uint n, uint x, uint from) {
    uint lo = from;
    uint step = 1u;
    while (lo + step <= n && list_elem(which, lo + step - 1u) < x) {
        lo += step;
        step *= 2u;
    }
    return lower_bound_between(which, x, lo, min(lo + step - 1u, n));
}

// Number of elements of list a (which == 0) or b (n of them) below x: galloping away from
// the position interpolated between the list's first and last values (as the merge
// partition's searches start from an interpolated co-rank). A list that is a run of
// consecutive values, the common array of clustered sets, answers in one or two probes,
// uniform values in a few; any list in at most about 2 log2(n) + 1.
uint lower_bound(uint which, uint n, uint x) {
    if (n == 0u) {
        return 0u;
    }
    uint first = list_elem(which, 0u);
    uint last = list_elem(which, n - 1u);
    if (x <= first) {
        return 0u;
    }
    if (x > last) {
        return n;
    }
    // first < x <= last, so n >= 2 and the guess lies in [0, n - 1]; (x - first) * (n - 1) <
    // 2^16 * 2^12 fits 32 bits.
    uint guess = (x - first) * (n - 1u) / (last - first);
    if (guess > 0u && list_elem(which, guess - 1u) >= x) {
        // The answer is below the guess: gallop down from hi (list_elem(hi) >= x).
        uint hi = guess - 1u;
        uint step = 1u;
        while (step <= hi && list_elem(which, hi - step) >= x) {
            hi -= step;
            step *= 2u;
        }
        return lower_bound_between(which, x, step <= hi ? hi - step + 1u : 0u, hi);
    }
    return lower_bound_from(which, n, x, guess);
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

// This invocation's share of a list of n elements: the consecutive elements [x, y). Walking
// a share in order lets each element's search in the other list start from the last one's
// answer (lower_bound_from).
uvec2 list_share(uint n) {
    uint per = (n + WG_SIZE - 1u) / WG_SIZE;
    uint first = min(gl_LocalInvocationIndex * per, n);
    return uvec2(first, min(first + per, n));
}

// Whether element j (value x) of list a (which == 0) or b is in the result, given lb, the
// number of elements of the other list (n_other) below x.
bool kept_element(uint which, uint j, uint x, uint lb, uint n_other) {
    if (which == 0u) {
        bool in_b = lb < n_other && elem_b(lb) == x;
        return pc.op == OP_AND ? in_b : (pc.op == OP_OR || !in_b);
    }
    if (pc.op == OP_AND || pc.op == OP_ANDNOT || (j > 0u && elem_b(j - 1u) == x)) {
        return false;
    }
    return !(lb < n_other && elem_a(lb) == x);
}

// The elements of the other list below x (element j of list `which`): lower_bound for an
// invocation's first element (j == share start), then galloping from the previous answer.
uint other_rank(uint which, uint j, uint share_start, uint n_other, uint x, uint previous) {
    return j == share_start ? lower_bound(1u - which, n_other, x)
                            : lower_bound_from(1u - which, n_other, x, previous);
}

// ORs `bits` into word w of list `which`'s kept-element mask.
void keep_bits(uint which, uint w, uint bits) {
    if (which == 0u) {
        atomicOr(s_keep_a[w], bits);
    } else {
        atomicOr(s_keep_b[w], bits);
    }
}

// Marks the kept elements of list `which` (n elements; the other list n_other): each
// invocation walks its share, gathers the bits of one mask word at a time and ORs each word
// in once (a share's elements are consecutive, so neighbours touch a word together only at the
// shares' ends).
void mark_list(uint which, uint n, uint n_other) {
    uvec2 share = list_share(n);
    uint lb = 0u;
    uint word = share.x >> 5;
    uint bits = 0u;
    for (uint j = share.x; j < share.y; j++) {
        uint x = list_elem(which, j);
        lb = other_rank(which, j, share.x, n_other, x, lb);
        if ((j >> 5) != word) {
            if (bits != 0u) {
                keep_bits(which, word, bits);
            }
            word = j >> 5;
            bits = 0u;
        }
        bits |= kept_element(which, j, x, lb, n_other) ? 1u << (j & 31u) : 0u;
    }
    if (bits != 0u) {
        keep_bits(which, word, bits);
    }
}

// Whether element j of list a (which == 0) or b is kept (after mark_kept).
bool is_kept(uint which, uint j) {
    uint mask = which == 0u ? s_keep_a[j >> 5] : s_keep_b[j >> 5];
    return (mask & (1u << (j & 31u))) != 0u;
}

// A walk over an invocation's share of list `which` placing its kept elements: element j's
// output position << 16 | its value, or NO_PLACE when it is not kept. Its own list's kept
// elements before it, and with `both` (unions, symmetric differences) the other list's kept
// elements below its value (lb, carried from element to element of the share, counts the
// other list's elements below it).
#define NO_PLACE 0xFFFFFFFFu
uint kept_placement(uint which, uint j, uint share_start, uint n_other, bool both, inout uint lb) {
    if (!is_kept(which, j)) {
        return NO_PLACE;
    }
    uint x = list_elem(which, j);
    if (both) {
        lb = other_rank(which, j, share_start, n_other, x, lb);
    }
    uint p = kept_before(which, j) + (both ? kept_before(1u - which, lb) : 0u);
    return (p << 16) | x;
}

// ORs a placement (kept_placement) into so, whose words it lands in are zero or hold its
// neighbour.
void place_packed(uint placed) {
    if (placed != NO_PLACE) {
        uint p = placed >> 16;
        atomicOr(so[p >> 1], (placed & 0xFFFFu) << ((p & 1u) * 16u));
    }
}

// Sets the bit of `value` in bitmap `which` through the includer's or_bitmap_word, gathering
// the bits of one word (bitmap_w, bits; bits 0 at the start) before ORing it in: sorted values
// then cost an atomic per word they touch, where one per value made the invocations of a
// subgroup wait on the same word in runs of consecutive values. Call gathered_bits_flush after
// the last value.
void gather_bit(uint which, uint value, inout uint bitmap_w, inout uint bits) {
    if (bits != 0u && (value >> 5) != bitmap_w) {
        or_bitmap_word(which, bitmap_w, bits);
        bits = 0u;
    }
    bitmap_w = value >> 5;
    bits |= 1u << (value & 31u);
}

void gathered_bits_flush(uint which, uint bitmap_w, uint bits) {
    if (bits != 0u) {
        or_bitmap_word(which, bitmap_w, bits);
    }
}

// The sorted u16 list of an array (or empty) chunk as list `which`, packed in pairs as in the
// array blocks (the odd last word's high half zero); with `expand`, instead the chunk's bits
// ORed into bitmap `which` (zeroed before, a barrier since), a bitmap word at a time per
// vector (gather_bit).
void load_list(uint64_t meta, uvec2 e, uint which, bool expand) {
    if (e.x == 0u) {
        return;
    }
    uint h = header_words(e.x);
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
        uint bitmap_w = 0u;
        uint bits = 0u;
        [[unroll]] for (uint i = 0u; i < VEC_WORDS; i++) {
            uint j;
            uint word;
            if (vector_value_word(v, q, i, h, e.x, j, word)) {
                if (!expand) {
                    store_list_word(which, j, word);
                    continue;
                }
                [[unroll]] for (uint half_index = 0u; half_index < 2u; half_index++) {
                    if (2u * j + half_index < e.x) {
                        gather_bit(which, (word >> (16u * half_index)) & 0xFFFFu, bitmap_w, bits);
                    }
                }
            }
        }
        gathered_bits_flush(which, bitmap_w, bits);
    }
}

// The run values[start, start + n) (sorted u32 of one chunk) as list b.
void load_run_list(uint start, uint n) {
    for (uint j = gl_LocalInvocationIndex; 2u * j < n; j += WG_SIZE) {
        store_list_word(1u, j, run_word(n, start, j));
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
    mark_list(0u, na, nb);
    if (pc.op == OP_OR || pc.op == OP_XOR) {
        mark_list(1u, nb, na);
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
// words the caller zeroed, with a barrier since), each invocation walking its shares.
void place_kept(uint na, uint nb) {
    bool both = pc.op == OP_OR || pc.op == OP_XOR;
    for (uint which = 0u; which < (both ? 2u : 1u); which++) {
        uvec2 share = list_share(which == 0u ? na : nb);
        uint lb = 0u;
        for (uint j = share.x; j < share.y; j++) {
            place_packed(kept_placement(which, j, share.x, which == 0u ? nb : na, both, lb));
        }
    }
}

#endif
