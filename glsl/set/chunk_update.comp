#version 460
// The chunks of the work list, one workgroup at a time (grid-stride over the list): the
// operand chunks are expanded into two 8 KiB bitmaps in shared memory, combined with `op`,
// and counted. Stage (aux) 0 records the result's cardinality and the blocks it needs; stage 1
// (after the check pass, only when it found enough free blocks) gives the destination chunk's
// old blocks back, takes new ones and writes the result as an array or a bitmap.
// mode 0: second operand the chunk of set b; mode 1: the chunk's run of sorted values
// (scratch start/end); mode 2: the range [range_lo, range_hi).
//
// Sparse path: when both operands are arrays (or empty, or a run of at most 4096 sorted
// values) and the result must be an array (AND, ANDNOT, or at most 4096 values together), the
// operands stay sorted u16 lists in shared memory: each element finds itself in the other list
// by binary search, the kept elements get bits in two 4096-bit masks with per-word prefix
// counts, and a kept element's output position is (kept elements of its own list before it)
// + (kept elements of the other list below it), the rank-merge idea of merge path (Green,
// McColl, Bader, "GPU merge path", ICS 2012) without materializing the merge. This costs
// O(na + nb) instead of the 2048-word bitmap passes, which dominate sparse chunks.
#include "set_common.glsl"

shared uint sa[BITMAP_WORDS];
shared uint sb[BITMAP_WORDS];
shared uint s_card;
shared uint s_pos;
shared uint so[BITMAP_WORDS];
shared uint s_ids[ARRAY_BLOCK_WORDS];
shared uint s_scan[WG_SIZE];
// Sparse path: kept-element masks of a and b (4096 bits each) and their per-word exclusive
// prefix counts; entry 128 (mask 0, prefix the total) answers for index 4096.
shared uint s_keep_a[129];
shared uint s_keep_b[129];
shared uint s_pre_a[129];
shared uint s_pre_b[129];

uint elem_a(uint j) { return (sa[j >> 1] >> ((j & 1u) * 16u)) & 0xFFFFu; }
uint elem_b(uint j) { return (sb[j >> 1] >> ((j & 1u) * 16u)) & 0xFFFFu; }

// Number of elements of a (which == 0) or b below x (lists sorted; b may repeat values).
uint lower_bound(uint which, uint n, uint x) {
    uint lo = 0u;
    uint hi = n;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        uint v = which == 0u ? elem_a(mid) : elem_b(mid);
        if (v < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Kept elements of a (which == 0) or b with index below j.
uint kept_before(uint which, uint j) {
    uint w = j >> 5;
    uint below = (1u << (j & 31u)) - 1u;
    if (which == 0u) {
        return s_pre_a[w] + bitCount(s_keep_a[w] & below);
    }
    return s_pre_b[w] + bitCount(s_keep_b[w] & below);
}

// Whether element j of a (which == 0) or b is in the result.
bool keep_elem(uint which, uint j, uint na, uint nb) {
    if (which == 0u) {
        uint x = elem_a(j);
        uint lb = lower_bound(1u, nb, x);
        bool in_b = lb < nb && elem_b(lb) == x;
        return pc.op == OP_AND ? in_b : (pc.op == OP_OR ? true : !in_b);
    }
    uint x = elem_b(j);
    if (pc.op == OP_AND || pc.op == OP_ANDNOT || (j > 0u && elem_b(j - 1u) == x)) {
        return false;
    }
    uint lb = lower_bound(0u, na, x);
    return !(lb < na && elem_a(lb) == x);
}

// Sorted u16 list of an array (or empty) chunk into sa (which == 0) or sb, packed in pairs
// as in the array blocks.
void load_list(uint64_t meta, uvec2 e, uint which) {
    if (e.x == 0u) {
        return;
    }
    uint h = array_blocks(e.x) - 1u;
    uint words = (e.x + 1u) / 2u;
    for (uint j = gl_LocalInvocationIndex; j < words; j += WG_SIZE) {
        uint word = array_stream_word(meta, e.y, h + j);
        if (2u * j + 1u >= e.x) {
            word &= 0xFFFFu;
        }
        if (which == 0u) { sa[j] = word; } else { sb[j] = word; }
    }
}

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
        uvec2 ea = dir_entry(pc.meta_a, c);
        uvec2 eb = uvec2(0u);
        uint start = 0u;
        uint end = 0u;
        bool b_sparse = false;
        if (pc.mode == 0u) {
            eb = dir_entry(pc.meta_b, c);
            b_sparse = eb.x <= ARRAY_MAX;
        } else if (pc.mode == 1u) {
            start = U32Ref(pc.scratch).v[S_START + c];
            end = U32Ref(pc.scratch).v[S_END + c];
            eb.x = end - start;
            b_sparse = eb.x <= ARRAY_MAX;
        }
        bool sparse = ea.x <= ARRAY_MAX && b_sparse
                   && (pc.op == OP_AND || pc.op == OP_ANDNOT || ea.x + eb.x <= ARRAY_MAX);
        barrier();
        uint card;
        if (sparse) {
            uint na = ea.x;
            uint nb = eb.x;
            load_list(pc.meta_a, ea, 0u);
            if (pc.mode == 0u) {
                load_list(pc.meta_b, eb, 1u);
            } else {
                for (uint j = t; 2u * j < nb; j += WG_SIZE) {
                    uint lo = U32Ref(u32_addr(pc.values, start + 2u * j)).v[0] & 0xFFFFu;
                    uint hi = 2u * j + 1u < nb ? (U32Ref(u32_addr(pc.values, start + 2u * j + 1u)).v[0] & 0xFFFFu) : 0u;
                    sb[j] = lo | (hi << 16);
                }
            }
            for (uint w = t; w < 129u; w += WG_SIZE) {
                s_keep_a[w] = 0u;
                s_keep_b[w] = 0u;
            }
            barrier();
            for (uint j = t; j < na; j += WG_SIZE) {
                if (keep_elem(0u, j, na, nb)) {
                    atomicOr(s_keep_a[j >> 5], 1u << (j & 31u));
                }
            }
            if (pc.op == OP_OR || pc.op == OP_XOR) {
                for (uint j = t; j < nb; j += WG_SIZE) {
                    if (keep_elem(1u, j, na, nb)) {
                        atomicOr(s_keep_b[j >> 5], 1u << (j & 31u));
                    }
                }
            }
            barrier();
            // Per-word exclusive prefix counts: invocation t owns words [t * pw, t * pw + pw);
            // both lists' counts (each at most 4096) travel packed in one u32.
            uint pw = max(1u, 128u / WG_SIZE);
            uint mine = 0u;
            for (uint k = 0u; k < pw; k++) {
                uint w = t * pw + k;
                if (w < 128u) {
                    mine += bitCount(s_keep_a[w]) | (bitCount(s_keep_b[w]) << 16);
                }
            }
            s_scan[t] = mine;
            barrier();
            for (uint d = 1u; d < WG_SIZE; d <<= 1) {
                uint add = t >= d ? s_scan[t - d] : 0u;
                barrier();
                s_scan[t] += add;
                barrier();
            }
            uint run = s_scan[t] - mine;
            for (uint k = 0u; k < pw; k++) {
                uint w = t * pw + k;
                if (w < 128u) {
                    s_pre_a[w] = run & 0xFFFFu;
                    s_pre_b[w] = run >> 16;
                    run += bitCount(s_keep_a[w]) | (bitCount(s_keep_b[w]) << 16);
                }
            }
            uint total = s_scan[WG_SIZE - 1u];
            if (t == 0u) {
                s_pre_a[128] = total & 0xFFFFu;
                s_pre_b[128] = total >> 16;
            }
            card = (total & 0xFFFFu) + (total >> 16);
            barrier();
        } else {
            load_chunk(pc.meta_a, c, 0u);
            if (pc.mode == 0u) {
                load_chunk(pc.meta_b, c, 1u);
            } else if (pc.mode == 1u) {
                for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                    sb[w] = 0u;
                }
                barrier();
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
            card = s_card;
        }
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
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                so[w] = 0u;
            }
            barrier();
            if (sparse) {
                uint na = ea.x;
                uint nb = eb.x;
                for (uint j = t; j < na; j += WG_SIZE) {
                    if ((s_keep_a[j >> 5] & (1u << (j & 31u))) != 0u) {
                        uint x = elem_a(j);
                        uint p = kept_before(0u, j) + kept_before(1u, lower_bound(1u, nb, x));
                        atomicOr(so[p >> 1], x << ((p & 1u) * 16u));
                    }
                }
                if (pc.op == OP_OR || pc.op == OP_XOR) {
                    for (uint j = t; j < nb; j += WG_SIZE) {
                        if ((s_keep_b[j >> 5] & (1u << (j & 31u))) != 0u) {
                            uint x = elem_b(j);
                            uint p = kept_before(1u, j) + kept_before(0u, lower_bound(0u, na, x));
                            atomicOr(so[p >> 1], x << ((p & 1u) * 16u));
                        }
                    }
                }
            } else {
                // Compaction: invocation t owns bitmap words [t * per, (t + 1) * per).
                uint per = BITMAP_WORDS / WG_SIZE;
                uint base_w = t * per;
                uint mine = 0u;
                for (uint w = 0u; w < per; w++) {
                    mine += bitCount(sa[base_w + w]);
                }
                s_scan[t] = mine;
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
                        atomicOr(so[p >> 1], v << ((p & 1u) * 16u));
                        p++;
                    }
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
                U32Ref(array_block_addr(pc.meta_d, id)).v[w % ARRAY_BLOCK_WORDS] = so[j];
            }
        }
        if (t == 0u) {
            set_dir_entry(pc.meta_d, c, uvec2(card, id0));
            note_nonempty(pc.meta_d, old_d.x, card);
        }
    }
}
