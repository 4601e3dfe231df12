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
// A workgroup finds the segment of each position it loads by a binary search of the segment
// starts inside its range, staged in shared memory (in global memory where empty segments
// make them more than a tile), and loads the positions it owns (others become padding).
// Segments of at most SEGSORT_TINY_LIMIT elements are not owned: tiny.comp sorted them before
// this pass, so a small part whose staged segments are all tiny is done at once. Each key is
// tagged with the start of its segment relative to the loaded range (padding: SEGSORT_NO_TAG),
// the tile is sorted by (tag, masked key), stable, with the block merge sort of
// common/block_merge_sort.glsl, and element x of the sorted tile, the r-th of its tag, goes to
// the tag's r-th position. No workgroup waits on another.
#include "segsort_common.glsl"

shared KEY_T s_keys[TILE];
shared uint s_src[TILE];
shared uint s_range[3];
shared uint s_large[3];
shared uint s_covered;
shared uint s_first_start;
shared uint s_last_end;
shared uint s_rest;
shared uint s_len;

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
    uint small_groups = ceil_div(n, SMALL_LIMIT);
    bool small = w < small_groups;
    uint64_t base64 = small ? uint64_t(w) * uint64_t(SMALL_LIMIT)
                            : uint64_t(w - small_groups) * uint64_t(TILE);
    if (!small && (w - small_groups) >= ceil_div(n, TILE)) {
        return;
    }
    if (base64 >= uint64_t(n)) {
        return;
    }
    uint base = uint(base64);
    uint block_len = min(n - base, TILE);
    uint own_end = small ? base + min(n - base, SMALL_LIMIT) : base + block_len;
    // The segments of the range's first and last positions bound every search below; with
    // the middle one's they also say whether the workgroup has anything to sort: a small part
    // has nothing when one segment covers its whole range, a block part nothing when none of
    // the three segments is large (a large segment within the block holds its middle). A
    // small part's last position is its last owned start, and it loads only up to the end of
    // the last segment it owns (at most TILE positions).
    if (gl_LocalInvocationIndex < 3u) {
        uint i = gl_LocalInvocationIndex;
        uint last = small ? own_end - 1u : base + block_len - 1u;
        uint p = i == 0u ? base : (i == 1u ? last : base + min(TILE / 2u, block_len - 1u));
        uint s = segment_at(p, segs, n);
        uint first = segment_start(s, segs, n);
        uint end = max(segment_start(s + 1u, segs, n), first);
        s_range[i] = s;
        s_large[i] = end - first > SMALL_LIMIT ? 1u : 0u;
        if (i == 0u) {
            s_covered = first < base && end >= own_end ? 1u : 0u;
            s_first_start = first;
            s_rest = 0u;
        } else if (i == 1u) {
            s_last_end = end;
            // A large last segment is not the small part's: it loads up to its start.
            uint loaded_end = small && end - first > SMALL_LIMIT ? first : end;
            s_len = small ? min(max(loaded_end, base) - base, TILE) : block_len;
        }
    }
    barrier();
    if (small ? s_covered != 0u : (s_large[0] | s_large[1] | s_large[2]) == 0u) {
        return;
    }
    uint len = s_len;
    uint seg_lo = s_range[0];
    uint seg_hi = s_range[1];
    uint first_start = s_first_start;
    uint last_end = s_last_end;
    // The starts of segments seg_lo + 1 ..= seg_hi (all inside the range) into s_src, unless
    // empty segments make them more than it holds.
    uint inner = seg_hi - seg_lo;
    bool staged = inner <= TILE;
    if (staged) {
        for (uint j = gl_LocalInvocationIndex; j < inner; j += WG_SIZE) {
            s_src[j] = segment_start(seg_lo + 1u + j, segs, n);
        }
    }
    barrier();
    if (small && staged) {
        // Done unless a staged segment of the part's is more than tiny.
        for (uint j = gl_LocalInvocationIndex; j <= inner; j += WG_SIZE) {
            uint first = j == 0u ? first_start : s_src[j - 1u];
            uint end = max(j < inner ? s_src[j] : last_end, first);
            uint sz = end - first;
            if (first >= base && first < own_end && sz > SEGSORT_TINY_LIMIT && sz <= SMALL_LIMIT) {
                s_rest = 1u;
            }
        }
        barrier();
        if (s_rest == 0u) {
            return;
        }
    }
    KEY_T key[ITEMS];
    uint tag[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        tag[e] = SEGSORT_NO_TAG;
        key[e] = KEY_MAX;
        if (x < len) {
            uint p = base + x;
            uint first;
            uint end;
            if (staged) {
                // j: the inner starts <= p.
                uint lo = 0u;
                uint hi = inner;
                while (lo < hi) {
                    uint mid = (lo + hi) >> 1;
                    if (s_src[mid] <= p) {
                        lo = mid + 1u;
                    } else {
                        hi = mid;
                    }
                }
                first = lo == 0u ? first_start : s_src[lo - 1u];
                end = lo < inner ? s_src[lo] : last_end;
            } else {
                uint s = segment_of_within(p, seg_lo, seg_hi + 1u, segs, n);
                first = segment_start(s, segs, n);
                end = segment_start(s + 1u, segs, n);
            }
            end = max(end, first);
            uint sz = end - first;
            // Tiny segments are tiny.comp's.
            bool owned = small ? (first >= base && first < own_end && sz > SEGSORT_TINY_LIMIT &&
                                  sz <= SMALL_LIMIT)
                               : sz > SMALL_LIMIT;
            if (owned) {
                tag[e] = max(first, base) - base;
                key[e] = load_ordered(pc.keys, uint64_t(p));
            }
        }
    }
    barrier();  // every read of the staged starts is done
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        s_keys[x] = key[e];
        s_src[x] = (tag[e] << 16) | x;
    }
    barrier();
    block_merge_sort();
    // Element x goes to position base + tag + (x - first_of_tag(tag)).
    uint dest[ITEMS];
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        uint t = s_src[x] >> 16;
        dest[e] = t == SEGSORT_NO_TAG ? 0xFFFFFFFFu : t + (x - first_of_tag(t));
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
#endif
    [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
        uint x = e * WG_SIZE + gl_LocalInvocationIndex;
        if (dest[e] != 0xFFFFFFFFu) {
#if VALUE_WORDS > 0
            store_value(pc.values, uint64_t(base + dest[e]), held[e]);
#endif
            store_key(pc.keys, uint64_t(base + dest[e]), raw_bits(s_keys[x]));
        }
    }
}
