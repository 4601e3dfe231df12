#version 460
// Small-N path by merging: ONE workgroup sorts up to TILE_KEYS (= WG_SIZE x KEYS_PER_THREAD)
// elements in a single dispatch, on the key bits [begin_bit, end_bit) of the ordered keys,
// stably (equal keys keep their input order), as the radix passes would.
//
// The shape is that of a block merge sort (as CUB's BlockMergeSort; merge path partitioning
// after Odeh, Green, Mwassi, Shmueli & Birk, "Merge Path - Parallel Merging Made Simple", 2012):
// each invocation sorts KEYS_PER_THREAD consecutive elements in registers with an odd-even
// transposition network (adjacent swaps only, hence stable), then log2(WG_SIZE) rounds merge
// pairs of sorted runs in shared memory: each invocation finds where its KEYS_PER_THREAD
// outputs start with a binary search on the merge path (ties taken from the left run first)
// and merges them into registers; the round's results go back to shared memory after a
// barrier. The work does not depend on the key width: 8-byte keys cost no more passes.
//
// Elements past the count take the largest compare key; they start after every real element
// and the merges are stable, so they stay after the real elements with the largest key.
//
// The result goes where the radix passes would have left it (SortPlan::result_location): the
// caller's buffers when pass_count is even, the alternates when odd.
#define SORT_COUNTING_ONLY
#include "sort_common.glsl"

#if KEY_BITS == 64
#define CKEY_T uint64_t
#else
#define CKEY_T uint
#endif

// Shared arrays: one padding word per 32 elements, so that KEYS_PER_THREAD-strided accesses of
// a subgroup fall into different banks.
#define PAD(i) ((i) + ((i) >> 5))
const uint STAGE_ELEMS = TILE_KEYS + TILE_KEYS / 32u + 1u;
shared KEY_T s_keys[STAGE_ELEMS];
#if VALUE_WORDS > 0
shared VALUE_T s_values[STAGE_ELEMS];
#endif

CKEY_T g_ckey_mask;

// The bits sorted on, shifted down.
CKEY_T compare_key(KEY_T ordered) {
    return CKEY_T(ordered >> pc.begin_bit) & g_ckey_mask;
}

KEY_T g_keys[KEYS_PER_THREAD];
#if VALUE_WORDS > 0
VALUE_T g_values[KEYS_PER_THREAD];
#endif

void main() {
    uint n = element_count();
    if (n == 0u) {
        return;
    }
    uint width = pc.end_bit - pc.begin_bit;
    g_ckey_mask = width >= KEY_BITS ? ~CKEY_T(0) : (CKEY_T(1) << width) - CKEY_T(1);
    uint lid = gl_LocalInvocationIndex;

    // Striped load (coalesced) into shared memory, keys in ordered form; past the count the
    // largest key.
    KeyRef key_in = KeyRef(pc.keys_in + uint64_t(lid) * uint64_t(KEY_BYTES));
#if VALUE_WORDS > 0
    ValueRef value_in = ValueRef(pc.values_in + uint64_t(lid) * uint64_t(VALUE_BYTES));
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint p = j * WG_SIZE + lid;
        s_keys[PAD(p)] = p < n ? ordered_bits(key_in.v[j * WG_SIZE]) : ~KEY_T(0);
#if VALUE_WORDS > 0
        s_values[PAD(p)] = p < n ? value_in.v[j * WG_SIZE] : VALUE_T(0);
#endif
    }
    barrier();

    // This invocation's run: elements lid * KEYS_PER_THREAD + i, sorted in registers.
    uint first = lid * KEYS_PER_THREAD;
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        g_keys[i] = s_keys[PAD(first + i)];
#if VALUE_WORDS > 0
        g_values[i] = s_values[PAD(first + i)];
#endif
    }
    [[unroll]] for (uint round = 0u; round < KEYS_PER_THREAD; ++round) {
        [[unroll]] for (uint i = round & 1u; i + 1u < KEYS_PER_THREAD; i += 2u) {
            KEY_T a = g_keys[i];
            KEY_T b = g_keys[i + 1u];
            bool swap = compare_key(a) > compare_key(b);
            g_keys[i] = swap ? b : a;
            g_keys[i + 1u] = swap ? a : b;
#if VALUE_WORDS > 0
            VALUE_T va = g_values[i];
            VALUE_T vb = g_values[i + 1u];
            g_values[i] = swap ? vb : va;
            g_values[i + 1u] = swap ? va : vb;
#endif
        }
    }
    barrier(); // every run has been read
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        s_keys[PAD(first + i)] = g_keys[i];
#if VALUE_WORDS > 0
        s_values[PAD(first + i)] = g_values[i];
#endif
    }
    barrier();

    // Merge rounds: runs of `run` elements pairwise into runs of 2 * run.
    // (WG_SIZE is a power of two: the runs pair up in every round.)
    for (uint run = KEYS_PER_THREAD; run < TILE_KEYS; run *= 2u) {
        uint pair_start = first / (2u * run) * (2u * run);
        uint diagonal = first - pair_start;
        uint a_start = pair_start;
        uint b_start = pair_start + run;
        // Merge path: the number of left-run elements among the first `diagonal` outputs.
        uint lo = diagonal > run ? diagonal - run : 0u;
        uint hi = min(diagonal, run);
        while (lo < hi) {
            uint mid = (lo + hi) >> 1;
            if (compare_key(s_keys[PAD(a_start + mid)]) <= compare_key(s_keys[PAD(b_start + diagonal - 1u - mid)])) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        uint ia = lo;
        uint ib = diagonal - lo;
        KEY_T ka = ia < run ? s_keys[PAD(a_start + ia)] : KEY_T(0);
        KEY_T kb = ib < run ? s_keys[PAD(b_start + ib)] : KEY_T(0);
#if VALUE_WORDS > 0
        uint source[KEYS_PER_THREAD];
#endif
        [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            bool take_a = ib >= run || (ia < run && compare_key(ka) <= compare_key(kb));
            g_keys[i] = take_a ? ka : kb;
#if VALUE_WORDS > 0
            source[i] = take_a ? a_start + ia : b_start + ib;
#endif
            if (take_a) {
                ia += 1u;
                ka = ia < run ? s_keys[PAD(a_start + ia)] : KEY_T(0);
            } else {
                ib += 1u;
                kb = ib < run ? s_keys[PAD(b_start + ib)] : KEY_T(0);
            }
        }
#if VALUE_WORDS > 0
        [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            g_values[i] = s_values[PAD(source[i])];
        }
#endif
        barrier(); // every read of this round is done
        [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            s_keys[PAD(first + i)] = g_keys[i];
#if VALUE_WORDS > 0
            s_values[PAD(first + i)] = g_values[i];
#endif
        }
        barrier();
    }

    // Striped store (coalesced) of the first n elements, keys in the caller's form.
    bool in_place = (pc.pass_count & 1u) == 0u;
    KeyRef key_out = KeyRef((in_place ? pc.keys_in : pc.keys_out) + uint64_t(lid) * uint64_t(KEY_BYTES));
#if VALUE_WORDS > 0
    ValueRef value_out = ValueRef((in_place ? pc.values_in : pc.values_out) + uint64_t(lid) * uint64_t(VALUE_BYTES));
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint p = j * WG_SIZE + lid;
        if (p < n) {
            key_out.v[j * WG_SIZE] = raw_bits(s_keys[PAD(p)]);
#if VALUE_WORDS > 0
            value_out.v[j * WG_SIZE] = s_values[PAD(p)];
#endif
        }
    }
}
