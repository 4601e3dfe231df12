#version 460
// One workgroup (64 to 1024 invocations, a power of two).
// mode 0: to_array offsets: exclusive sums of the chunk cardinalities into scratch
//         (S_START + c; u32: valid while the total is below 2^32), the total (u64 as two u32)
//         to out_addr, the non-empty chunks (ascending) to the work list.
// mode 1: cardinality of [range_lo, range_hi) (u64 as two u32) to out_addr.
// mode 2: filter: exclusive sums of the `count` tile counts in scratch (S_START + tile, in
//         place), the total (a u32) to out_addr.
#include "set_common.glsl"

shared uint s_scan[WG_SIZE];
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

// Entry k (k < count): mode 0 chunk k's directory word (its cardinality | runs << RUN_SHIFT),
// mode 2 tile k's count (below 2^17). scan_entries masks them with CARD_MASK where it uses
// them, after a round's loads: masked here, the driver issued the loads one after another (an
// H200 took 11 us more for the 65536 entries, twice the shared memory in its statistics;
// docs/benchmarks/2026-11-27-h200-run-chunks.md).
uint entry_value(uint k) {
    return pc.mode == 0u ? dir_entry(pc.meta_d, k).x : U32Ref(pc.scratch).v[S_START + k];
}

// Rounds of S entries whose loads a subgroup issues together.
#define ROUNDS 8u

// Exclusive sums of entries [0, count) into S_START + k (u32: valid while the total is below
// 2^32), in mode 0 also the entries that are not zero (ascending) into the work list with
// their number at S_WORK_COUNT; returns the total. Each subgroup takes an equal share of the
// entries, S consecutive ones a round (coalesced loads and stores), ROUNDS rounds' loads at
// once, after a first sweep that sums its share. (Each invocation summing and writing its own
// run of 256 entries, a cache line per lane and load: a to_array of 2^24 random values, 65536
// array chunks, took 0.277 ms on an H200; coalesced, a round's load at a time, 0.214 ms; with
// ROUNDS loads at once 0.170, docs/benchmarks/2026-11-26-h200-large-counts.md.)
uint64_t scan_entries(uint count) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint sg = gl_SubgroupID;
    uint share = (count + gl_NumSubgroups - 1u) / gl_NumSubgroups;
    share = (share + S - 1u) / S * S;
    uint k0 = min(sg * share, count);
    uint k1 = min(k0 + share, count);
    uint mine = 0u;
    uint nonempty = 0u;
    for (uint base = k0; base < k1; base += ROUNDS * S) {
        uint v[ROUNDS];
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            v[r] = k < k1 ? entry_value(k) : 0u;
        }
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            v[r] &= CARD_MASK;
            mine += v[r];
            nonempty += v[r] != 0u ? 1u : 0u;
        }
    }
    uint64_t part = subgroup_sum64(mine);
    uint listed_part = subgroup_sum(nonempty);
    if (subgroupElect()) {
        s_sum[sg] = part;
        s_scan[sg] = listed_part;
    }
    barrier();
    uint64_t run = 0ul;
    uint slot = 0u;
    uint64_t total = 0ul;
    uint listed = 0u;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) {
        if (i < sg) {
            run += s_sum[i];
            slot += s_scan[i];
        }
        total += s_sum[i];
        listed += s_scan[i];
    }
    for (uint base = k0; base < k1; base += ROUNDS * S) {
        uint v[ROUNDS];
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            v[r] = k < k1 ? entry_value(k) : 0u;
        }
        [[unroll]] for (uint r = 0u; r < ROUNDS; ++r) {
            uint k = base + r * S + lane;
            v[r] &= CARD_MASK;
            // At most 64 lanes of at most 65536: the round's sums fit a u32.
            uint before = subgroupExclusiveAdd(v[r]);
            if (k < k1) {
                U32Ref(pc.scratch).v[S_START + k] = uint(run + uint64_t(before));
            }
            run += uint64_t(subgroup_total(before, v[r]));
            if (pc.mode == 0u) {
                uvec4 kept = subgroupBallot(v[r] != 0u);
                if (v[r] != 0u) {
                    U32Ref(pc.scratch).v[S_WORK + slot + subgroupBallotExclusiveBitCount(kept)] = k;
                }
                slot += subgroupBallotBitCount(kept);
            }
        }
    }
    if (pc.mode == 0u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.scratch).v[S_WORK_COUNT] = listed;
    }
    barrier();  // s_sum and s_scan are read before anything writes them again
    return total;
}

void main() {
    uint t = gl_LocalInvocationIndex;
    if (pc.mode == 0u) {
        uint64_t total = scan_entries(CHUNKS);
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = uint(total);
            U32Ref(pc.out_addr).v[1] = uint(total >> 32);
        }
    } else if (pc.mode == 1u) {
        uint64_t lo = pc.range_lo;
        uint64_t hi = pc.range_hi;
        uint64_t total = 0ul;
        if (lo < hi) {
            uint c0 = uint(lo >> 16);
            uint c1 = uint((hi - 1ul) >> 16);
            uint64_t mine = 0ul;
            for (uint c = c0 + t; c <= c1; c += WG_SIZE) {
                uint64_t b0 = uint64_t(c) << 16;
                if (lo <= b0 && b0 + 65536ul <= hi) {
                    mine += uint64_t(chunk_card(dir_entry(pc.meta_d, c).x));
                }
            }
            total = sum_wg(mine);
            uint64_t b0 = uint64_t(c0) << 16;
            if (!(lo <= b0 && b0 + 65536ul <= hi)) {
                total += uint64_t(count_in_chunk(pc.meta_d, c0, uint(lo - b0), uint(min(hi, b0 + 65536ul) - b0)));
            }
            uint64_t b1 = uint64_t(c1) << 16;
            if (c1 != c0 && !(lo <= b1 && b1 + 65536ul <= hi)) {
                total += uint64_t(count_in_chunk(pc.meta_d, c1, 0u, uint(hi - b1)));
            }
        }
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = uint(total);
            U32Ref(pc.out_addr).v[1] = uint(total >> 32);
        }
    } else {
        uint total = uint(scan_entries(pc.count));
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = total;
        }
    }
}
