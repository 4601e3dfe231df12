// The union (OR) or symmetric difference (XOR) of one chunk of many sets into a shared bitmap,
// shared by the many-way kernels (many_cardinality.comp, chunk_update.comp's MANY_WAY). The
// workgroup's subgroups take different sets side by side and every word is applied by a shared
// atomic, so no barrier separates one set from the next (docs/tuning/set.md#many-way-union).
//
// The includer has included the public include and view_words.glsl, and defines, before
// including this file:
//   MANY_UNION_ACC        the shared uint[VKALGO_SET_BITMAP_WORDS] that receives the chunk
//   MANY_UNION_VIEW(i)    the VkalgoSetView of set i
#ifndef VKALGO_SET_MANY_UNION_GLSL
#define VKALGO_SET_MANY_UNION_GLSL

shared uint s_union_runs;  // whether a combined chunk is a run chunk

void union_apply(uint w, uint bits, bool use_xor) {
    if (use_xor) {
        atomicXor(MANY_UNION_ACC[w], bits);
    } else {
        atomicOr(MANY_UNION_ACC[w], bits);
    }
}

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer UnionQuadRef { uvec4 v[]; };

// 16-byte loads a lane keeps in flight.
#define UNION_UNROLL 4u

// Applies the values in [lo_value, hi_value] of an array chunk (card values, first block id0)
// to MANY_UNION_ACC, by the calling subgroup's lanes. The stream (header words, then two values
// a word; vkalgo_set_array_value) is read 16 bytes at a time: 4 words never straddle a block of
// 48. For a slice of the chunk (`sliced`), each lane first samples one quad's first value, so
// that only the quads between the samples bracketing the range are read.
void union_array(VkalgoSetView s, uint id0, uint card, bool use_xor, uint lo_value, uint hi_value,
                 bool sliced, uint lane, uint width) {
    uint64_t pool = VkalgoSetControlRef(s.control).array_pool;
    uint64_t block_bytes = uint64_t(VKALGO_SET_ARRAY_BLOCK_WORDS * 4u);
    uint words = (card + 1u) / 2u;
    uint head = view_array_head(card);
    uint q_first = head / 4u;
    uint q_end = (head + words - 1u) / 4u + 1u;
    uint nq = q_end - q_first;
    uint qa = q_first;
    uint qb = q_end;
    if (sliced && nq > width) {
        uint sw = max((q_first + lane * nq / width) * 4u, head);
        uint k = sw / VKALGO_SET_ARRAY_BLOCK_WORDS;
        uint id = k == 0u ? id0 : VkalgoSetWordRef(pool + uint64_t(id0) * block_bytes).v[k - 1u];
        uint v = VkalgoSetWordRef(pool + uint64_t(id) * block_bytes).v[sw % VKALGO_SET_ARRAY_BLOCK_WORDS] & 0xFFFFu;
        // The samples rise with the lanes: those below the range are a prefix, those above a
        // suffix. The last sample below may hold values of the range; the first above and all
        // after it hold none.
        uint below = subgroupBallotBitCount(subgroupBallot(v < lo_value));
        uint above = subgroupBallotBitCount(subgroupBallot(v > hi_value));
        if (below > 0u) {
            qa = q_first + (below - 1u) * nq / width;
        }
        if (above > 0u) {
            qb = q_first + (width - above) * nq / width;
        }
    }
    for (uint q = qa + lane; q < qb; q += UNION_UNROLL * width) {
        uvec4 x[UNION_UNROLL];
        [[unroll]] for (uint u = 0u; u < UNION_UNROLL; ++u) {
            uint qq = q + u * width;
            x[u] = uvec4(0u);
            if (qq < qb) {
                uint k = (qq * 4u) / VKALGO_SET_ARRAY_BLOCK_WORDS;
                uint id = k == 0u ? id0 : VkalgoSetWordRef(pool + uint64_t(id0) * block_bytes).v[k - 1u];
                x[u] = UnionQuadRef(pool + uint64_t(id) * block_bytes).v[(qq * 4u) % VKALGO_SET_ARRAY_BLOCK_WORDS / 4u];
            }
        }
        [[unroll]] for (uint u = 0u; u < UNION_UNROLL; ++u) {
            [[unroll]] for (uint b = 0u; b < 4u; ++b) {
                uint sw = (q + u * width) * 4u + b;
                if (sw >= head && sw < head + words && q + u * width < qb) {
                    uint j = 2u * (sw - head);
                    uint v = x[u][b] & 0xFFFFu;
                    if (v >= lo_value && v <= hi_value) {
                        union_apply(v >> 5, 1u << (v & 31u), use_xor);
                    }
                    v = x[u][b] >> 16;
                    if (j + 1u < card && v >= lo_value && v <= hi_value) {
                        union_apply(v >> 5, 1u << (v & 31u), use_xor);
                    }
                }
            }
        }
    }
}

// Applies chunk e of set s (card values, not empty) to the words [w0, w1) of MANY_UNION_ACC,
// by the calling subgroup's lanes; returns whether it is a run chunk.
bool union_chunk(VkalgoSetView s, uvec2 e, uint card, bool use_xor, uint w0, uint w1,
                 uint lo_value, uint hi_value, uint lane, uint width) {
    bool runs_seen = false;
    uint runs = e.x >> VKALGO_SET_RUN_SHIFT;
    if (runs != 0u) {
        runs_seen = true;
        // Few runs: each run's words shared by the lanes; many: a lane a run. Runs of one
        // set are disjoint, so XOR sets their words too.
        bool few = runs <= width;
        for (uint r = few ? 0u : lane; r < runs; r += few ? 1u : width) {
            uint run = vkalgo_set_run(s, e, r);
            uint lo = max(run & 0xFFFFu, lo_value);
            uint hi = min(run >> 16, hi_value);
            if (lo > hi) {
                continue;
            }
            for (uint w = (lo >> 5) + (few ? lane : 0u); w <= hi >> 5; w += few ? width : 1u) {
                uint from = max(lo, w << 5) - (w << 5);
                uint to = min(hi, (w << 5) + 31u) - (w << 5);
                union_apply(w, (0xFFFFFFFFu >> (31u - to)) & (0xFFFFFFFFu << from), use_xor);
            }
        }
    } else if (card == VKALGO_SET_FULL) {
        for (uint w = w0 + lane; w < w1; w += width) {
            union_apply(w, 0xFFFFFFFFu, use_xor);
        }
    } else if (card <= VKALGO_SET_ARRAY_MAX) {
        union_array(s, e.y, card, use_xor, lo_value, hi_value, w1 - w0 < VKALGO_SET_BITMAP_WORDS,
                    lane, width);
    } else {
        uint64_t block = VkalgoSetControlRef(s.control).bitmap_pool
                       + uint64_t(e.y) * uint64_t(VKALGO_SET_BITMAP_WORDS * 4u);
        UnionQuadRef quads = UnionQuadRef(block);
        uint q1 = w1 / 4u;
        for (uint q = w0 / 4u + lane; q < q1; q += UNION_UNROLL * width) {
            uvec4 x[UNION_UNROLL];
            [[unroll]] for (uint u = 0u; u < UNION_UNROLL; ++u) {
                uint k = q + u * width;
                x[u] = k < q1 ? quads.v[k] : uvec4(0u);
            }
            [[unroll]] for (uint u = 0u; u < UNION_UNROLL; ++u) {
                uint w = (q + u * width) * 4u;
                [[unroll]] for (uint b = 0u; b < 4u; ++b) {
                    if (x[u][b] != 0u) {
                        union_apply(w + b, x[u][b], use_xor);
                    }
                }
            }
        }
    }
    return runs_seen;
}

// MANY_UNION_ACC = chunk c of sets [first, end) combined by OR (or XOR) in its words [w0, w1)
// (multiples of 4; the other words are zero); returns whether one of the sets is a run chunk
// there. Called by the whole workgroup in uniform control flow; it ends with a barrier, and the
// caller's barriers separate two calls. Each subgroup takes every gl_NumSubgroups-th set, its
// lanes looking up a subgroup's worth of sets' entries at once.
bool many_union(uint c, uint first, uint end, bool use_xor, uint w0, uint w1) {
    uint t = gl_LocalInvocationIndex;
    for (uint w = t; w < VKALGO_SET_BITMAP_WORDS; w += WG_SIZE) {
        MANY_UNION_ACC[w] = 0u;
    }
    if (t == 0u) {
        s_union_runs = 0u;
    }
    barrier();
    uint lane = gl_SubgroupInvocationID;
    uint width = gl_SubgroupSize;
    uint stride = gl_NumSubgroups;
    uint lo_value = w0 << 5;
    uint hi_value = (w1 << 5) - 1u;
    bool runs_seen = false;
    for (uint base = first + gl_SubgroupID; base < end; base += stride * width) {
        uint mine = base + lane * stride;
        uvec4 slot = uvec4(0u);  // control address (xy) and entry (zw) of set `mine`
        uint packed = 0u;
        if (mine < end) {
            VkalgoSetView v = MANY_UNION_VIEW(mine);
            slot = uvec4(unpackUint2x32(v.control), vkalgo_set_entry(v, c));
            packed = v.packed;
        }
        uint sets = min(width, (end - base + stride - 1u) / stride);
        for (uint k = 0u; k < sets; ++k) {
            uvec4 at = subgroupShuffle(slot, k);
            uint card = at.z & VKALGO_SET_CARD_MASK;
            if (card == 0u) {
                continue;
            }
            VkalgoSetView s = VkalgoSetView(packUint2x32(at.xy), subgroupShuffle(packed, k), 0u);
            runs_seen = union_chunk(s, at.zw, card, use_xor, w0, w1, lo_value, hi_value, lane, width)
                     || runs_seen;
        }
    }
    if (runs_seen) {
        atomicOr(s_union_runs, 1u);
    }
    barrier();
    return s_union_runs != 0u;
}

#endif
