#version 460
// The chunks of the work list, one workgroup at a time (grid-stride over the list): the
// operand chunks are expanded into two 8 KiB bitmaps in shared memory, combined with `op`,
// and counted. Stage (aux) 0 records the result's cardinality and the blocks it needs; stage 1
// (after the check pass, only when it found enough free blocks) gives the destination chunk's
// old blocks back, takes new ones and writes the result as an array or a bitmap.
// mode 0: second operand the chunk of set b; mode 1: the chunk's run of sorted values
// (scratch start/end); mode 2: the range [range_lo, range_hi).
#include "set_common.glsl"

shared uint sa[BITMAP_WORDS];
shared uint sb[BITMAP_WORDS];
shared uint s_card;
shared uint s_pos;
shared uint s_ids[ARRAY_BLOCK_WORDS];
shared uint s_scan[WG_SIZE];

// Expands chunk c of the set at `meta` into sa (which == 0) or sb (which == 1).
void load_chunk(uint64_t meta, uint c, uint which) {
    uvec2 e = dir_entry(meta, c);
    uint t = gl_LocalInvocationIndex;
    if (e.x > ARRAY_MAX && e.x < FULL) {
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            uint x = U32Ref(bitmap_word_addr(meta, e.y, w)).v[0];
            if (which == 0u) { sa[w] = x; } else { sb[w] = x; }
        }
        return;
    }
    uint fill = e.x == FULL ? 0xFFFFFFFFu : 0u;
    for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
        if (which == 0u) { sa[w] = fill; } else { sb[w] = fill; }
    }
    if (e.x == 0u || e.x == FULL) {
        return;
    }
    barrier();
    uint h = array_blocks(e.x) - 1u;
    uint words = (e.x + 1u) / 2u;
    for (uint j = t; j < words; j += WG_SIZE) {
        uint word = array_stream_word(meta, e.y, h + j);
        uint v0 = word & 0xFFFFu;
        if (which == 0u) { atomicOr(sa[v0 >> 5], 1u << (v0 & 31u)); } else { atomicOr(sb[v0 >> 5], 1u << (v0 & 31u)); }
        if (2u * j + 1u < e.x) {
            uint v1 = word >> 16;
            if (which == 0u) { atomicOr(sa[v1 >> 5], 1u << (v1 & 31u)); } else { atomicOr(sb[v1 >> 5], 1u << (v1 & 31u)); }
        }
    }
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_WORK_COUNT];
    bool write = pc.aux == 1u;
    if (write && U32Ref(pc.scratch).v[S_OK] == 0u) {
        return;
    }
    for (uint item = linear_workgroup_id(); item < n; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[S_WORK + item];
        uvec2 old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
        barrier();
        load_chunk(pc.meta_a, c, 0u);
        if (pc.mode == 0u) {
            load_chunk(pc.meta_b, c, 1u);
        } else if (pc.mode == 1u) {
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                sb[w] = 0u;
            }
            barrier();
            uint start = U32Ref(pc.scratch).v[S_START + c];
            uint end = U32Ref(pc.scratch).v[S_END + c];
            for (uint i = start + t; i < end; i += WG_SIZE) {
                uint v = U32Ref(u32_addr(pc.values, i)).v[0] & 0xFFFFu;
                atomicOr(sb[v >> 5], 1u << (v & 31u));
            }
        } else {
            uint64_t c0 = uint64_t(c) << 16;
            uint lo = uint(clamp(pc.range_lo, c0, c0 + 65536ul) - c0);
            uint hi = uint(clamp(pc.range_hi, c0, c0 + 65536ul) - c0);
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                sb[w] = range_mask(w, lo, hi);
            }
        }
        if (t == 0u) {
            s_card = 0u;
        }
        barrier();
        uint cnt = 0u;
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            uint r = apply_op(pc.op, sa[w], sb[w]);
            sa[w] = r;
            cnt += bitCount(r);
        }
        atomicAdd(s_card, cnt);
        barrier();
        uint card = s_card;
        uvec2 need = chunk_blocks(card);
        if (!write) {
            if (t == 0u) {
                if (card == FULL) {
                    atomicAdd(U32AtomicRef(pc.scratch).v[S_CARD_FULL], 1u);
                } else {
                    atomicAdd(U32AtomicRef(pc.scratch).v[S_CARD_PARTIAL], card);
                }
                if (need.x != 0u) {
                    atomicAdd(U32AtomicRef(pc.scratch).v[S_NEED_BM], need.x);
                }
                if (need.y != 0u) {
                    atomicAdd(U32AtomicRef(pc.scratch).v[S_NEED_AR], need.y);
                }
            }
            continue;
        }
        // Write stage: the operands are in shared memory; give the old blocks back.
        if (t == 0u) {
            free_chunk_storage_serial(pc.meta_d, old_d);
        }
        uint id0 = 0u;
        if (need.x != 0u) {
            if (t == 0u) {
                uint pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 0u)).v[0], 1u);
                s_pos = U32Ref(SetMetaRef(pc.meta_d).bm_ring).v[pos & SetMetaRef(pc.meta_d).bm_mask];
            }
            barrier();
            id0 = s_pos;
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                U32Ref(bitmap_word_addr(pc.meta_d, id0, w)).v[0] = sa[w];
            }
        } else if (need.y != 0u) {
            uint k = need.y;
            if (t == 0u) {
                s_pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 2u)).v[0], k);
            }
            barrier();
            uint pos = s_pos;
            if (t < k) {
                s_ids[t] = U32Ref(SetMetaRef(pc.meta_d).ar_ring).v[(pos + t) & SetMetaRef(pc.meta_d).ar_mask];
            }
            // Compaction: invocation t owns bitmap words [t * per, (t + 1) * per).
            uint per = BITMAP_WORDS / WG_SIZE;
            uint base_w = t * per;
            uint mine = 0u;
            for (uint w = 0u; w < per; w++) {
                mine += bitCount(sa[base_w + w]);
            }
            s_scan[t] = mine;
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                sb[w] = 0u;
            }
            barrier();
            // Hillis-Steele inclusive scan of the per-invocation counts.
            for (uint d = 1u; d < WG_SIZE; d <<= 1) {
                uint add = t >= d ? s_scan[t - d] : 0u;
                barrier();
                s_scan[t] += add;
                barrier();
            }
            uint p = s_scan[t] - mine;
            for (uint w = 0u; w < per; w++) {
                uint bits = sa[base_w + w];
                while (bits != 0u) {
                    uint b = uint(findLSB(bits));
                    bits &= bits - 1u;
                    uint v = (base_w + w) * 32u + b;
                    atomicOr(sb[p >> 1], v << ((p & 1u) * 16u));
                    p++;
                }
            }
            barrier();
            id0 = s_ids[0];
            uint h = k - 1u;
            if (t >= 1u && t < k) {
                U32Ref(array_block_addr(pc.meta_d, id0)).v[t - 1u] = s_ids[t];
            }
            uint words = (card + 1u) / 2u;
            for (uint j = t; j < words; j += WG_SIZE) {
                uint w = h + j;
                uint id = s_ids[w / ARRAY_BLOCK_WORDS];
                U32Ref(array_block_addr(pc.meta_d, id)).v[w % ARRAY_BLOCK_WORDS] = sb[j];
            }
        }
        if (t == 0u) {
            set_dir_entry(pc.meta_d, c, uvec2(card, id0));
        }
    }
}
