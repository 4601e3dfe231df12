// Block merge sort of one workgroup's tile in shared memory, stable (the shape of ModernGPU's
// block sort; merge path partitioning after Odeh, Green, Mwassi, Shmueli & Birk, "Merge Path -
// Parallel Merging Made Simple", 2012): every invocation sorts BMS_ITEMS consecutive keys in
// registers with an odd-even transposition network (adjacent swaps of strictly greater keys
// only, so equal keys keep their order), then log2(WG_SIZE) rounds merge neighbouring runs
// in shared memory, each invocation finding where its BMS_ITEMS outputs start by a binary
// search on the merge path (ties taken from the left run) and merging them into registers.
//
// The includer defines BMS_KEY_T, BMS_ITEMS and BMS_TILE (= WG_SIZE * BMS_ITEMS; WG_SIZE a
// power of two), a function `bool bms_after(BMS_KEY_T a, BMS_KEY_T b)` (a sorts strictly
// after b), and the shared array `BMS_KEY_T s_keys[BMS_TILE]`; with BMS_SOURCES 1 (the default)
// also `uint s_src[BMS_TILE]`, for callers that move values by where each key came from.
// With BMS_TAGGED_SOURCES defined, the includer fills s_src before the call with a word per
// key that the sort carries along in place of the tile position (a tag that orders before the
// key, and the position: the segmented sort), and defines
// `bool bms_after_tagged(BMS_KEY_T a, uint sa, BMS_KEY_T b, uint sb)` instead of bms_after.
#ifndef VKALGO_BLOCK_MERGE_SORT_GLSL
#define VKALGO_BLOCK_MERGE_SORT_GLSL

#ifndef BMS_SOURCES
#define BMS_SOURCES 1
#endif
#ifdef BMS_TAGGED_SOURCES
#define BMS_AFTER(a, sa, b, sb) bms_after_tagged(a, sa, b, sb)
#define BMS_FIRST_SOURCE(x) s_src[x]
#else
#define BMS_AFTER(a, sa, b, sb) bms_after(a, b)
#define BMS_FIRST_SOURCE(x) (x)
#endif

// Sorts the tile in s_keys (written and made visible by a barrier before the call; padding that
// must stay last takes the largest key and sits after the real keys). Afterwards s_keys holds
// the sorted tile and (BMS_SOURCES) s_src[i] the tile position that key i came from, visible
// to the whole workgroup. Workgroup-uniform control flow.
void block_merge_sort() {
    uint first = gl_LocalInvocationIndex * BMS_ITEMS;
    BMS_KEY_T k[BMS_ITEMS];
#if BMS_SOURCES
    uint src[BMS_ITEMS];
#endif
    [[unroll]] for (uint e = 0u; e < BMS_ITEMS; ++e) {
        k[e] = s_keys[first + e];
#if BMS_SOURCES
        src[e] = BMS_FIRST_SOURCE(first + e);
#endif
    }
    [[unroll]] for (uint r = 0u; r < BMS_ITEMS; ++r) {
        [[unroll]] for (uint e = r & 1u; e + 1u < BMS_ITEMS; e += 2u) {
            if (BMS_AFTER(k[e], src[e], k[e + 1u], src[e + 1u])) {
                BMS_KEY_T tk = k[e];
                k[e] = k[e + 1u];
                k[e + 1u] = tk;
#if BMS_SOURCES
                uint ts = src[e];
                src[e] = src[e + 1u];
                src[e + 1u] = ts;
#endif
            }
        }
    }
    // Each round stores the runs of the round before (the first, each invocation's sorted run),
    // then merges pairs of runs of width w into registers, until one run holds the tile.
    for (uint w = BMS_ITEMS; ; w *= 2u) {
        barrier();
        [[unroll]] for (uint e = 0u; e < BMS_ITEMS; ++e) {
            s_keys[first + e] = k[e];
#if BMS_SOURCES
            s_src[first + e] = src[e];
#endif
        }
        barrier();
        if (w >= BMS_TILE) {
            break;
        }
        uint pair = (first / (2u * w)) * (2u * w);
        uint d = first - pair;
        uint lo = d > w ? d - w : 0u;
        uint hi = min(d, w);
        while (lo < hi) {
            uint mid = (lo + hi) >> 1;
            if (!BMS_AFTER(s_keys[pair + mid], s_src[pair + mid], s_keys[pair + w + d - 1u - mid],
                           s_src[pair + w + d - 1u - mid])) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        uint ai = pair + lo;
        uint bi = pair + w + d - lo;
        uint a_end = pair + w;
        uint b_end = pair + 2u * w;
        [[unroll]] for (uint e = 0u; e < BMS_ITEMS; ++e) {
            BMS_KEY_T ka = s_keys[min(ai, BMS_TILE - 1u)];
            BMS_KEY_T kb = s_keys[min(bi, BMS_TILE - 1u)];
            bool take_a = ai < a_end && (bi >= b_end || !BMS_AFTER(ka, s_src[min(ai, BMS_TILE - 1u)], kb,
                                                                   s_src[min(bi, BMS_TILE - 1u)]));
            k[e] = take_a ? ka : kb;
#if BMS_SOURCES
            src[e] = take_a ? s_src[ai] : s_src[min(bi, BMS_TILE - 1u)];
#endif
            ai += take_a ? 1u : 0u;
            bi += take_a ? 0u : 1u;
        }
    }
}

#endif
