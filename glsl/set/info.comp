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

// Exclusive scan of one u32 per invocation; the total in `total`.
uint scan_wg(uint x, out uint total) {
    uint t = gl_LocalInvocationIndex;
    barrier();
    s_scan[t] = x;
    barrier();
    for (uint d = 1u; d < WG_SIZE; d <<= 1) {
        uint add = t >= d ? s_scan[t - d] : 0u;
        barrier();
        s_scan[t] += add;
        barrier();
    }
    total = s_scan[WG_SIZE - 1u];
    uint r = s_scan[t] - x;
    barrier();
    return r;
}

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
    if (e.x == FULL) {
        mine = t == 0u ? hi - lo : 0u;
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

void main() {
    uint t = gl_LocalInvocationIndex;
    if (pc.mode == 0u) {
        uint per = CHUNKS / WG_SIZE;
        uint64_t mine = 0ul;
        uint nonempty = 0u;
        for (uint i = 0u; i < per; i++) {
            uint card = dir_entry(pc.meta_d, t * per + i).x;
            mine += uint64_t(card);
            nonempty += card != 0u ? 1u : 0u;
        }
        // Offsets as u32 (to_array needs a total below 2^32), the total in 64 bits.
        uint total32;
        uint base = scan_wg(uint(mine), total32);
        uint64_t total = sum_wg(mine);
        uint listed;
        uint slot = scan_wg(nonempty, listed);
        uint run = base;
        for (uint i = 0u; i < per; i++) {
            uint c = t * per + i;
            uint card = dir_entry(pc.meta_d, c).x;
            U32Ref(pc.scratch).v[S_START + c] = run;
            run += card;
            if (card != 0u) {
                U32Ref(pc.scratch).v[S_WORK + slot] = c;
                slot++;
            }
        }
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = uint(total);
            U32Ref(pc.out_addr).v[1] = uint(total >> 32);
            U32Ref(pc.scratch).v[S_WORK_COUNT] = listed;
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
                    mine += uint64_t(dir_entry(pc.meta_d, c).x);
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
        uint tiles = pc.count;
        uint per = (tiles + WG_SIZE - 1u) / WG_SIZE;
        uint mine = 0u;
        for (uint i = 0u; i < per; i++) {
            uint k = t * per + i;
            mine += k < tiles ? U32Ref(pc.scratch).v[S_START + k] : 0u;
        }
        uint total;
        uint run = scan_wg(mine, total);
        for (uint i = 0u; i < per; i++) {
            uint k = t * per + i;
            if (k < tiles) {
                uint x = U32Ref(pc.scratch).v[S_START + k];
                U32Ref(pc.scratch).v[S_START + k] = run;
                run += x;
            }
        }
        if (t == 0u) {
            U32Ref(pc.out_addr).v[0] = total;
        }
    }
}
