#version 460
// Segmented sort, first pass: sorts in shared memory, in place, every segment of at most
// SMALL_LIMIT elements whole, and every larger segment within each aligned block of TILE
// positions (the merge rounds then merge those blocks). The grid's first ceil(n / SMALL_LIMIT)
// workgroups take the small segments: workgroup w owns the small segments that START in
// positions [w * SMALL_LIMIT, (w + 1) * SMALL_LIMIT), so its segments end within
// SMALL_LIMIT + SMALL_LIMIT = TILE positions of its first one. The rest take the large
// segments' parts in block b = [b * TILE, (b + 1) * TILE). The two sets of positions (small
// segments, large segments) are disjoint, as are the positions each workgroup of a set owns,
// so no workgroup reads what another writes.
//
// A workgroup loads the positions it owns (others become padding), tags each with the start of
// its segment relative to the loaded range (padding: SEGSORT_NO_TAG), and sorts the tile by
// (tag, masked key), stable, with the block merge sort of common/block_merge_sort.glsl. The
// elements of one segment then sit together, in order, and go back to their segment's
// positions: element x of the sorted tile, the r-th of its tag, goes to the tag's r-th
// position. No workgroup waits on another.
#include "segsort_common.glsl"

shared KEY_T s_keys[TILE];
shared uint s_src[TILE];
shared uint s_range[3];
shared uint s_large[3];
shared uint s_covered;

// Sort words: the tag in the high 16 bits, the tile position in the low 16 (TILE <= 2^15).
bool bms_after_tagged(KEY_T a, uint sa, KEY_T b, uint sb) {
    uint ta = sa >> 16;
    uint tb = sb >> 16;
    return ta > tb || (ta == tb && masked(a) > masked(b));
}

#define BMS_KEY_T KEY_T
#define BMS_ITEMS ITEMS
#define BMS_TILE TILE
#define BMS_TAGGED_SOURCES
#include "../common/block_merge_sort.glsl"

// The first sorted position whose tag is >= tag (the sorted tags are non-decreasing).
uint first_of_tag(uint tag) {
    uint lo = 0u;
    uint hi = TILE;
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        if ((s_src[mid] >> 16) < tag) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void main() {
    uint n = element_count();
    uint segs = segment_count();
    uint w = linear_workgroup_id();
    uint small_groups = (n + SMALL_LIMIT - 1u) / SMALL_LIMIT;
    bool small = w < small_groups;
    uint64_t base64 = small ? uint64_t(w) * uint64_t(SMALL_LIMIT)
                            : uint64_t(w - small_groups) * uint64_t(TILE);
    if (!small && (w - small_groups) >= (n + TILE - 1u) / TILE) {
        return;
    }
    if (base64 >= uint64_t(n)) {
        return;
    }
    uint base = uint(base64);
    uint len = min(n - base, TILE);
    uint own_end = small ? base + min(n - base, SMALL_LIMIT) : base + len;
    // The segments of the loaded range's first and last positions bound every search below;
    // with the middle one's they also say whether the workgroup has anything to sort: a small
    // part has nothing when one segment covers its whole range, a block part nothing when
    // none of the three segments is large (a large segment within the block holds its middle).
    if (gl_LocalInvocationIndex < 3u) {
        uint i = gl_LocalInvocationIndex;
        uint p = i == 0u ? base : (i == 1u ? base + len - 1u : base + min(TILE / 2u, len - 1u));
        uint s = segment_of(p, segs, n);
        uint first = segment_start(s, segs, n);
        uint end = max(segment_start(s + 1u, segs, n), first);
        s_range[i] = s;
        s_large[i] = end - first > SMALL_LIMIT ? 1u : 0u;
        if (i == 0u) {
            s_covered = first < base && end >= own_end ? 1u : 0u;
        }
    }
    barrier();
    if (small ? s_covered != 0u : (s_large[0] | s_large[1] | s_large[2]) == 0u) {
        return;
    }
    uint seg_lo = s_range[0];
    uint seg_hi = s_range[1] + 1u;
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        uint tag = SEGSORT_NO_TAG;
        KEY_T key = KEY_MAX;
        if (x < len) {
            uint p = base + x;
            uint s = segment_of_within(p, seg_lo, seg_hi, segs, n);
            uint first = segment_start(s, segs, n);
            uint size = max(segment_start(s + 1u, segs, n), first) - first;
            bool owned = small ? (first >= base && first < own_end && size <= SMALL_LIMIT)
                               : size > SMALL_LIMIT;
            if (owned) {
                tag = max(first, base) - base;
                key = load_ordered(pc.keys, uint64_t(p));
            }
        }
        s_keys[x] = key;
        s_src[x] = (tag << 16) | x;
    }
    barrier();
    block_merge_sort();
    // Element x goes to position base + tag + (x - first_of_tag(tag)).
    uint dest[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        uint tag = s_src[x] >> 16;
        dest[e] = tag == SEGSORT_NO_TAG ? 0xFFFFFFFFu : tag + (x - first_of_tag(tag));
        // Bad offsets could send an element past the loaded range: it is dropped instead.
        dest[e] = dest[e] < len ? dest[e] : 0xFFFFFFFFu;
    }
#if VALUE_WORDS > 0
    // All reads of the owned values happen before any write (the sort is in place).
    VALUE_T held[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (dest[e] != 0xFFFFFFFFu) {
            held[e] = load_value(pc.values, uint64_t(base + (s_src[x] & 0xFFFFu)));
        }
    }
    barrier();
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        if (dest[e] != 0xFFFFFFFFu) {
            store_value(pc.values, uint64_t(base + dest[e]), held[e]);
        }
    }
#endif
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (dest[e] != 0xFFFFFFFFu) {
            store_key(pc.keys, uint64_t(base + dest[e]), raw_bits(s_keys[x]));
        }
    }
}
