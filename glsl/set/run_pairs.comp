#version 460
// Pairs of chunks that are each empty, full or a run chunk, with at most RUN_PAIR_MAX runs
// together (classify.comp lists them, set_common.glsl is_run_pair): one invocation a pair
// (grid-stride over the list) walks the two run lists and the result's runs come out of the
// walk, with no bitmap. This is how Roaring computes operations of run containers (CRoaring's
// run_container_union and friends walk the two run arrays); a workgroup of chunk_update.comp
// expanding both into 8 KiB bitmaps took about 50 us for the ~1000 such pairs of two clustered
// 2^24-value sets on an H200.
// The result has at most RUN_PAIR_MAX runs (each of its run boundaries is one of an operand's):
// stored as result_form (set_common.glsl) picks, a run chunk (one run in the entry, more in one
// array block) or an array of at most 2 * RUN_PAIR_MAX + 1 values (one array block), or
// nothing (empty, full).
// Stage (aux) 0 counts the result's cardinality and blocks, 1 (after the check pass found
// enough free blocks) writes it, 2 adds its cardinality to a cardinality-only operation's sums.
// The destination's old chunk may be anything: its blocks are given back (its one array block
// or the first of several is written over when the destination is not an operand).
#define SET_RUN_CHUNKS
#include "set_common.glsl"

// A chunk as a list of runs: full chunks are the one run [0, 65535].
struct RunList {
    uint64_t meta;
    uvec2 e;
    uint r;
};

RunList run_list(uint64_t meta, uint c) {
    uvec2 e = dir_entry(meta, c);
    return RunList(meta, e, pair_runs(e.x));
}

// Run i (< l.r) as first | last << 16.
uint run_word(RunList l, uint i) {
    return chunk_card(l.e.x) == FULL ? 0xFFFF0000u : chunk_run_word(l.meta, l.e, i);
}

// What the walk does with the result's runs.
#define EMIT_COUNT 0u  // only count them
#define EMIT_RUNS 1u   // run i to word i of array block `id`
#define EMIT_ARRAY 2u  // their values, two a word, to array block `id` (a one-block array)

// The result's cardinality, run count and first run (first | last << 16), writing the runs or
// values as `emit` says. The walk visits every boundary of either operand's runs in ascending
// order (at most 2 * (a.r + b.r) + 1 steps): between two boundaries membership in a and b is
// fixed, and the result's runs start and end where op's answer changes.
uvec3 walk(RunList a, RunList b, uint emit, uint id) {
    U32Ref out_block = U32Ref(emit != EMIT_COUNT ? array_block_addr(pc.meta_d, id) : 0ul);
    uint card = 0u;
    uint runs = 0u;
    uint first_run = 0u;
    uint low_value = 0u;  // EMIT_ARRAY: the low value of a word not yet stored
    uint ia = 0u;
    uint ib = 0u;
    uint wa = a.r != 0u ? run_word(a, 0u) : 0u;
    uint wb = b.r != 0u ? run_word(b, 0u) : 0u;
    bool open = false;
    uint start = 0u;
    uint x = 0u;
    while (x <= FULL) {
        bool in_result = false;
        uint next = FULL + 1u;
        if (x < FULL) {
            // Runs that ended below x (at most one of each list: x only moves to the next
            // boundary).
            if (ia < a.r && (wa >> 16) < x) {
                ia++;
                wa = ia < a.r ? run_word(a, ia) : 0u;
            }
            if (ib < b.r && (wb >> 16) < x) {
                ib++;
                wb = ib < b.r ? run_word(b, ib) : 0u;
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

void main() {
    uint stage = pc.aux;
    if (stage == 1u ? U32Ref(pc.scratch).v[S_OK] == 0u
                    : stage == 0u && one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    uint n = U32Ref(pc.scratch).v[S_RUN_PAIR_COUNT];
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    PassSums sums = pass_sums_new();
    bool aliased = pc.meta_d == pc.meta_a || pc.meta_d == pc.meta_b;
    for (uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex; i < n; i += stride) {
        uint c = U32Ref(pc.scratch).v[S_RUN_PAIRS_ENTRY(i)];
        RunList a = run_list(pc.meta_a, c);
        RunList b = run_list(pc.meta_b, c);
        uvec3 counted = walk(a, b, EMIT_COUNT, 0u);
        uint card = counted.x;
        uint form = result_form(card, counted.y);
        if (stage != 1u) {
            pass_sums_count_form(sums, form);
            continue;
        }
        uvec2 old_d = dir_entry(pc.meta_d, c);
        uint old_card = chunk_card(old_d.x);
        uvec2 e = uvec2(form, 0u);
        uint runs = chunk_runs(form);
        bool stored = runs > 1u || (runs == 0u && card != 0u && card != FULL);
        if (runs == 1u) {
            e.y = counted.z;
        } else if (stored) {
            // One array block: the old chunk's first array block where the destination is not
            // an operand (its other blocks given back first: their ids are in that block's
            // header), else a new one, the old storage given back after the walk.
            uint k_old = entry_blocks(old_d.x).y;
            if (!aliased && k_old != 0u) {
                e.y = old_d.y;
                if (k_old > 1u) {
                    ArrayPool d = array_pool(pc.meta_d);
                    uint pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 3u)).v[0], k_old - 1u);
                    U32Ref header = U32Ref(pool_block(d.blocks, old_d.y));
                    for (uint blk = 1u; blk < k_old; blk++) {
                        U32Ref(d.ring).v[(pos + blk - 1u) & d.mask] = header.v[blk - 1u];
                    }
                }
                old_d = uvec2(0u);
            } else {
                e.y = ring_id(POOL_ARRAY, take_blocks(POOL_ARRAY, 1u));
            }
            walk(a, b, runs > 1u ? EMIT_RUNS : EMIT_ARRAY, e.y);
        }
        free_chunk_storage_serial(old_d);
        set_dir_entry(pc.meta_d, c, e);
        pass_sums_written(sums, old_card, card);
    }
    sums.card_partial = subgroup_sum(sums.card_partial);
    sums.card_full = subgroup_sum(sums.card_full);
    sums.need_bm = subgroup_sum(sums.need_bm);
    sums.need_ar = subgroup_sum(sums.need_ar);
    sums.nonempty_up = subgroup_sum(sums.nonempty_up);
    sums.nonempty_down = subgroup_sum(sums.nonempty_down);
    if (subgroupElect()) {
        pass_sums_flush(sums);
    }
}
