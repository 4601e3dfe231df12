#version 460
// Order statistics of a set (src/set/order.rs), by pc.mode (ORDER_* generated):
// ORDER_RANK: one invocation per query value v (pc.values, u32): the number of the set's
//     values <= v (u64 as two u32, low first) at out_addr + 8 i.
// ORDER_SELECT: one invocation per query rank k (pc.values, u64 as two u32, low first): the
//     value of 0-based rank k (u32) at out_addr + 4 i; a rank >= the cardinality writes
//     0xFFFFFFFF there and 1 to the u32 at range_lo (zeroed first: src/set/order.rs).
// Both read the exclusive sums of the chunk cardinalities (u32 at scratch S_START + c: the sum
// of the chunks before c is at most 2^32 - 65536) and the total (u64 at scratch word
// S_ORDER_TOTAL) that info.comp modes 0 and 3 wrote.
// ORDER_MIN_MAX, then ORDER_MIN_MAX_RESOLVE: the smallest and largest value and 1 (0, 0 and 0
//     for an empty set) as three u32 at out_addr: one invocation per chunk finds the first
//     and last non-empty chunks (atomics into out_addr's first two words, zeroed first),
//     then one invocation their extreme values.
#include "set_common.glsl"

// Chunk c's exclusive sum of cardinalities.
uint chunk_offset(uint c) {
    return U32Ref(pc.scratch).v[S_START + c];
}

// 16-byte vectors of a bitmap block.
#define BITMAP_VECS (BITMAP_WORDS / 4u)

uint vector_count(uvec4 v) {
    return uint(bitCount(v.x) + bitCount(v.y) + bitCount(v.z) + bitCount(v.w));
}

// The values <= x of a bitmap chunk (block at `block`, `card` values): x's vector's bits up
// to x, and the vectors on the nearer side of x's (those below it added, or those above it
// subtracted from the cardinality): at most half the block read.
uint bitmap_rank(uint64_t block, uint card, uint x) {
    uint q = x >> 7;
    uvec4 v = U32x4Ref(block).v[q];
    uint w = (x >> 5) & 3u;
    uint b = x & 31u;
    uint last_mask = b == 31u ? 0xFFFFFFFFu : ((2u << b) - 1u);
    uint mine = 0u;
    for (uint k = 0u; k < 4u; ++k) {
        uint m = k < w ? 0xFFFFFFFFu : k == w ? last_mask : 0u;
        mine += uint(bitCount(v[k] & m));
    }
    uint n = 0u;
    if (q < BITMAP_VECS / 2u) {
        for (uint i = 0u; i < q; ++i) {
            n += vector_count(U32x4Ref(block).v[i]);
        }
        return n + mine;
    }
    for (uint i = q + 1u; i < BITMAP_VECS; ++i) {
        n += vector_count(U32x4Ref(block).v[i]);
    }
    return card - n - (vector_count(v) - mine);
}

// The j-th smallest value (j < card) of a bitmap chunk (block at `block`, `card` values):
// vectors, then words, then bits walked from the nearer end (the (card - 1 - j)-th largest
// from the top): at most half the block read.
uint bitmap_select(uint64_t block, uint card, uint j) {
    bool top = j >= card / 2u;
    uint left = top ? card - 1u - j : j;
    uint q = top ? BITMAP_VECS - 1u : 0u;
    uvec4 v = U32x4Ref(block).v[q];
    uint n = vector_count(v);
    for (uint s = 1u; s < BITMAP_VECS && left >= n; ++s) {
        left -= n;
        q = top ? q - 1u : q + 1u;
        v = U32x4Ref(block).v[q];
        n = vector_count(v);
    }
    uint k = top ? 3u : 0u;
    for (uint s = 1u; s < 4u && left >= uint(bitCount(v[k])); ++s) {
        left -= uint(bitCount(v[k]));
        k = top ? k - 1u : k + 1u;
    }
    uint word = v[k];
    for (uint i = 0u; i < left; ++i) {
        // Drops the highest (from the top) or the lowest set bit.
        word = top ? word & ~(1u << uint(findMSB(word))) : word & (word - 1u);
    }
    return q * 128u + k * 32u + uint(top ? findMSB(word) : findLSB(word));
}

// The values of chunk entry e that are <= x (x < 65536).
uint chunk_rank(uvec2 e, uint x) {
    uint card = chunk_card(e.x);
    if (card == 0u) {
        return 0u;
    }
    if (card == FULL) {
        return x + 1u;
    }
    uint r = chunk_runs(e.x);
    if (r != 0u) {
        uint n = 0u;
        for (uint i = 0u; i < r; ++i) {
            uint run = chunk_run_word(pc.meta_d, e, i);
            uint first = run & 0xFFFFu;
            if (first <= x) {
                n += min(run >> 16, x) - first + 1u;
            }
        }
        return n;
    }
    if (card > ARRAY_MAX) {
        return bitmap_rank(bitmap_block(SetMetaRef(pc.meta_d).bm_pool, e.y), card, x);
    }
    // Array: the values <= x (upper bound).
    uint lo = 0u;
    uint hi = card;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (array_value(pc.meta_d, e.y, card, mid) <= x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The j-th smallest value (0-based, j < the chunk's cardinality) of chunk entry e.
uint chunk_select(uvec2 e, uint j) {
    uint card = chunk_card(e.x);
    if (card == FULL) {
        return j;
    }
    uint r = chunk_runs(e.x);
    if (r != 0u) {
        uint result = 0u;
        for (uint i = 0u; i < r; ++i) {
            uint run = chunk_run_word(pc.meta_d, e, i);
            uint first = run & 0xFFFFu;
            uint len = (run >> 16) - first + 1u;
            if (j < len) {
                result = first + j;
                break;
            }
            j -= len;
        }
        return result;
    }
    if (card > ARRAY_MAX) {
        return bitmap_select(bitmap_block(SetMetaRef(pc.meta_d).bm_pool, e.y), card, j);
    }
    return array_value(pc.meta_d, e.y, card, j);
}

// The total cardinality (info.comp mode 3's, at scratch word S_ORDER_TOTAL).
uint64_t total_cardinality() {
    U32Ref s = U32Ref(pc.scratch);
    return uint64_t(s.v[S_ORDER_TOTAL]) | (uint64_t(s.v[S_ORDER_TOTAL + 1u]) << 32);
}

void rank_query(uint i) {
    uint v = U32Ref(u32_addr(pc.values, i)).v[0];
    uint c = v >> 16;
    uint64_t rank = uint64_t(chunk_offset(c)) + uint64_t(chunk_rank(dir_entry(pc.meta_d, c), v & 0xFFFFu));
    U32Ref dst = U32Ref(pc.out_addr + uint64_t(i) * 8ul);
    dst.v[0] = uint(rank);
    dst.v[1] = uint(rank >> 32);
}

void select_query(uint i) {
    U32Ref q = U32Ref(pc.values + uint64_t(i) * 8ul);
    uint64_t k = uint64_t(q.v[0]) | (uint64_t(q.v[1]) << 32);
    if (k >= total_cardinality()) {
        U32Ref(u32_addr(pc.out_addr, i)).v[0] = 0xFFFFFFFFu;
        U32Ref(pc.range_lo).v[0] = 1u;
        return;
    }
    // The last chunk whose exclusive sum is <= k: it holds rank k (the chunks after an empty
    // one share its sum, and k is below the total).
    uint lo = 0u;
    uint hi = CHUNKS;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) / 2u;
        if (uint64_t(chunk_offset(mid)) <= k) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    uint j = uint(k - uint64_t(chunk_offset(lo)));
    U32Ref(u32_addr(pc.out_addr, i)).v[0] = (lo << 16) | chunk_select(dir_entry(pc.meta_d, lo), j);
}

// The smallest (or, with `largest`, the largest) value of the non-empty chunk entry e.
uint chunk_extreme(uvec2 e, bool largest) {
    uint card = chunk_card(e.x);
    if (card == FULL) {
        return largest ? 0xFFFFu : 0u;
    }
    uint r = chunk_runs(e.x);
    if (r != 0u) {
        uint run = chunk_run_word(pc.meta_d, e, largest ? r - 1u : 0u);
        return largest ? run >> 16 : run & 0xFFFFu;
    }
    if (card > ARRAY_MAX) {
        for (uint i = 0u; i < BITMAP_WORDS; ++i) {
            uint w = largest ? BITMAP_WORDS - 1u - i : i;
            uint word = U32Ref(bitmap_word_addr(pc.meta_d, e.y, w)).v[0];
            if (word != 0u) {
                return w * 32u + uint(largest ? findMSB(word) : findLSB(word));
            }
        }
        return 0u;
    }
    return array_value(pc.meta_d, e.y, card, largest ? card - 1u : 0u);
}

// ORDER_MIN_MAX: one invocation per chunk; each subgroup adds its first and last non-empty
// chunks to out_addr's two words (zeroed first) with atomicMax of CHUNKS - first and of
// last + 1 (0 where no chunk is non-empty).
void min_max_chunks() {
    uint c = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    bool nonempty = c < CHUNKS && chunk_card(dir_entry(pc.meta_d, c).x) != 0u;
    uint from_first = subgroupMax(nonempty ? CHUNKS - c : 0u);
    uint past_last = subgroupMax(nonempty ? c + 1u : 0u);
    if (subgroupElect() && past_last != 0u) {
        atomicMax(U32AtomicRef(pc.out_addr).v[0], from_first);
        atomicMax(U32AtomicRef(pc.out_addr).v[1], past_last);
    }
}

// ORDER_MIN_MAX_RESOLVE: one invocation: from min_max_chunks' words, the smallest and largest
// values and 1 (0, 0 and 0 for an empty set) as three u32 at out_addr.
void min_max_values() {
    U32Ref dst = U32Ref(pc.out_addr);
    uint past_last = dst.v[1];
    if (past_last == 0u) {
        dst.v[0] = 0u;
        dst.v[2] = 0u;
        return;
    }
    uint first = CHUNKS - dst.v[0];
    uint last = past_last - 1u;
    dst.v[0] = (first << 16) | chunk_extreme(dir_entry(pc.meta_d, first), false);
    dst.v[1] = (last << 16) | chunk_extreme(dir_entry(pc.meta_d, last), true);
    dst.v[2] = 1u;
}

void main() {
    if (pc.mode == ORDER_MIN_MAX) {
        min_max_chunks();
        return;
    }
    if (pc.mode == ORDER_MIN_MAX_RESOLVE) {
        if (gl_LocalInvocationIndex == 0u) {
            min_max_values();
        }
        return;
    }
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (i >= n) {
        return;
    }
    if (pc.mode == ORDER_RANK) {
        rank_query(i);
    } else {
        select_query(i);
    }
}
