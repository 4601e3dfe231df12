// Pairs of chunks that are each empty, full or a run chunk, with at most RUN_PAIR_MAX runs
// together (classify.comp lists them, set_common.glsl is_run_pair): one invocation a pair
// walks the two run lists and the result's runs come out of the walk, with no bitmap. This is
// how Roaring computes operations of run containers (CRoaring's run_container_union and its
// kin walk the two run arrays); a walk per invocation is several times faster than
// chunk_update.comp's workgroups expanding both into 8 KiB bitmaps
// (docs/tuning/set.md#run-pairs).
// The result has at most RUN_PAIR_MAX runs (each boundary of its runs is one of an operand's):
// stored in the form result_form (set_common.glsl) picks, a run chunk (one run in the entry,
// more in one array block) or an array of at most 2 * RUN_PAIR_MAX + 1 values (one array
// block), or nothing (empty, full).
// Counted (run_pair_count) and written (run_pair_write) by chunk_update.comp's invocations
// before their workgroup's chunks: no launch of their own, and not in trivial.comp, which runs
// beside chunk_update.comp, where the writes cost it registers (docs/tuning/set.md#run-pairs).
// A chunk of several runs whose result it is unchanged (the other side empty) is copied word
// by word, without a walk.
#ifndef VKALGO_SET_RUN_PAIRS_GLSL
#define VKALGO_SET_RUN_PAIRS_GLSL

// A chunk as a list of runs: r runs in the array block at `block`, or (block 0) the one run
// `single` (a one-run chunk's entry, a full chunk's [0, 65535]) or none.
struct RunList {
    uint64_t block;
    uint single;
    uint r;
    uint x;  // the entry's first word
};

RunList run_list(uint64_t meta, uint64_t pool, uint c) {
    uvec2 e = dir_entry(meta, c);
    uint r = pair_runs(e.x);
    if (r > 1u) {
        return RunList(run_words_addr(pool, e.y, dir_packed(meta)), 0u, r, e.x);
    }
    return RunList(0ul, chunk_card(e.x) == FULL ? 0xFFFF0000u : e.y, r, e.x);
}

// The operand whose run chunk is the result unchanged (0 a, 1 b; classify lists such a copy
// only for a chunk of several runs, whose block is copied word by word), else 2.
uint run_pair_copy(RunList a, RunList b) {
    if (b.r == 0u && pc.op != OP_AND) {
        return 0u;
    }
    if (a.r == 0u && (pc.op == OP_OR || pc.op == OP_XOR)) {
        return 1u;
    }
    return 2u;
}

// Run i (< l.r) as first | last << 16.
uint run_list_word(RunList l, uint i) {
    return l.block == 0ul ? l.single : U32Ref(l.block).v[i];
}

// What the walk does with the result's runs.
#define EMIT_COUNT 0u  // only count them
#define EMIT_RUNS 1u   // run i to word i of the array block at `out_addr`
#define EMIT_ARRAY 2u  // their values, two a word, to the array block at `out_addr`

// The result's cardinality, run count and first run (first | last << 16), writing the runs or
// values as `emit` says. The walk visits every boundary of either operand's runs in ascending
// order (at most 2 * (a.r + b.r) + 1 steps): between two boundaries membership in a and b is
// fixed, and the result's runs start and end where op's answer changes. Each list's next run
// is loaded a run ahead, so that a step seldom waits for memory.
uvec3 run_pair_walk(RunList a, RunList b, uint emit, uint64_t out_addr) {
    U32Ref out_block = U32Ref(out_addr);
    uint card = 0u;
    uint runs = 0u;
    uint first_run = 0u;
    uint low_value = 0u;  // EMIT_ARRAY: the low value of a word not yet stored
    uint ia = 0u;
    uint ib = 0u;
    uint wa = a.r != 0u ? run_list_word(a, 0u) : 0u;
    uint wb = b.r != 0u ? run_list_word(b, 0u) : 0u;
    uint next_wa = a.r > 1u ? run_list_word(a, 1u) : 0u;
    uint next_wb = b.r > 1u ? run_list_word(b, 1u) : 0u;
    bool open = false;
    uint start = 0u;
    uint x = 0u;
    while (x <= FULL) {
        bool in_result = false;
        uint next = FULL + 1u;
        if (x < FULL) {
            // A run that ended below x (at most one of each list: x only moves to the next
            // boundary).
            if (ia < a.r && (wa >> 16) < x) {
                ia++;
                wa = next_wa;
                next_wa = ia + 1u < a.r ? run_list_word(a, ia + 1u) : 0u;
            }
            if (ib < b.r && (wb >> 16) < x) {
                ib++;
                wb = next_wb;
                next_wb = ib + 1u < b.r ? run_list_word(b, ib + 1u) : 0u;
            }
            bool in_a = ia < a.r && (wa & 0xFFFFu) <= x;
            bool in_b = ib < b.r && (wb & 0xFFFFu) <= x;
            uint next_a = ia >= a.r ? FULL : in_a ? (wa >> 16) + 1u : (wa & 0xFFFFu);
            uint next_b = ib >= b.r ? FULL : in_b ? (wb >> 16) + 1u : (wb & 0xFFFFu);
            next = min(next_a, next_b);
            in_result = pc.op == OP_AND ? in_a && in_b
                      : pc.op == OP_OR ? in_a || in_b
                      : pc.op == OP_ANDNOT ? in_a && !in_b : in_a != in_b;
        }
        if (in_result && !open) {
            start = x;
        } else if (!in_result && open) {
            // The run [start, x - 1] is complete.
            uint word = start | ((x - 1u) << 16);
            if (runs == 0u) {
                first_run = word;
            }
            if (emit == EMIT_RUNS) {
                out_block.v[runs] = word;
            } else if (emit == EMIT_ARRAY) {
                for (uint v = start; v < x; v++) {
                    uint j = card + (v - start);
                    if ((j & 1u) == 0u) {
                        low_value = v;
                    } else {
                        out_block.v[j >> 1] = low_value | (v << 16);
                    }
                }
            }
            runs++;
            card += x - start;
        }
        open = in_result;
        x = next;
    }
    if (emit == EMIT_ARRAY && (card & 1u) != 0u) {
        out_block.v[card >> 1] = low_value;
    }
    return uvec3(card, runs, first_run);
}

// The operands' array pools (their blocks), read once by an invocation.
struct RunPairPools {
    uint64_t a;
    uint64_t b;
};

RunPairPools run_pair_pools() {
    return RunPairPools(SetMetaRef(pc.meta_a).ar_pool, SetMetaRef(pc.meta_b).ar_pool);
}

// The entry's first word of the result of chunk c's pair (result_form), and its first run.
uvec2 run_pair_form(uint c, RunPairPools pools, out RunList a, out RunList b) {
    a = run_list(pc.meta_a, pools.a, c);
    b = run_list(pc.meta_b, pools.b, c);
    uint copy = run_pair_copy(a, b);
    if (copy != 2u) {
        return uvec2(copy == 0u ? a.x : b.x, 0u);
    }
    uvec3 counted = run_pair_walk(a, b, EMIT_COUNT, 0ul);
    return uvec2(result_form(counted.x, counted.y), counted.z);
}

// Stages 0 and 2: adds chunk c's result to the invocation's sums.
void run_pair_count(uint c, RunPairPools pools, inout PassSums sums) {
    RunList a;
    RunList b;
    pass_sums_count_form(sums, run_pair_form(c, pools, a, b).x);
}

// Stage 1: writes chunk c's result into the destination over its old chunk, whose blocks go
// back (its first array block is written over where the destination is not an operand: its
// other blocks, whose ids are in that block's header, are given back first).
void run_pair_write(uint c, RunPairPools pools, ArrayPool d) {
    RunList a;
    RunList b;
    uvec2 counted = run_pair_form(c, pools, a, b);
    uint form = counted.x;
    uint card = chunk_card(form);
    uint runs = chunk_runs(form);
    uvec2 old_d = dir_entry(pc.meta_d, c);
    uint old_card = chunk_card(old_d.x);
    uvec2 e = uvec2(form, 0u);
    if (runs == 1u) {
        e.y = counted.y;
    } else if (runs > 1u || (card != 0u && card != FULL)) {
        bool aliased = pc.meta_d == pc.meta_a || pc.meta_d == pc.meta_b;
        uint k_old = entry_blocks(old_d.x).y;
        if (!aliased && k_old != 0u) {
            e.y = old_d.y;
            if (k_old > 1u) {
                uint pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 3u)).v[0], k_old - 1u);
                give_back_header_blocks(d, old_d.y, 1u, k_old, pos);
            }
            old_d = uvec2(0u);
        } else {
            e.y = pool_ring_id(d, take_blocks(POOL_ARRAY, 1u));
        }
        uint64_t out_addr = pool_block(d.blocks, e.y);
        uint copy = run_pair_copy(a, b);
        if (copy != 2u) {
            RunList from = copy == 0u ? a : b;
            for (uint i = 0u; i < runs; i++) {
                U32Ref(out_addr).v[i] = U32Ref(from.block).v[i];
            }
        } else {
            run_pair_walk(a, b, runs > 1u ? EMIT_RUNS : EMIT_ARRAY, out_addr);
        }
    }
    // After the walks: the old chunk may be an operand's.
    free_chunk_storage_serial(old_d);
    set_dir_entry(pc.meta_d, c, e);
    note_nonempty(pc.meta_d, old_card, card);
}

#endif
