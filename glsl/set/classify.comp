#version 460
// One invocation per chunk (65536; in a batch, per group of 64 chunks): decides what an operation does with each chunk from the
// operands' cardinalities alone (the empty/full summary), and lists the chunks that need a
// workgroup (array pairs for small_pairs.comp and array_pairs.comp, bitmap pairs for bitmap_pairs.comp, the rest
// for chunk_update.comp, an operand's chunk that the result keeps unchanged for
// small_pairs.comp to copy, pairs of run chunks with few runs for run_pairs.glsl) or only a
// directory change (trivial list: chunk | full << 16).
// mode 0: materialize `op` of a and b into d; mode 1: cardinality of `op` of a and b (decided
// chunks add their cardinality to the totals at once, nothing is listed but the undecided
// pairs); mode 2: insert the range [range_lo, range_hi) into d; mode 4: run_optimize d (every
// chunk that is neither empty nor full goes to chunk_update.comp, which writes it again in the
// form result_form picks).
//
// Run chunks (in a, b, or as d's old chunk) go to chunk_update.comp or run_pairs.glsl only
// (or trivial.comp, for what the entries alone decide): the pair and copy kernels never see
// one.
#define SET_RUN_CHUNKS
#include "set_common.glsl"

#include "../common/last_workgroup.glsl"

// aux 1 (bits 0-1): counts this workgroup finished (after its list entries and bound sums);
// the last one sees every workgroup's sums and decides for the writing pass. Workgroup-uniform
// control flow.
void decide_when_last() {
    if (finished_last(pc.scratch + uint64_t(S_DONE) * 4ul) && gl_LocalInvocationIndex == 0u) {
        // Counters other workgroups added to are read atomically (coherently).
        U32AtomicRef s = U32AtomicRef(pc.scratch);
        uint bound_bm = atomicAdd(s.v[S_BOUND_BM], 0u);
        uint bound_ar = atomicAdd(s.v[S_BOUND_AR], 0u);
        uint listed = atomicAdd(s.v[S_WORK_COUNT], 0u) + atomicAdd(s.v[S_PAIR_COUNT], 0u)
                    + atomicAdd(s.v[S_PAIR_MEDIUM_COUNT], 0u) + atomicAdd(s.v[S_BITMAP_COUNT], 0u)
                    + atomicAdd(s.v[S_COPY_COUNT], 0u) + atomicAdd(s.v[S_RUN_PAIR_COUNT], 0u);
        U32Ref cur = U32Ref(cursor_addr(pc.meta_d, 0u));
        uint free_bm = cur.v[1] - cur.v[0];
        uint free_ar = cur.v[3] - cur.v[2];
        bool ok = atomicAdd(s.v[S_FAILED], 0u) == 0u && bound_bm <= free_bm && bound_ar <= free_ar;
        atomicExchange(s.v[S_OK], ok ? 1u : 0u);
        if (!ok) {
            atomicExchange(s.v[S_FAILED], 1u);
        }
        U32Ref o = U32Ref(pc.out_addr);
        o.v[0] = ok ? 1u : 0u;
        o.v[1] = bound_bm;
        o.v[2] = bound_ar;
        o.v[3] = free_bm;
        o.v[4] = free_ar;
        o.v[5] = 0u;
        o.v[6] = 0u;
        o.v[7] = listed;
    }
}

// The fewest and the most values `op` of chunks of ca and cb values can give.
uvec2 result_range(uint op, uint ca, uint cb) {
    if (op == OP_AND) {
        return uvec2(ca + cb > FULL ? ca + cb - FULL : 0u, min(ca, cb));
    }
    if (op == OP_OR) {
        return uvec2(max(ca, cb), min(ca + cb, FULL));
    }
    if (op == OP_ANDNOT) {
        return uvec2(ca > cb ? ca - cb : 0u, ca);
    }
    return uvec2(ca > cb ? ca - cb : cb - ca, min(ca + cb, 2u * FULL - ca - cb));
}

// Lists chunk c for trivial.comp: entry c | what, what FULL (a full chunk), 0 (an empty one),
// TRIVIAL_COPY_A / _B (operand a's or b's entry: a run chunk of one run, which has no storage)
// or both (the intersection of a's and b's runs of one run each, which overlap).
void push_trivial_entry(uint c, uint what) {
    uint i = atomicAdd(U32AtomicRef(pc.scratch).v[S_TRIVIAL_COUNT], 1u);
    U32Ref(pc.scratch).v[S_TRIVIAL + i] = c | what;
}

void push_trivial(uint c, bool full) {
    push_trivial_entry(c, full ? FULL : 0u);
}

// aux flag CLASSIFY_ONE_KERNEL (src/set/paths.rs OpPath::OneKernel, an operation of two sets
// with few array and bitmap blocks): every pair that needs a workgroup, copies of an
// operand's chunk included, is listed for chunk_update.comp, so that the bitmap, small and
// medium pair kernels need not be launched (each costs its launch even with nothing to do).
// The blocks bound of a pair is the same whichever kernel writes it. (generated/set.glsl)

// Chunk c: what the operation does with it (listed, trivial, or counted into the sums).
void classify_chunk(uint c, bool one_kernel, inout uint partial, inout uint full_chunks, inout uvec2 bound,
                    inout uint listed) {
    if (pc.mode == 2u) {
        uint64_t c0 = uint64_t(c) << 16;
        uint64_t c1 = c0 + 65536ul;
        uint cd = dir_entry(pc.meta_d, c).x;
        if (pc.range_lo < c1 && c0 < pc.range_hi && cd != FULL) {
            if (pc.range_lo <= c0 && c1 <= pc.range_hi) {
                push_trivial(c, true);
            } else {
                list_chunk(pc.scratch, c, CLASS_CHUNK);
            }
        }
    } else if (pc.mode == 4u) {
        uint cd = dir_entry(pc.meta_d, c).x;
        if (cd != 0u && cd != FULL) {
            list_chunk(pc.scratch, c, CLASS_CHUNK);
        }
    } else {
        uint xa = dir_entry(pc.meta_a, c).x;
        uint xb = dir_entry(pc.meta_b, c).x;
        uint ca = chunk_card(xa);
        uint cb = chunk_card(xb);
        // A run chunk in a, b or (below) as d's old chunk: chunk_update.comp's. Where a or
        // b is one, the result may be one (run_bound).
        bool operand_runs = chunk_runs(xa | xb) != 0u;
        bool runs = operand_runs;
        uint src;
        if (decide(pc.op, ca, cb, src)) {
            uint card = source_card(src, ca, cb);
            if (pc.mode == 1u) {
                if (card == FULL) {
                    full_chunks += 1u;
                } else {
                    partial += card;
                }
            } else {
                uint cd = dir_entry(pc.meta_d, c).x;
                runs = runs || chunk_runs(cd) != 0u;
                bool same = (src == 0u && pc.meta_d == pc.meta_a) || (src == 1u && pc.meta_d == pc.meta_b);
                if (card == 0u || card == FULL) {
                    if (cd != card) {
                        push_trivial(c, card == FULL);
                    }
                } else if (!same) {
                    if (src <= 1u && chunk_runs(src == 0u ? xa : xb) == 1u) {
                        // One run, in the entry alone: copied by trivial.comp.
                        push_trivial_entry(c, src == 0u ? TRIVIAL_COPY_A : TRIVIAL_COPY_B);
                    } else if (operand_runs && is_run_pair(xa, xb)) {
                        // A run chunk copied or complemented: run_pairs.glsl.
                        list_chunk(pc.scratch, c, CLASS_RUNS);
                        bound += uvec2(0u, 1u);
                    } else if (src <= 1u && !runs && !one_kernel) {
                        // An operand's chunk unchanged: copied block by block.
                        uint i = atomicAdd(U32AtomicRef(pc.scratch).v[S_COPY_COUNT], 1u);
                        U32Ref(pc.scratch).v[S_COPIES + i] = c | (src << 16);
                        bound += chunk_blocks(card);
                    } else {
                        uint cls = runs || one_kernel ? CLASS_CHUNK : pair_class(ca, cb);
                        list_chunk(pc.scratch, c, cls);
                        bound += run_bound(chunk_blocks(card), operand_runs);
                    }
                }
            }
        } else if (chunk_runs(xa) == 1u && chunk_runs(xb) == 1u
                   && (pc.mode == 1u || pc.op == OP_AND)) {
            // Two runs of one interval each (in the entries): every result's cardinality
            // follows from their overlap, and an intersection is one run or none
            // (trivial.comp writes it). CRoaring decides such pairs as cheaply.
            uint overlap = single_runs_overlap(dir_entry(pc.meta_a, c).y, dir_entry(pc.meta_b, c).y);
            if (pc.mode == 1u) {
                uint card = overlap_card(pc.op, ca, cb, overlap);
                if (card == FULL) {
                    full_chunks += 1u;
                } else {
                    partial += card;
                }
            } else if (overlap != 0u) {
                push_trivial_entry(c, TRIVIAL_COPY_A | TRIVIAL_COPY_B);
            } else if (dir_entry(pc.meta_d, c).x != 0u) {
                push_trivial(c, false);
            }
        } else {
            // Undecided: both are arrays, bitmaps or runs here (neither empty nor full).
            // Two run chunks of few runs: run_pairs.glsl, whatever d's old chunk is.
            listed += 1u;
            if (operand_runs && is_run_pair(xa, xb)) {
                list_chunk(pc.scratch, c, CLASS_RUNS);
                bound += uvec2(0u, 1u);
            } else {
                if (pc.mode == 0u) {
                    runs = runs || chunk_runs(dir_entry(pc.meta_d, c).x) != 0u;
                }
                bool bitmaps = ca > ARRAY_MAX && cb > ARRAY_MAX;
                uint cls = runs || one_kernel ? CLASS_CHUNK : bitmaps ? CLASS_BITMAPS : pair_class(ca, cb);
                list_chunk(pc.scratch, c, cls);
                uvec2 range = result_range(pc.op, ca, cb);
                bound += run_bound(chunk_blocks_between(range.x, range.y), operand_runs);
            }
        }
    }
}

#ifdef SET_BATCH
// The chunks of 64-chunk group g that are non-empty in the set at `meta` (bit i: chunk
// 64 g + i): a packed directory's index word, else the group's 64 entries.
uvec2 group_chunks(uint64_t meta, uint g) {
    if (dir_packed(meta)) {
        return VkalgoSetIndexRef(meta + META_DIR + uint64_t(g) * 16ul).v[0].xy;
    }
    uvec2 m = uvec2(0u);
    for (uint i = 0u; i < 64u; i++) {
        if (dir_entry(meta, g * 64u + i).x != 0u) {
            m[i >> 5] |= 1u << (i & 31u);
        }
    }
    return m;
}
#endif

void main() {
    set_begin();
    bool one_kernel = (pc.aux & CLASSIFY_ONE_KERNEL) != 0u;
    uint aux = pc.aux & 3u;
    // Cardinality mode: decided chunks' values (partial chunks) and full chunks, summed over
    // the subgroup and added by one invocation (no barrier: CPU drivers run kernels without
    // barriers much faster).
    uint partial = 0u;
    uint full_chunks = 0u;
    uvec2 bound = uvec2(0u);
    uint listed = 0u;
#ifdef SET_BATCH
    // A batch (operations and cardinalities of two sets only): one invocation per group of 64
    // chunks, which classifies only the chunks non-empty in an operand or the destination (a
    // chunk empty in all three changes nothing) - a batch of small sets skips most of the
    // 65536. A destination the host knows empty (job flag) is not read.
    uint g = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (g < DIR_GROUPS) {
        uvec2 m = group_chunks(pc.meta_a, g) | group_chunks(pc.meta_b, g);
        if (pc.mode == 0u && (pc.job_flags & SET_JOB_EMPTY_D) == 0u) {
            m |= group_chunks(pc.meta_d, g);
        }
        for (uint h = 0u; h < 2u; h++) {
            while (m[h] != 0u) {
                uint c = g * 64u + h * 32u + uint(findLSB(m[h]));
                m[h] &= m[h] - 1u;
                classify_chunk(c, one_kernel, partial, full_chunks, bound, listed);
            }
        }
    }
#else
    uint c = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (c < CHUNKS) {
        classify_chunk(c, one_kernel, partial, full_chunks, bound, listed);
    }
#endif
    if (pc.mode == 0u) {
        bound.x = subgroup_sum(bound.x);
        bound.y = subgroup_sum(bound.y);
        if (subgroupElect()) {
            if (bound.x != 0u) {
                atomicAdd(U32AtomicRef(pc.scratch).v[S_BOUND_BM], bound.x);
            }
            if (bound.y != 0u) {
                atomicAdd(U32AtomicRef(pc.scratch).v[S_BOUND_AR], bound.y);
            }
            if (linear_workgroup_id() == 0u) {
                U32Ref(pc.scratch).v[S_BOUND_VALID] = 1u;
            }
        }
        if (aux == 1u) {
            decide_when_last();
        }
    }
    if (pc.mode == 1u && aux == 2u) {
        // Cardinality only, no check pass: the status is ok, and its word 7 counts the
        // chunk pairs listed for a workgroup.
        uint listed_sum = subgroup_sum(listed);
        if (subgroupElect() && listed_sum != 0u) {
            atomicAdd(U32AtomicRef(pc.out_addr).v[7], listed_sum);
        }
        if (linear_workgroup_id() == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.out_addr).v[0] = 1u;
        }
    }
    if (pc.mode == 1u) {
        partial = subgroup_sum(partial);
        full_chunks = subgroup_sum(full_chunks);
        if (subgroupElect()) {
            if (partial != 0u) {
                atomicAdd(U32AtomicRef(card_sums_addr()).v[0], partial);
            }
            if (full_chunks != 0u) {
                atomicAdd(U32AtomicRef(card_sums_addr()).v[1], full_chunks);
            }
        }
    }
}
