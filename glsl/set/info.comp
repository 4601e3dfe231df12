#version 460
// mode 0 and 3: to_array's offsets, in two passes of OFFSET_BLOCKS workgroups (one block of
//         OFFSET_BLOCK chunks each). Mode 0 sums each block's chunk cardinalities and
//         non-empty chunks into scratch (S_END + b, S_END + OFFSET_BLOCKS + b); mode 3 writes
//         the exclusive sums of the chunk cardinalities (S_START + c; u32: valid while the
//         total is below 2^32) and the non-empty chunks (ascending) to the work list, and its
//         last block the total (u64 as two u32) to out_addr and the list's length. (One
//         workgroup over the 65536 entries was much of a to_array's time:
//         docs/tuning/set.md#to-array-offsets.)
// mode 1: cardinality of [range_lo, range_hi) (u64 as two u32) added to out_addr (zeroed
//         first), a block of OFFSET_BLOCK of the range's chunks a workgroup.
// One workgroup (64 to 1024 invocations, a power of two):
// mode 2: filter: exclusive sums of the `count` tile counts in scratch (S_START + tile, in
//         place), the total (a u32) to out_addr.
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

shared uint64_t s_sum[WG_SIZE];

uint64_t sum_wg(uint64_t x) {
    uint t = gl_LocalInvocationIndex;
    barrier();
    s_sum[t] = x;
    barrier();
    for (uint d = WG_SIZE / 2u; d > 0u; d >>= 1) {
        if (t < d) {
            s_sum[t] += s_sum[t + d];
        }
        barrier();
    }
    uint64_t r = s_sum[0];
    barrier();
    return r;
}

// Values of chunk c in [lo, hi) (chunk-local, lo <= hi <= 65536), summed over the workgroup.
uint count_in_chunk(uint64_t meta, uint c, uint lo, uint hi) {
    uvec2 e = dir_entry(meta, c);
    uint t = gl_LocalInvocationIndex;
    uint mine = 0u;
    uint r = chunk_runs(e.x);
    if (e.x == FULL) {
        mine = t == 0u ? hi - lo : 0u;
    } else if (r != 0u) {
        // Each run's overlap with [lo, hi).
        for (uint i = t; i < r; i += WG_SIZE) {
            uint run = chunk_run_word(meta, e, i);
            uint first = max(run & 0xFFFFu, lo);
            uint end = min((run >> 16) + 1u, hi);
            mine += end > first ? end - first : 0u;
        }
    } else if (e.x > ARRAY_MAX) {
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            uint m = range_mask(w, lo, hi);
            if (m != 0u) {
                mine += bitCount(U32Ref(bitmap_word_addr(meta, e.y, w)).v[0] & m);
            }
        }
    } else if (e.x > 0u) {
        uint h = header_words(e.x);
        uint words = (e.x + 1u) / 2u;
        for (uint j = t; j < words; j += WG_SIZE) {
            uint word = array_stream_word(meta, e.y, h + j);
            uint v0 = word & 0xFFFFu;
            uint v1 = word >> 16;
            mine += (v0 >= lo && v0 < hi) ? 1u : 0u;
            mine += (2u * j + 1u < e.x && v1 >= lo && v1 < hi) ? 1u : 0u;
        }
    }
    return uint(sum_wg(uint64_t(mine)));
}

// The sum of one u32 per lane over the subgroup, in 64 bits (a lane's part is below 2^26).
uint64_t subgroup_sum64(uint x) {
    return (uint64_t(subgroup_sum(x >> 16)) << 16) + uint64_t(subgroup_sum(x & 0xFFFFu));
}

// Tile k's count (k < count, below 2^17).
uint entry_value(uint k) {
    return U32Ref(pc.scratch).v[S_START + k];
}

// Rounds of S entries whose loads a subgroup issues together.
#define ROUNDS 8u

// Exclusive sums of entries [0, count) into S_START + k (in place); returns the total. Each
// subgroup takes an equal share of the entries, S consecutive ones a round (coalesced loads
// and stores), ROUNDS rounds' loads at once, after a first sweep that sums its share. (Each
// invocation summing and writing its own run of 256 entries, a cache line per lane and load,
// was slower: docs/tuning/set.md#to-array-coalesced.)
uint64_t scan_entries(uint count) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint sg = gl_SubgroupID;
    uint share = (count + gl_NumSubgroups - 1u) / gl_NumSubgroups;
    share = (share + S - 1u) / S * S;
    uint k0 = min(sg * share, count);
    uint k1 = min(k0 + share, count);
    uint mine = 0u;
    for (uint base = k0; base < k1; base += ROUNDS * S) {
        uint v[ROUNDS];
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            v[r] = k < k1 ? entry_value(k) : 0u;
        }
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            mine += v[r];
        }
    }
    uint64_t part = subgroup_sum64(mine);
    if (subgroupElect()) {
        s_sum[sg] = part;
    }
    barrier();
    uint64_t run = 0ul;
    uint64_t total = 0ul;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) {
        if (i < sg) {
            run += s_sum[i];
        }
        total += s_sum[i];
    }
    for (uint base = k0; base < k1; base += ROUNDS * S) {
        uint v[ROUNDS];
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            v[r] = k < k1 ? entry_value(k) : 0u;
        }
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            // At most 64 lanes of less than 2^17: the round's sums fit a u32.
            uint before = subgroupExclusiveAdd(v[r]);
            if (k < k1) {
                U32Ref(pc.scratch).v[S_START + k] = uint(run + uint64_t(before));
            }
            run += uint64_t(subgroup_total(before, v[r]));
        }
    }
    barrier();  // s_sum is read before anything writes it again
    return total;
}

// Chunks per workgroup of to_array's offsets (modes 0 and 3), and the workgroups
// (OFFSET_BLOCK, OFFSET_BLOCKS: generated/set.glsl).
// Where mode 0 leaves a block's sums (S_END's words, which only inserts use).
#define S_BLOCK_CARD(b) (S_END + (b))
#define S_BLOCK_LISTED(b) (S_END + OFFSET_BLOCKS + (b))

// Chunk c's cardinality.
uint chunk_value(uint c) {
    return dir_entry(pc.meta_d, c).x & CARD_MASK;
}

// Mode 0: block b's cardinality (at most 2^24) and non-empty chunks.
void block_sums(uint b) {
    uint t = gl_LocalInvocationIndex;
    uint card = 0u;
    uint listed = 0u;
    for (uint i = t; i < OFFSET_BLOCK; i += WG_SIZE) {
        uint v = chunk_value(b * OFFSET_BLOCK + i);
        card += v;
        listed += v != 0u ? 1u : 0u;
    }
    // Two fields of one sum: the cardinality (at most 2^24) in bits 0-31, the count above.
    uint64_t total = sum_wg(uint64_t(card) | (uint64_t(listed) << 32));
    if (t == 0u) {
        U32Ref(pc.scratch).v[S_BLOCK_CARD(b)] = uint(total);
        U32Ref(pc.scratch).v[S_BLOCK_LISTED(b)] = uint(total >> 32);
    }
}

// Mode 3: block b's chunk offsets and non-empty chunks, from the sums of the blocks before it
// (mode 0's); the last block writes the total and the work list's length.
void block_offsets(uint b) {
    uint t = gl_LocalInvocationIndex;
    uint64_t card_before = 0ul;
    uint listed_before = 0u;
    for (uint i = t; i < b; i += WG_SIZE) {
        card_before += uint64_t(U32Ref(pc.scratch).v[S_BLOCK_CARD(i)]);
        listed_before += U32Ref(pc.scratch).v[S_BLOCK_LISTED(i)];
    }
    // Two fields of one sum: the cardinality (at most 2^32) in bits 0-39, the count (at most
    // 65536) above.
    uint64_t before = sum_wg(card_before | (uint64_t(listed_before) << 40));
    uint64_t run = before & 0xFFFFFFFFFFul;
    uint slot = uint(before >> 40);
    for (uint base = 0u; base < OFFSET_BLOCK; base += WG_SIZE) {
        uint i = base + t;
        uint c = b * OFFSET_BLOCK + i;
        uint v = i < OFFSET_BLOCK ? chunk_value(c) : 0u;
        uint card_total;
        uint card_prefix = workgroup_exclusive_scan(v, card_total);
        uint listed_total;
        uint listed_prefix = workgroup_exclusive_scan(v != 0u ? 1u : 0u, listed_total);
        if (i < OFFSET_BLOCK) {
            U32Ref(pc.scratch).v[S_START + c] = uint(run + uint64_t(card_prefix));
        }
        if (v != 0u) {
            U32Ref(pc.scratch).v[S_WORK + slot + listed_prefix] = c;
        }
        run += uint64_t(card_total);
        slot += listed_total;
    }
    if (b == OFFSET_BLOCKS - 1u && t == 0u) {
        U32Ref(pc.scratch).v[S_WORK_COUNT] = slot;
        U32Ref(pc.out_addr).v[0] = uint(run);
        U32Ref(pc.out_addr).v[1] = uint(run >> 32);
    }
}

// Adds `x` to the u64 at out_addr (two u32, low first) with 32-bit atomics: the low word, and
// a carry into the high word where the low word wrapped.
void add_to_output(uint64_t x) {
    uint lo = uint(x);
    uint old = atomicAdd(U32AtomicRef(pc.out_addr).v[0], lo);
    uint carry = uint(x >> 32) + (old + lo < old ? 1u : 0u);
    if (carry != 0u) {
        atomicAdd(U32AtomicRef(pc.out_addr).v[1], carry);
    }
}

// Mode 1: workgroup b counts block b of the range's chunks (OFFSET_BLOCK from the range's
// first chunk on), the range's partial first and last chunks included, and adds the count to
// the output. (One workgroup over every chunk of the range was slower:
// docs/tuning/set.md#to-array-offsets.)
void range_block(uint b) {
    uint64_t lo = pc.range_lo;
    uint64_t hi = pc.range_hi;
    if (lo >= hi) {
        return;
    }
    uint c0 = uint(lo >> 16);
    uint c1 = uint((hi - 1ul) >> 16);
    uint first = c0 + b * OFFSET_BLOCK;
    if (first > c1) {
        return;
    }
    uint last = min(first + OFFSET_BLOCK - 1u, c1);
    uint64_t mine = 0ul;
    for (uint c = first + gl_LocalInvocationIndex; c <= last; c += WG_SIZE) {
        uint64_t b0 = uint64_t(c) << 16;
        if (lo <= b0 && b0 + 65536ul <= hi) {
            mine += uint64_t(chunk_card(dir_entry(pc.meta_d, c).x));
        }
    }
    uint64_t total = sum_wg(mine);
    uint64_t b0 = uint64_t(c0) << 16;
    if (first == c0 && !(lo <= b0 && b0 + 65536ul <= hi)) {
        uint end = uint(min(hi, b0 + 65536ul) - b0);
        total += uint64_t(count_in_chunk(pc.meta_d, c0, uint(lo - b0), end));
    }
    uint64_t b1 = uint64_t(c1) << 16;
    if (last == c1 && c1 != c0 && !(lo <= b1 && b1 + 65536ul <= hi)) {
        total += uint64_t(count_in_chunk(pc.meta_d, c1, 0u, uint(hi - b1)));
    }
    if (gl_LocalInvocationIndex == 0u && total != 0ul) {
        add_to_output(total);
    }
}

void main() {
    uint t = gl_LocalInvocationIndex;
    if (pc.mode == 0u) {
        block_sums(linear_workgroup_id());
    } else if (pc.mode == 3u) {
        block_offsets(linear_workgroup_id());
    } else if (pc.mode == 1u) {
        range_block(linear_workgroup_id());
    } else {
        uint total = uint(scan_entries(pc.count));
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = total;
        }
    }
}
